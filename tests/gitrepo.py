"""Build small git repositories in a temporary folder for tests.

Every git call runs with the user's and the system's configuration switched off, so a
developer's ``~/.gitconfig`` (signing, hooks, default branch) cannot change a test.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

#: File contents to write: text, raw bytes, or ``None`` to delete the file.
Content = str | bytes | None


def at(day: dt.date, hh: int = 12, mm: int = 0, ss: int = 0) -> dt.datetime:
    """Return ``day`` at ``hh:mm:ss`` UTC as an aware datetime."""
    return dt.datetime.combine(day, dt.time(hh, mm, ss), tzinfo=dt.UTC)


def git_env() -> dict[str, str]:
    """Return an environment for git isolated from the user's and the system's configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}
    return env


#: Settings for every call; later ``-c`` options (a commit's author) override these.
_DEFAULTS = [
    *("-c", "gc.auto=0", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"),
    *("-c", "user.name=Test Runner", "-c", "user.email=test@example.invalid"),
]


def run_git(
    cwd: Path, *args: str, env: Mapping[str, str] | None = None, stdin: str | bytes = ""
) -> str:
    """Run ``git args`` in ``cwd`` with ``env`` added to :func:`git_env`; return its stdout."""
    done = subprocess.run(
        ["git", *_DEFAULTS, *args],
        cwd=cwd,
        env=git_env() | dict(env or {}),
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr.decode()}")
    return done.stdout.decode()


def _stamp(when: dt.datetime) -> str:
    """Return ``when`` in git's raw date format (``@<epoch> +0000``)."""
    return f"@{int(when.timestamp())} +0000"


class GitRepo:
    """A non-bare repository at ``path`` whose commits the test chooses one by one."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", branch)

    def git(self, *args: str, env: Mapping[str, str] | None = None, stdin: str | bytes = "") -> str:
        """Run ``git args`` in this repository and return its stdout."""
        return run_git(self.path, *args, env=env, stdin=stdin)

    def commit(
        self,
        message: str,
        when: dt.datetime,
        files: Mapping[str, Content] | None = None,
        *,
        author: str = "Ada Lovelace",
        authored: dt.datetime | None = None,
        renames: Mapping[str, str] | None = None,
    ) -> str:
        """Write ``files``, apply ``renames`` (old -> new), commit everything; return the sha.

        ``when`` is the committer date; ``authored`` (default ``when``) the author date.
        The message is kept as given apart from surrounding blank lines.
        """
        for old, new in (renames or {}).items():
            (self.path / new).parent.mkdir(parents=True, exist_ok=True)
            self.git("mv", old, new)
        for name, content in (files or {}).items():
            self._write(name, content)
        self.git("add", "-A")
        dates = {
            "GIT_AUTHOR_DATE": _stamp(authored or when),
            "GIT_COMMITTER_DATE": _stamp(when),
        }
        self.git(
            *("-c", f"user.name={author}", "-c", "user.email=dev@example.invalid"),
            *("commit", "-q", "--allow-empty", "--no-verify", "--cleanup=whitespace", "-F", "-"),
            env=dates,
            stdin=message,
        )
        return self.head()

    def commit_object(self, message: bytes, when: dt.datetime, author: bytes = b"Ada") -> str:
        """Commit HEAD's tree again with raw ``message`` bytes (NULs, invalid UTF-8 and all).

        ``git commit`` refuses such messages; this writes the object directly, moves the
        current branch to it and returns its sha.
        """
        stamp = f"{int(when.timestamp())} +0000".encode()
        tree, parent = self.git("rev-parse", "HEAD^{tree}", "HEAD").split()
        raw = b"".join(
            [
                f"tree {tree}\nparent {parent}\n".encode(),
                b"author " + author + b" <dev@example.invalid> " + stamp + b"\n",
                b"committer Bot <bot@example.invalid> " + stamp + b"\n\n",
                message,
            ]
        )
        args = ("hash-object", "-t", "commit", "-w", "--literally", "--stdin")
        sha = self.git(*args, stdin=raw).strip()
        self.git("update-ref", "HEAD", sha)
        return sha

    def merge(self, branch: str, message: str, when: dt.datetime) -> str:
        """Merge ``branch`` into the current branch with a merge commit; return its sha."""
        dates = {"GIT_AUTHOR_DATE": _stamp(when), "GIT_COMMITTER_DATE": _stamp(when)}
        self.git(
            *("-c", "user.name=Merge Bot", "-c", "user.email=bot@example.invalid"),
            *("merge", "-q", "--no-ff", "--no-verify", "-m", message, branch),
            env=dates,
        )
        return self.head()

    def branch(self, name: str, start: str = "HEAD") -> None:
        """Create branch ``name`` at ``start`` and switch to it."""
        self.git("checkout", "-q", "-b", name, start)

    def checkout(self, name: str) -> None:
        self.git("checkout", "-q", name)

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def blob(self, rev: str, path: str) -> str:
        """Return the id of the blob at ``path`` in ``rev``."""
        return self.git("rev-parse", f"{rev}:{path}").strip()

    def delete_object(self, oid: str) -> None:
        """Delete the loose object ``oid``, as a corrupt or partial clone would lack it."""
        loose = self.path / ".git" / "objects" / oid[:2] / oid[2:]
        loose.chmod(0o644)
        loose.unlink()

    def bare_clone(self, dest: Path, *args: str) -> Path:
        """Clone this repository into the bare repository ``dest`` (extra ``args`` to clone)."""
        run_git(dest.parent, "clone", "-q", "--bare", *args, self.path.as_uri(), str(dest))
        return dest

    def _write(self, name: str, content: Content) -> None:
        target = self.path / name
        if content is None:
            target.unlink()
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
