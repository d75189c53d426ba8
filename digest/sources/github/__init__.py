"""Collect a day's merged pull requests from the GitHub API (github.com or GitHub Enterprise).

The day's merges are found with GitHub's search, ``repo:R is:pr is:merged merged:<day>``;
for a repository whose merge bot closes pull requests and labels them (``merged_label``),
``repo:R is:pr is:closed label:<label> closed:<day>`` with the closing time as merge time.
A search yields at most 1,000 results, so a window with more is split in halves until each
part fits. With a token, everything comes in bulk through GraphQL (one request per 100 pull
requests); without one, or where GraphQL is missing, through REST (three requests per pull
request). Only :class:`~digest.models.PullRequest` records leave this package; every
PyGithub, HTTP or parsing failure becomes one :class:`~digest.errors.WireError` naming the
repository.

The modules: :mod:`.source` (the source a run uses), :mod:`.client` (PyGithub set up with
retries and request counting, one per run), :mod:`.graphql` and :mod:`.rest` (the two ways of
searching), :mod:`.query` (the GraphQL queries and the shapes of their answers),
:mod:`.records` (the records both build), :mod:`.hints` (``merged_label`` advice) and
:mod:`.errors` (what can go wrong, in one line).
"""

from digest.sources.github.source import GitHubSource, RateBudget

__all__ = ["GitHubSource", "RateBudget"]
