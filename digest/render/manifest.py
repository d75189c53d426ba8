"""The build manifest: what the last build read and wrote, so the next one does only what changed.

An SQLite file beside the site's builds (``.<site>.builds/manifest.sqlite``, never
published) holding, per digest file, its stat, its listing entry (with the changes it
cites, what it reverts and its topics, indexed), its action items (for the desks) and a
hash of its line in listings (a year page makes again only the months whose lines
changed); per collected day, its stat, hash and pull request numbers; and per page, the
key (a hash of its inputs) it was rendered from, the SHA-256 of the bytes written and its
*group*: the month it belongs to (an edition, a cited change's page, a file of the month's
search index), the year (a year's listings) or :data:`SITE_WIDE`. The hashes let a build
check that the site it starts from holds what the last build wrote, and nothing else (see
:mod:`.verify`).
A build re-plans only the groups an input change reaches, so adding a day costs about a
month's editions however long the archive; the rest is looked up by index, not read.

A build writes it in one transaction, committed only once the build is published (see
:mod:`.publish`): a failed build leaves it as it was. So the manifest is never newer than
the published site, only older after a crash between the two; and an older manifest only
makes pages it does not know be rendered again, never skipped. A missing, corrupt or
foreign manifest opens empty, which means a full build.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import closing
from pathlib import Path

import msgspec
from msgspec import Struct

from digest.render.publish import MANIFEST
from digest.render.stamp import Bucket
from digest.render.verify import BUILDS_META, Vouched, recorded_builds
from digest.render.views import EditionActions, Entry

NAME = MANIFEST
FORMAT = 9
#: The manifest of earlier versions, as JSON.
_LEGACY = ".wire-manifest.json"
#: The group of the pages that span years: front page, feeds, desks, sitemap index.
SITE_WIDE = 0


def month_group(month: str) -> int:
    """The group of the pages of ``month`` (``YYYY-MM``): ``YYYYMM``."""
    return int(month[:4]) * 100 + int(month[5:7])


def year_group(group: int) -> int:
    """The group of the year of ``group`` (a month's or a year's): ``YYYY00``."""
    return group - group % 100


def group_name(group: int) -> str:
    """What ``group`` is called in a path: ``YYYY-MM``, ``YYYY`` or ``site``."""
    if group == SITE_WIDE:
        return "site"
    year, month = divmod(group, 100)
    return f"{year}-{month:02}" if month else str(year)


_SCHEMA = """
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE digests(
    key TEXT PRIMARY KEY, slug TEXT NOT NULL, date TEXT NOT NULL, month TEXT NOT NULL,
    year INTEGER NOT NULL, stamp INTEGER NOT NULL, size INTEGER NOT NULL,
    sha256 TEXT NOT NULL, entry TEXT NOT NULL, actions TEXT NOT NULL, shown TEXT NOT NULL
);
CREATE INDEX digests_date ON digests(date DESC, slug);
CREATE INDEX digests_slug ON digests(slug, date DESC);
CREATE INDEX digests_month ON digests(month, slug);
-- What a year page's months need, without reading the entries.
CREATE INDEX digests_lines ON digests(year, date DESC, slug, month, shown);
CREATE TABLE cites(
    pr TEXT NOT NULL, date TEXT NOT NULL, slug TEXT NOT NULL,
    PRIMARY KEY(pr, date, slug)
) WITHOUT ROWID;
CREATE TABLE follow_ups(
    target TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY(target, key)
) WITHOUT ROWID;
CREATE TABLE topics(
    topic TEXT NOT NULL, date TEXT NOT NULL, slug TEXT NOT NULL, month TEXT NOT NULL,
    shown TEXT NOT NULL, PRIMARY KEY(topic, date DESC, slug)
) WITHOUT ROWID;
-- Editions per month: of the site ('site', ''), of each project ('slug', slug) and of
-- each topic ('topic', topic), kept up to date with digests and topics.
CREATE TABLE counts(
    kind TEXT NOT NULL, name TEXT NOT NULL, month TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY(kind, name, month)
) WITHOUT ROWID;
CREATE TABLE collected(
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    sha256 TEXT, numbers TEXT
) WITHOUT ROWID;
CREATE TABLE pages(
    path TEXT PRIMARY KEY, key TEXT NOT NULL, grp INTEGER NOT NULL, sha256 TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX pages_grp ON pages(grp);
-- A page's file as last seen holding its recorded bytes: "inode:ctime_ns:size".
CREATE TABLE seen(path TEXT PRIMARY KEY, stat TEXT NOT NULL) WITHOUT ROWID;
-- The seals of the buckets of a folder's files, a JSON list (see verify.py).
CREATE TABLE sealed(folder TEXT PRIMARY KEY, seals TEXT NOT NULL) WITHOUT ROWID;
"""
#: The tables that describe inputs; emptied when the code or settings changed.
_INPUT_TABLES = ("digests", "cites", "follow_ups", "topics", "counts", "collected")


#: A digest file as last seen: its stamp (mtime ^ inode) and size.
Record = tuple[int, int]


class Page(Struct, frozen=True):
    """A page as the build that wrote it recorded it."""

    #: The hash of the page's inputs ("" when it must be rendered again).
    key: str
    group: int
    #: The SHA-256 (hex) of the file's bytes ("" when not known: the page is not trusted).
    sha256: str


class CollectedDay(Struct, frozen=True):
    """A collected repository-day file as last seen, and the pull requests it holds."""

    mtime_ns: int
    size: int
    #: Of the file's bytes, or None when no page needed it yet (it was never opened): a
    #: copy of the data folder (a fresh checkout) changes every file's mtime, not what a
    #: page of its pull requests shows.
    sha256: str | None
    numbers: frozenset[int]


class Manifest:
    """The manifest of the site being built, open on its own copy of the file.

    ``trusted`` says whether its input records were made by this code and these
    settings (``version``); when not, they are emptied and every group is planned again.
    Page keys are kept whatever made them: they say which files the Wire wrote.
    """

    def __init__(self, connection: sqlite3.Connection, version: str, *, trusted: bool) -> None:
        self.db = connection
        #: The hash of the code and settings the manifest's records are for.
        self.version = version
        self.trusted = trusted
        self._entries: dict[str, Entry] = {}

    def meta(self, name: str) -> str | None:
        """The value stored under ``name``, or None."""
        row = self.db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, name: str, value: str) -> None:
        """Store ``value`` under ``name``."""
        if self.meta(name) != value:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))

    # -- digests -----------------------------------------------------------------------

    def records(self, buckets: Iterable[str]) -> dict[str, Record]:
        """The stamp (mtime ^ inode) and size of the digests in ``buckets``
        (``digests/<slug>/<year>``), by key (``slug/YYYY-MM-DD``)."""
        found: dict[str, Record] = {}
        for bucket in buckets:
            slug, _, year = bucket.removeprefix("digests/").rpartition("/")
            rows = self.db.execute(
                "SELECT key, stamp, size FROM digests WHERE slug = ? AND date >= ? AND date < ?",
                (slug, year, f"{year}\uffff"),
            )
            found.update((key, (stamp, size)) for key, stamp, size in rows)
        return found

    def changed_buckets(
        self, part: str, buckets: Mapping[str, Bucket]
    ) -> tuple[dict[str, Bucket], list[str]]:
        """The ``buckets`` of ``part`` (``digests`` or ``collected``), and the names, sorted,
        of those whose hash differs from the one stored by :meth:`keep_buckets` (new and
        gone ones too)."""
        now = {name: b for name, b in buckets.items() if name.startswith(f"{part}/")}
        try:
            stored = json.loads(self.meta(f"{part} buckets") or "{}")
        except ValueError:
            stored = {}
        if not isinstance(stored, dict):
            stored = {}
        changed = sorted(
            name
            for name in now.keys() | stored.keys()
            if stored.get(name) != (now[name].hash if name in now else None)
        )
        return now, changed

    def keep_buckets(self, part: str, buckets: Mapping[str, Bucket]) -> None:
        """Store the hashes of ``buckets`` of ``part``, for the next build to compare."""
        hashes = {name: bucket.hash for name, bucket in buckets.items()}
        self.set_meta(f"{part} buckets", json.dumps(hashes, sort_keys=True))

    def sha256(self, key: str) -> str | None:
        """The hash of digest ``key`` as recorded."""
        row = self.db.execute("SELECT sha256 FROM digests WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def restamp(self, key: str, record: Record) -> None:
        """Record that digest ``key`` is now ``record`` (its stat), its bytes unchanged."""
        stamp, size = record
        self.db.execute("UPDATE digests SET stamp = ?, size = ? WHERE key = ?", (stamp, size, key))

    def put(self, key: str, record: Record, entry: Entry, actions: EditionActions) -> None:
        """Record digest ``key`` as ``record``, a new or changed edition: ``entry`` and its
        ``actions``."""
        stamp, size = record
        self.remove(key)
        text = json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":"))
        items = json.dumps(actions.to_json(), ensure_ascii=False, separators=(",", ":"))
        shown = hashlib.sha256(repr(entry).encode()).hexdigest()[:16]
        day, slug = entry.date.isoformat(), entry.slug
        self.db.execute(
            "INSERT INTO digests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                slug,
                day,
                day[:7],
                entry.date.year,
                stamp,
                size,
                entry.sha256,
                text,
                items,
                shown,
            ),
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO cites VALUES (?, ?, ?)", ((pr, day, slug) for pr in entry.cites)
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO follow_ups VALUES (?, ?)",
            ((target, key) for _, target, *_ in entry.follow_ups),
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO topics VALUES (?, ?, ?, ?, ?)",
            ((topic, day, slug, day[:7], shown) for topic in entry.topics),
        )
        self._count(entry, 1)
        self._entries[key] = entry

    def remove(self, key: str) -> None:
        """Forget digest ``key`` and what it cites."""
        old = self.entries([key]).get(key)
        if old is None:
            return
        day, slug = old.date.isoformat(), old.slug
        self.db.executemany(
            "DELETE FROM cites WHERE pr = ? AND date = ? AND slug = ?",
            ((pr, day, slug) for pr in old.cites),
        )
        self.db.executemany(
            "DELETE FROM follow_ups WHERE target = ? AND key = ?",
            ((target, key) for _, target, *_ in old.follow_ups),
        )
        self.db.executemany(
            "DELETE FROM topics WHERE topic = ? AND date = ? AND slug = ?",
            ((topic, day, slug) for topic in old.topics),
        )
        self.db.execute("DELETE FROM digests WHERE key = ?", (key,))
        self._count(old, -1)
        self._entries.pop(key, None)

    def _count(self, entry: Entry, step: int) -> None:
        """Count ``entry`` (``step`` 1) or no longer (-1) in its month's counts."""
        month = entry.date.isoformat()[:7]
        kinds = [("site", ""), ("slug", entry.slug)]
        kinds += [("topic", topic) for topic in dict.fromkeys(entry.topics)]
        rows = [(kind, name, month) for kind, name in kinds]
        self.db.executemany(
            "INSERT INTO counts VALUES (?, ?, ?, ?) "
            "ON CONFLICT(kind, name, month) DO UPDATE SET n = n + excluded.n",
            ((*row, step) for row in rows),
        )
        self.db.executemany(
            "DELETE FROM counts WHERE kind = ? AND name = ? AND month = ? AND n <= 0", rows
        )

    def entries(self, keys: Iterable[str]) -> dict[str, Entry]:
        """The entries of the digests ``keys`` that are recorded, by key."""
        keys = list(keys)
        wanted = [key for key in keys if key not in self._entries]
        if wanted:
            rows = self.db.execute(
                "SELECT key, entry FROM digests WHERE key IN (SELECT value FROM json_each(?))",
                (json.dumps(wanted),),
            ).fetchall()
            self._entries_of(rows)
        return {key: self._entries[key] for key in keys if key in self._entries}

    def entries_where(
        self, where: str, params: tuple[object, ...] = (), limit: int | None = None
    ) -> list[Entry]:
        """Entries of the digests matching ``where`` (SQL over ``digests d``), newest first
        as listings sort them (by date, then project slug); at most ``limit`` of them."""
        return self._entries_of(self._listed("d.entry", where, params, limit))

    def sums_where(
        self, where: str, params: tuple[object, ...] = (), limit: int | None = None
    ) -> list[tuple[str, str]]:
        """(key, sha256) of the digests :meth:`entries_where` would give, in its order:
        enough to tell whether a page made from them changed, without reading an entry."""
        return self._listed("d.sha256", where, params, limit)

    def topic_sums(
        self, topic: str, *, since: str | None = None, limit: int | None = None
    ) -> list[tuple[str, str]]:
        """(key, sha256) of the digests on ``topic``, from the day ``since`` on
        (``YYYY-MM-DD``, every day when None), newest first as listings sort them; at most
        ``limit`` of them."""
        # Walked in the topics table's own order, so the newest few cost no more on a
        # long archive (a filter over every digest would read the whole topic first).
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self.db.execute(
            "SELECT d.key, d.sha256 FROM topics t JOIN digests d ON d.key = t.slug || '/' || "
            f"t.date WHERE t.topic = ? AND t.date >= ? ORDER BY t.date DESC, t.slug{tail}",
            (topic, since or ""),
        ).fetchall()

    def _listed(
        self, column: str, where: str, params: tuple[object, ...], limit: int | None
    ) -> list[tuple[str, str]]:
        """(key, ``column``) of the digests matching ``where``, in listing order."""
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self.db.execute(
            f"SELECT d.key, {column} FROM digests d WHERE {where} "
            f"ORDER BY d.date DESC, d.slug{tail}",
            params,
        ).fetchall()

    def actions(self, keys: Iterable[str]) -> dict[str, EditionActions]:
        """The action items of the digests ``keys`` that are recorded, by key."""
        rows = self.db.execute(
            "SELECT key, actions FROM digests WHERE key IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(keys))),),
        )
        return {key: EditionActions.from_json(json.loads(text)) for key, text in rows}

    def newest(
        self, *, slug: str | None = None, topic: str | None = None, limit: int
    ) -> list[Entry]:
        """The ``limit`` newest entries, of project ``slug`` or topic ``topic`` if given."""
        if topic is not None:
            rows = self.db.execute(
                "SELECT d.key, d.entry FROM topics t JOIN digests d ON d.key = t.slug || '/' || "
                "t.date WHERE t.topic = ? ORDER BY t.date DESC, t.slug LIMIT ?",
                (topic, limit),
            ).fetchall()
            return self._entries_of(rows)
        if slug is not None:
            return self.entries_where("d.slug = ?", (slug,), limit)
        return self.entries_where("1", (), limit)

    def months_shown(
        self, year: int, *, slug: str | None = None, topic: str | None = None
    ) -> list[tuple[str, str]]:
        """Each month (``YYYY-MM``, newest first) of ``year`` with editions (of project
        ``slug`` or topic ``topic`` if given), and a hash of what listings show of them:
        it changes when an edition's line in a listing would."""
        if topic is not None:
            rows = self.db.execute(
                "SELECT month, shown FROM topics WHERE topic = ? AND date >= ? AND date < ? "
                "ORDER BY date DESC, slug",
                (topic, str(year), str(year + 1)),
            )
        elif slug is not None:
            rows = self.db.execute(
                "SELECT month, shown FROM digests WHERE slug = ? AND year = ? ORDER BY date DESC",
                (slug, year),
            )
        else:
            rows = self.db.execute(
                "SELECT month, shown FROM digests WHERE year = ? ORDER BY date DESC, slug",
                (year,),
            )
        found: dict[str, list[str]] = {}
        for month, shown in rows:
            found.setdefault(month, []).append(shown)
        return [(m, hashlib.sha256(",".join(s).encode()).hexdigest()) for m, s in found.items()]

    def month(self, month: str) -> list[Entry]:
        """The entries of ``month`` (``YYYY-MM``), newest first."""
        return self.entries_where("d.month = ?", (month,))

    def _entries_of(self, rows: Iterable[tuple[str, str]]) -> list[Entry]:
        found = []
        for key, text in rows:
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = Entry.from_json(json.loads(text))
            found.append(entry)
        return found

    def groups_of_editions(self) -> set[int]:
        """The groups of every month and year with an edition."""
        rows = self.db.execute("SELECT month FROM counts WHERE kind = 'site' AND name = ''")
        months = {month_group(month) for (month,) in rows}
        return months | {year_group(month) for month in months}

    def citers(self, prs: Iterable[str]) -> dict[str, list[Entry]]:
        """The editions citing each change of ``prs`` (``owner/repo#N``), oldest first."""
        rows = self.db.execute(
            "SELECT pr, slug || '/' || date FROM cites "
            "WHERE pr IN (SELECT value FROM json_each(?)) ORDER BY pr, date, slug",
            (json.dumps(sorted(set(prs))),),
        ).fetchall()
        entries = self.entries({key for _, key in rows})
        found: dict[str, list[Entry]] = {}
        for pr, key in rows:
            found.setdefault(pr, []).append(entries[key])
        return found

    def first_citers(self, prs: Iterable[str]) -> dict[str, tuple[str, str]]:
        """The project slug and date (``YYYY-MM-DD``) of the first edition citing each
        change of ``prs``: the oldest, and of those the first by slug."""
        rows = self.db.execute(
            "SELECT pr, slug, date FROM cites WHERE pr IN (SELECT value FROM json_each(?)) "
            "ORDER BY pr DESC, date DESC, slug DESC",
            (json.dumps(sorted(set(prs))),),
        )
        return {pr: (slug, day) for pr, slug, day in rows}

    def reporting(self, targets: Iterable[str]) -> list[Entry]:
        """The editions that report a revert or re-land of a change in ``targets``."""
        rows = self.db.execute(
            "SELECT DISTINCT key FROM follow_ups WHERE target IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(targets))),),
        ).fetchall()
        return list(self.entries(sorted(key for (key,) in rows)).values())

    def months_citing(self, prs: Iterable[str]) -> set[int]:
        """The groups of the months of the editions that cite a change in ``prs``."""
        rows = self.db.execute(
            "SELECT DISTINCT substr(date, 1, 7) FROM cites "
            "WHERE pr IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(prs))),),
        )
        return {month_group(month) for (month,) in rows}

    def cited_on(self, day: str, repo: str) -> set[str]:
        """The changes of ``repo`` that editions of ``day`` (``YYYY-MM-DD``) cite."""
        entries = self.entries_where("d.date = ?", (day,))
        return {pr for entry in entries for pr in entry.cites if pr.startswith(f"{repo}#")}

    def neighbours(self, slug: str, day: str) -> tuple[str | None, str | None]:
        """The dates of ``slug``'s editions just before and just after ``day``."""
        before = self.db.execute(
            "SELECT max(date) FROM digests WHERE slug = ? AND date < ?", (slug, day)
        ).fetchone()[0]
        after = self.db.execute(
            "SELECT min(date) FROM digests WHERE slug = ? AND date > ?", (slug, day)
        ).fetchone()[0]
        return before, after

    def month_counts(self) -> Iterator[tuple[str, str, str, int]]:
        """(kind, name, ``YYYY-MM``, editions) per project (``slug``) and topic, and of
        the whole site (``site``, ``""``), newest month first."""
        yield from self.db.execute(
            "SELECT kind, name, month, n FROM counts ORDER BY kind, name, month DESC"
        )

    def topic_counts(self, slugs: Iterable[str] | None) -> dict[str, int]:
        """Editions per topic, counting only projects ``slugs`` (all when None)."""
        if slugs is None:
            rows = self.db.execute("SELECT topic, count(*) FROM topics GROUP BY topic")
        else:
            rows = self.db.execute(
                "SELECT topic, count(*) FROM topics "
                "WHERE slug IN (SELECT value FROM json_each(?)) GROUP BY topic",
                (json.dumps(sorted(slugs)),),
            )
        return dict(rows)

    def slug_counts(self) -> dict[str, int]:
        """Editions per project slug."""
        rows = self.db.execute("SELECT name, sum(n) FROM counts WHERE kind = 'slug' GROUP BY name")
        return dict(rows)

    # -- collected days ----------------------------------------------------------------

    def collected(self, buckets: Iterable[str]) -> dict[str, CollectedDay]:
        """The collected days seen in ``buckets`` (``collected/<owner>/<repo>/<year>``), by
        data path (``collected/<owner>/<repo>/<day>.json``)."""
        found: dict[str, CollectedDay] = {}
        for bucket in buckets:
            rows = self.db.execute(
                "SELECT path, mtime_ns, size, sha256, numbers FROM collected "
                "WHERE path >= ? AND path < ?",
                (bucket, f"{bucket}\uffff"),
            )
            found.update((path, _collected(*row)) for path, *row in rows)
        return found

    def collected_day(self, path: str) -> CollectedDay | None:
        """The collected day at data path ``path`` as last seen, or None."""
        row = self.db.execute(
            "SELECT mtime_ns, size, sha256, numbers FROM collected WHERE path = ?", (path,)
        ).fetchone()
        return None if row is None else _collected(*row)

    def put_collected(self, path: str, day: CollectedDay) -> None:
        numbers = json.dumps(sorted(day.numbers)) if day.sha256 is not None else None
        self.db.execute(
            "INSERT OR REPLACE INTO collected VALUES (?, ?, ?, ?, ?)",
            (path, day.mtime_ns, day.size, day.sha256, numbers),
        )

    def remove_collected(self, path: str) -> None:
        self.db.execute("DELETE FROM collected WHERE path = ?", (path,))

    # -- pages -------------------------------------------------------------------------

    def pages(self, groups: Iterable[int]) -> dict[str, Page]:
        """The pages of ``groups``, by path."""
        rows = self.db.execute(
            "SELECT path, key, grp, sha256 FROM pages "
            "WHERE grp IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(groups))),),
        )
        return {path: Page(key, group, sha) for path, key, group, sha in rows}

    def record_seen(self, seen: Mapping[str, str]) -> None:
        """Record that the files ``seen`` (path: ``inode:ctime_ns:size``) hold the bytes
        recorded for their pages."""
        self.db.executemany("INSERT OR REPLACE INTO seen VALUES (?, ?)", sorted(seen.items()))

    def record_seals(self, seals: Mapping[str, list[str]]) -> None:
        """Record the seals of the buckets of each folder of ``seals`` (see :mod:`.verify`);
        a folder with none is forgotten."""
        kept = [(folder, json.dumps(found)) for folder, found in sorted(seals.items()) if found]
        self.db.executemany(
            "DELETE FROM sealed WHERE folder = ?",
            ((folder,) for folder, found in sorted(seals.items()) if not found),
        )
        self.db.executemany("INSERT OR REPLACE INTO sealed VALUES (?, ?)", kept)

    def builds_left(self) -> dict[str, Vouched]:
        """The builds of the builds folder as the last build left them, by name (see
        :mod:`.verify`)."""
        return recorded_builds(self.db)

    def record_builds(self, builds: Mapping[str, Vouched]) -> None:
        """Record the builds of the builds folder as this build leaves them."""
        self.set_meta(BUILDS_META, msgspec.json.encode(dict(sorted(builds.items()))).decode())

    def groups(self) -> set[int]:
        """The groups with a page."""
        return {group for (group,) in self.db.execute("SELECT DISTINCT grp FROM pages")}

    def missing(self, present: Collection[str], recorded: int, doubted: Iterable[str]) -> set[int]:
        """The groups of the pages recorded that are not among the files ``present`` (of
        which ``recorded`` are pages the manifest records), or are among those ``doubted``."""
        gone = list(doubted)
        (total,) = self.db.execute("SELECT count(*) FROM pages").fetchone()
        if total != recorded:  # else every page recorded is present: none to look for
            pages = self.db.execute("SELECT path FROM pages")
            gone += [path for (path,) in pages if path not in present]
        rows = self.db.execute(
            "SELECT DISTINCT grp FROM pages WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(gone),),
        )
        return {group for (group,) in rows}

    def count_pages(self, groups: Iterable[int] | None) -> int:
        """How many pages of ``groups`` (None: of every group) are recorded."""
        if groups is None:
            return int(self.db.execute("SELECT count(*) FROM pages").fetchone()[0])
        row = self.db.execute(
            "SELECT count(*) FROM pages WHERE grp IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(groups))),),
        ).fetchone()
        return int(row[0])

    def update_pages(self, previous: Mapping[str, Page], pages: Mapping[str, Page]) -> None:
        """Record ``pages`` as the pages of the groups that were planned, whose pages were
        ``previous``: only differences are written."""
        gone = sorted(previous.keys() - pages.keys())
        self.db.executemany("DELETE FROM pages WHERE path = ?", ((path,) for path in gone))
        self.db.executemany("DELETE FROM seen WHERE path = ?", ((path,) for path in gone))
        self.db.executemany(
            "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?)",
            (
                (path, page.key, page.group, page.sha256)
                for path, page in sorted(pages.items())
                if previous.get(path) != page
            ),
        )

    def close(self, *, save: bool) -> None:
        """Commit (when ``save``) and close."""
        with closing(self.db):
            if save:
                self.db.commit()


def open_manifest(path: Path, version: str, site_dir: Path | None = None) -> Manifest:
    """Open the manifest at ``path`` for a build of ``site_dir`` (see :func:`adopt`; or
    later); ``version`` hashes the code and settings.

    A missing, corrupt or foreign file is replaced by an empty manifest; one made for
    another ``version`` keeps its page keys only. A link (from a restored cache) is never
    followed: the build would write wherever it leads.
    """
    if path.is_symlink() or path.with_name(f"{path.name}-journal").is_symlink():
        discard(path)
    try:
        manifest = _open(path, version)
    except sqlite3.DatabaseError:
        discard(path)
        manifest = _open(path, version)
    if site_dir is not None:
        adopt(site_dir, manifest)
    return manifest


def adopt(site_dir: Path, manifest: Manifest) -> None:
    """Take into ``manifest`` the page list a manifest of an earlier version left in the
    build's copy of the site, ``site_dir`` (see :func:`_adopt`)."""
    _adopt(site_dir / _LEGACY, manifest)


def discard(path: Path) -> None:
    """Delete the manifest at ``path`` (and its journal)."""
    path.unlink(missing_ok=True)
    path.with_name(f"{path.name}-journal").unlink(missing_ok=True)


def _adopt(legacy: Path, manifest: Manifest) -> None:
    """Take the page list of a JSON manifest (written before this one) and delete it.

    Its pages join the site-wide group, which every build plans: those this build does
    not make are deleted as stale, the others take their own groups. ``legacy`` is in the
    build's private copy of the site.
    """
    try:
        pages = json.loads(legacy.read_bytes())["pages"]
        rows = [(str(path), str(key), SITE_WIDE, "") for path, key in pages.items()]
    except FileNotFoundError:
        return
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        rows = []
    manifest.db.executemany("INSERT OR IGNORE INTO pages VALUES (?, ?, ?, ?)", rows)
    legacy.unlink(missing_ok=True)


def _open(path: Path, version: str) -> Manifest:
    db = sqlite3.connect(path, isolation_level="DEFERRED")
    try:
        db.execute("PRAGMA synchronous = NORMAL")
        # The file may come from a restored cache: its schema must run nothing.
        db.execute("PRAGMA trusted_schema = OFF")
        rows = db.execute("SELECT type, name FROM sqlite_master").fetchall()
        if any(kind in ("trigger", "view") for kind, _ in rows):
            raise sqlite3.DatabaseError("not a manifest: it has triggers or views")
        tables = {name for _, name in rows}
        if "meta" not in tables:
            db.executescript(_SCHEMA)
            _set_meta(db, version)
            return Manifest(db, version, trusted=False)
        meta = dict(db.execute("SELECT name, value FROM meta"))
        if meta.get("format") != str(FORMAT):
            return _start_over(db, version)
        if meta.get("version") != version:
            for table in _INPUT_TABLES:
                db.execute(f"DELETE FROM {table}")
            # How the builds were left says nothing of inputs: kept, as the pages are.
            db.execute("DELETE FROM meta WHERE name != ?", (BUILDS_META,))
            _set_meta(db, version)
            return Manifest(db, version, trusted=False)
        return Manifest(db, version, trusted=True)
    except BaseException:
        db.close()
        raise


def _start_over(db: sqlite3.Connection, version: str) -> Manifest:
    """Make the manifest ``db`` of another format an empty one of this format that keeps
    its page list, in the site-wide group (as :func:`_adopt` does): the pages this build
    does not make are deleted as stale. Their bytes' hashes are not known, so the pages
    kept are rendered again (see :mod:`.verify`)."""
    pages = db.execute("SELECT path, key FROM pages").fetchall()
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    # In one transaction, committed with the build's (executescript would commit at once).
    db.execute("BEGIN")
    for table in tables:
        db.execute(f'DROP TABLE "{table}"')
    # Split on ";": so no comment of the schema may hold one.
    for statement in filter(str.strip, _SCHEMA.split(";")):
        db.execute(statement)
    _set_meta(db, version)
    db.executemany(
        "INSERT OR IGNORE INTO pages VALUES (?, ?, ?, ?)",
        ((str(path), str(key), SITE_WIDE, "") for path, key in pages),
    )
    return Manifest(db, version, trusted=False)


def _set_meta(db: sqlite3.Connection, version: str) -> None:
    db.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
        (("format", str(FORMAT)), ("version", version)),
    )


def _collected(mtime_ns: int, size: int, sha: str | None, numbers: str | None) -> CollectedDay:
    return CollectedDay(mtime_ns, size, sha, frozenset(json.loads(numbers or "[]")))
