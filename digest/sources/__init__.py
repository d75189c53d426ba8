"""Sources: where merged changes are collected from (a local git clone, the GitHub API)."""
