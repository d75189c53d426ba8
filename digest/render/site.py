"""Build the static site from the stored digests, re-rendering only what changed.

A build stats every digest file, parses only new or changed ones, then offers every
page to :class:`Output` with a key hashing the page's inputs; a page is rendered only
when its key differs from the manifest's or its file is missing. The manifest is
written last.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from digest.config import Settings
from digest.errors import StorageError
from digest.models import Digest, PullRequest, RepoDay
from digest.render import desk, listings, manifest, pulls, stamp, urls
from digest.render.feed import Channel, Item, json_feed, json_path, rss, sitemap
from digest.render.fragments import Fragments
from digest.render.listings import Collection, FeedPlan
from digest.render.manifest import CollectedDay, Manifest
from digest.render.markup import MarkupRenderer
from digest.render.output import Output
from digest.render.publish import StagedSite
from digest.render.scan import Scanner
from digest.render.stamp import RenderReport
from digest.render.templating import make_environment, template_error, template_source
from digest.render.urls import edition_path
from digest.render.views import Entry, Link, edition_view, long_date, structured_data
from digest.store import Store


@dataclass(frozen=True)
class PageInfo:
    """The head of a page: where it is, how it is titled and what feeds it offers."""

    path: str
    root: str
    title: str
    description: str
    canonical: str
    feeds: tuple[Link, ...]
    #: OpenGraph type: ``article`` for editions, else ``website``.
    kind: str = "website"


def build_site(
    settings: Settings, store: Store, code: str, fingerprint: str, inputs: stamp.Inputs
) -> RenderReport:
    """Bring ``settings.site_dir`` up to date with the digests in ``store``.

    ``code`` is the render code's version, ``fingerprint`` the hash of what besides
    digests shapes pages and ``inputs`` every input's stat and their hash (see :mod:`.stamp`).
    Only new or changed digest files are parsed and only pages whose inputs changed are
    rendered; pages of vanished digests are deleted. The same digests always give
    byte-identical pages. The build is published atomically (see :mod:`.publish`): if it
    fails, the site stays as it was.
    """
    staged = StagedSite(settings.site_dir)
    try:
        site_dir = staged.begin()
        fragments = Fragments(staged.cache / "fragments")
        try:
            env = make_environment(settings, cache=staged.cache / "templates")
            old = manifest.load(site_dir, code, staged.manifest)
            report, changed = _build_site(
                settings, store, env, fragments, site_dir, old, fingerprint, inputs.stats
            )
            changed |= stamp.save(site_dir, inputs.hash, report)
        except BaseException:
            staged.abandon()
            raise
        staged.finish(changed=changed, paths=(*report.written, *report.deleted))
    except jinja2.TemplateError as error:
        raise template_error(error) from None
    except OSError as error:  # Pages go through the store; folders, links and renames not.
        raise StorageError(error.filename or settings.site_dir, error) from None
    fragments.prune()
    return report


def _build_site(
    settings: Settings,
    store: Store,
    env: jinja2.Environment,
    fragments: Fragments,
    site_dir: Path,
    old: Manifest,
    fingerprint: str,
    stats: dict[str, stamp.Stat],
) -> tuple[RenderReport, bool]:
    """Build the site into ``site_dir`` with ``env``, knowing what the ``old`` build did;
    return the report and whether any file changed."""
    scanner = Scanner(store, old.digests, stats)
    build = _Build(settings, scanner, env, fragments, fingerprint, old.collected)
    out = Output(site_dir, old.pages)
    complete = saved = False
    try:
        build.offer_editions(out)
        build.offer_pull_pages(out)
        entries = listings.newest_first(r.entry for r in scanner.records.values())
        projects = listings.project_collections(settings, entries)
        # Once for pages and feeds: a topic's collection retells each of its editions.
        collections = [*projects, *listings.topic_collections(settings, entries)]
        build.offer_listings(out, entries, collections)
        build.offer_feeds(out, entries, collections)
        build.offer_desks(out, entries, projects)
        build.offer_discovery(out, entries)
        out.page(urls.STYLE, build.key("style"), lambda: template_source(env, urls.STYLE).encode())
        out.finish()
        deleted = out.remove_stale()
        complete = True
    finally:
        if not complete:
            out.finish(strict=False)
        pages = out.done if complete else manifest.merged(old.pages, out.done, out.attempted)
        records = scanner.records if complete else {**old.digests, **scanner.records}
        collected = build.collected
        if (records, pages, collected) != (old.digests, old.pages, old.collected):
            saved = manifest.save(site_dir, Manifest(old.code, records, pages, collected))
    report = RenderReport(
        pages_written=len(out.written),
        pages_unchanged=out.unchanged,
        pages_skipped=out.skipped,
        pages_deleted=len(deleted),
        editions=len(entries),
        digests_read=scanner.read,
        problems=tuple(scanner.problems),
        written=tuple(out.written),
        deleted=tuple(deleted),
    )
    return report, bool(out.written or deleted or saved)


class _Build:
    """Offers each page of the site to an :class:`Output` with its key and renderer."""

    def __init__(
        self,
        settings: Settings,
        scanner: Scanner,
        env: jinja2.Environment,
        fragments: Fragments,
        fingerprint: str,
        collected: dict[str, CollectedDay] | None = None,
    ) -> None:
        self.settings = settings
        #: What the last build knew of the collected days; updated as days are looked at.
        self.previous_collected = collected or {}
        self.collected: dict[str, CollectedDay] = {}
        self.scanner = scanner
        self.env = env
        self.fragments = fragments
        self.fingerprint = fingerprint
        self.markup = MarkupRenderer()
        self.topics = {t.slug or "": t.name for t in settings.topics}
        self.nav = tuple(Link(p.shown, urls.project_path(p.key)) for p in settings.projects)
        self.site_feed = listings.site_feed(settings.site.title)
        # Set by offer_editions, from every digest of the build.
        self.reported: dict[str, tuple[pulls.Correction, ...]] = {}
        #: Cited changes with a page: the editions citing them and their collected day's hash.
        self.pull_pages: dict[str, tuple[list[Entry], str]] = {}
        self.pull_paths: dict[str, str] = {}
        # Digests the feeds and desks read: the newest few hundred, parsed once.
        self._recent: dict[str, Digest | None] = {}
        self._templates: dict[str, jinja2.Template] = {}
        self._chromes: dict[str, Chrome] = {}
        #: Digests parsed by this build's scan, by edition path (a PR page reads its citer's).
        self._parsed: dict[str, Digest] = {}
        self._last_day: tuple[tuple[str, dt.date], RepoDay | None] | None = None

    def key(self, *parts: object) -> str:
        """Return the key of a page made from ``parts`` (and the build's fingerprint)."""
        text = "\0".join([self.fingerprint, *(repr(p) for p in parts)])
        return hashlib.sha256(text.encode()).hexdigest()

    def page(self, template: str, info: PageInfo, **context: object) -> bytes:
        """Return ``template`` rendered for the page ``info`` with ``context``."""
        html = self._template(template).render(
            site=self.settings.site,
            nav=self.nav,
            page=info,
            chrome=self._chrome(info.root),
            **context,
        )
        return html.encode()

    def _template(self, name: str) -> jinja2.Template:
        """The template ``name``, looked up once per build."""
        found = self._templates.get(name)
        if found is None:
            found = self._templates[name] = self.env.get_template(name)
        return found

    def _chrome(self, root: str) -> Chrome:
        """The masthead and footer of the pages ``root`` away from the site root."""
        chrome = self._chromes.get(root)
        if chrome is None:
            macros: Any = self._template("_chrome.html").make_module(
                {"site": self.settings.site, "nav": self.nav}
            )
            chrome = self._chromes[root] = Chrome(macros.masthead(root), macros.footer(root))
        return chrome

    def info(self, path: str, title: str, description: str, feeds: tuple[Link, ...]) -> PageInfo:
        """Return the head of the page at ``path``."""
        base = self.settings.site.base_url
        return PageInfo(
            path, urls.root_of(path), title, description, urls.absolute(base, path), feeds
        )

    def offer_editions(self, out: Output) -> None:
        """Scan every digest and offer its page; links to its neighbours are part of its key.

        Every digest is scanned first: an edition's corrections (later reverts of what it
        cites) and the pages of the changes it cites come from all of them.
        """
        found = []
        for slug, days in self.scanner.files().items():
            for i, (day, path) in enumerate(days):
                scanned = self.scanner.scan(slug, day, path)
                if scanned is not None:
                    found.append((slug, days, i, scanned))
        entries = [scanned.record.entry for *_, scanned in found]
        self._parsed = {s.record.entry.path: s.digest for *_, s in found if s.digest is not None}
        self.reported = pulls.find_corrections(entries)
        self.pull_pages = self._collected(pulls.citations(entries))
        self.pull_paths = {
            key: pulls.pull_path(editions[0].slug, key)
            for key, (editions, _) in self.pull_pages.items()
        }
        for slug, days, i, scanned in found:
            entry = scanned.record.entry
            if scanned.stale:
                out.keep(entry.path)
                continue
            earlier = days[i - 1][0] if i > 0 else None
            later = days[i + 1][0] if i + 1 < len(days) else None
            links = (
                Link(_earlier(earlier), edition_path(slug, earlier)) if earlier else None,
                Link(_later(later), edition_path(slug, later)) if later else None,
            )
            corrections = pulls.edition_corrections(entry, self.reported)
            pages = [self.pull_paths.get(key) for key in entry.cites]
            # An edition shows its digest, and of its neighbours only their dates.
            inputs = f"{entry.path} {entry.sha256} {earlier} {later} {corrections} {pages}"
            render = functools.partial(self._edition, entry, links, corrections, scanned.digest)
            out.page(entry.path, self.key(inputs), render)

    def _collected(self, citing: dict[str, list[Entry]]) -> dict[str, tuple[list[Entry], str]]:
        """The pages of the ``citing`` changes that were collected here, with their file's hash.

        A change cited by an edition written elsewhere (its collected day is not in
        ``data_dir``) gets no page, and editions do not link to one.
        """
        root = self.scanner.store.root
        stats = self.scanner.stats
        found = {}
        for key, editions in citing.items():
            repo, _, number = key.partition("#")
            name = f"collected/{repo}/{editions[0].date.isoformat()}.json"
            stat = stats.get(name)
            if stat is None:
                continue  # not collected here (an edition written elsewhere): no page
            try:
                if name not in self.collected:
                    self.collected[name] = _looked_at(
                        root / name, stat, self.previous_collected.get(name)
                    )
            except (OSError, ValueError):
                continue
            day = self.collected[name]
            if int(number) in day.numbers:
                found[key] = (editions, day.sha256)
        return found

    def offer_pull_pages(self, out: Output) -> None:
        """Offer the page of every cited change (its key: the change's stored day, its citers)."""
        # By day: pages of one collected day are rendered one after another, and the day
        # is read once for all of them (see _pull). Keys are made of plain values: there
        # is one page per cited change, thousands on a large site.
        ordered = sorted(
            self.pull_pages.items(),
            key=lambda item: (item[0].partition("#")[0], item[1][0][0].date),
        )
        for key, (editions, seen) in ordered:
            citers = [(e.path, e.project, e.date_label) for e in editions]
            # The first citer's digest says what the change does "in short".
            first = editions[0].sha256
            inputs = (self.pull_paths[key], citers, first, self.reported.get(key, ()), seen)
            render = functools.partial(self._pull, key, editions)
            out.page(self.pull_paths[key], self.key("pull", *inputs), render)

    def _pull(self, key: str, editions: list[Entry]) -> bytes | None:
        page = pulls.pull_page(key, editions, self.reported)
        repo_day = self._repo_day(page.repo, page.day)
        pull = (
            next((p for p in repo_day.pulls if p.number == page.number), None) if repo_day else None
        )
        if pull is None:
            return None
        view = pulls.pull_view(pull, page, self._in_short(editions[0], pull))
        info = self.info(
            page.path,
            f"{view.title} · {page.repo} #{page.number}",
            view.tldr[0] if view.tldr else f"What {page.repo} #{page.number} changed.",
            (self.site_feed,),
        )
        return self.page("pull.html", info, pull=view)

    def _in_short(self, citer: Entry, pull: PullRequest) -> tuple[str, ...] | None:
        """What ``citer``'s digest says ``pull`` does in short (None: it does not say)."""
        digest = self._parsed.get(citer.path) or self.scanner.peek(citer)
        refs = digest.references if digest is not None else ()
        found = (r for r in refs if r.number == pull.number and r.repo == pull.repo)
        return next((r.in_short for r in found), None)

    def _edition(
        self,
        entry: Entry,
        links: tuple[Link | None, Link | None],
        corrections: tuple[pulls.Correction, ...],
        digest: Digest | None,
    ) -> bytes | None:
        digest = digest or self.scanner.load(entry)
        if digest is None:
            return None
        view = edition_view(
            digest, entry, self.markup, topics=self.topics, pull_pages=self.pull_paths
        )
        project_feed = listings.project_feed(entry.project, entry.slug)
        info = dataclasses.replace(
            self.info(
                entry.path,
                f"{entry.headline} · {entry.project}, {entry.date_label}",
                entry.dek or f"{entry.project} news of {entry.date_label}.",
                (project_feed, self.site_feed),
            ),
            kind="article",
        )
        return self.page(
            "edition.html",
            info,
            structured=structured_data(view, info.canonical, self.settings.site.publisher),
            edition=view,
            corrections=corrections,
            project=Link(entry.project, entry.project_path),
            prev=links[0],
            next=links[1],
        )

    def _repo_day(self, repo: str, day: dt.date) -> RepoDay | None:
        """The collected day of ``repo``, read once for consecutive pages of that day."""
        if self._last_day is None or self._last_day[0] != (repo, day):
            self._last_day = ((repo, day), self.scanner.store.load_repo_day(repo, day))
        return self._last_day[1]

    def offer_listings(
        self, out: Output, entries: list[Entry], collections: list[Collection]
    ) -> None:
        """Offer the front page, archive, project and topic pages."""
        for listing in listings.plan_listings(self.settings, entries, collections):
            info = self.info(listing.path, listing.title, listing.description, listing.feeds)
            key = self.key(listing.template, info, listing.context)
            render = functools.partial(self.page, listing.template, info, **listing.context)
            out.page(listing.path, key, render)

    def offer_feeds(self, out: Output, entries: list[Entry], collections: list[Collection]) -> None:
        """Offer the site feed and each project's and topic's, as RSS and as JSON Feed."""
        # By path and title: a topic's feed titles an edition by what it says of the topic.
        items: dict[tuple[str, str], Item | None] = {}
        for plan in listings.plan_feeds(self.settings, entries, collections):
            content = [
                (e.sha256, e.published, pulls.edition_corrections(e, self.reported))
                for e in plan.entries
            ]
            for path, form in ((plan.path, rss), (json_path(plan.path), json_feed)):
                render = functools.partial(self._feed, plan, items, form)
                out.page(path, self.key("feed", path, plan, content), render)

    def offer_discovery(self, out: Output, entries: list[Entry]) -> None:
        """Offer ``sitemap.xml`` (every page offered so far) and ``robots.txt``."""
        base = self.settings.site.base_url
        pages = sorted(path for path in out.keys if path.endswith(".html"))
        dated = {entry.path: entry.date for entry in entries}
        render = functools.partial(sitemap, base, pages, dated)
        out.page(urls.SITEMAP, self.key("sitemap", pages, sorted(dated.items())), render)
        robots = f"User-agent: *\nAllow: /\nSitemap: {urls.absolute(base, urls.SITEMAP)}\n"
        out.page(urls.ROBOTS, self.key("robots", robots), robots.encode)

    def offer_desks(self, out: Output, entries: list[Entry], projects: list[Collection]) -> None:
        """Offer the action-items desks and ``immediate`` feeds of the site and each project."""
        _Desks(self).offer(out, entries, projects)

    def _feed(
        self,
        plan: FeedPlan,
        items: dict[tuple[str, str], Item | None],
        form: Callable[[Channel, list[Item]], bytes],
    ) -> bytes | None:
        base = self.settings.site.base_url
        for entry in plan.entries:
            if (entry.path, entry.headline) not in items:
                items[entry.path, entry.headline] = self._item(entry)
        ready = [items[e.path, e.headline] for e in plan.entries]
        if any(item is None for item in ready):
            return None
        channel = Channel(
            title=plan.title,
            link=urls.absolute(base, plan.link_path),
            description=plan.description,
            self_url=urls.absolute(base, plan.path),
        )
        return form(channel, [item for item in ready if item is not None])

    def recent_digest(self, entry: Entry) -> Digest | None:
        """The digest of ``entry``, parsed once per build (feeds and desks share the newest)."""
        if entry.path not in self._recent:
            self._recent[entry.path] = self.scanner.load(entry)
        return self._recent[entry.path]

    def _item(self, entry: Entry) -> Item | None:
        link = urls.absolute(self.settings.site.base_url, entry.path)
        corrections = pulls.edition_corrections(entry, self.reported)
        # The feeds carry the newest editions: mostly the same from one build to the next.
        key = Fragments.key("feed item", self.fingerprint, entry.path, entry.sha256, corrections)
        html = self.fragments.get(key)
        if html is None:
            digest = self.recent_digest(entry)
            if digest is None:
                return None
            view = edition_view(digest, entry, self.markup, topics=self.topics, cite_base=link)
            html = self.env.get_template("feed_item.html").render(
                edition=view, link=link, corrections=corrections
            )
            self.fragments.put(key, html)
        modified = max((c.date for c in corrections), default=None)
        return Item(
            title=entry.headline,
            link=link,
            published=entry.published,
            html=html,
            categories=tuple(self.topics[t] for t in entry.topics if t in self.topics),
            # A correction is news about the item: it changes, under the same id.
            modified=dt.datetime.combine(modified, dt.time(), tzinfo=dt.UTC) if modified else None,
        )


class _Desks:
    """The action-items desks and ``immediate`` feeds of a build (see :mod:`.desk`)."""

    #: Editions an ``immediate`` feed looks back over, at most.
    LOOKBACK = 200

    def __init__(self, build: _Build) -> None:
        self.build = build

    def offer(self, out: Output, entries: list[Entry], projects: list[Collection]) -> None:
        site = self.build.settings.site
        plans = [(urls.ACTIONS, urls.IMMEDIATE_FEED, site.title, entries)]
        plans += [
            (
                urls.project_actions_path(p.heading.slug),
                urls.project_immediate_feed_path(p.heading.slug),
                p.heading.name,
                list(p.entries),
            )
            for p in projects
        ]
        for page_path, feed_path, name, own in plans:
            window = desk.recent(own)
            page_inputs = [(e.path, e.sha256) for e in window]
            feed = Link(f"{name}: act-now items", feed_path)
            render = functools.partial(self._page, page_path, name, window, feed)
            out.page(page_path, self.build.key("desk", page_path, feed, page_inputs), render)
            looked = own[: self.LOOKBACK]
            feed_inputs = [(e.path, e.sha256, e.published) for e in looked]
            for path, form in ((feed_path, rss), (json_path(feed_path), json_feed)):
                render_feed = functools.partial(self._feed, feed, looked, form)
                out.page(path, self.build.key("immediate", path, name, feed_inputs), render_feed)

    def _editions(self, entries: list[Entry]) -> list[tuple[Entry, Digest]] | None:
        found = []
        for entry in entries:
            digest = self.build.recent_digest(entry)
            if digest is None:
                return None
            found.append((entry, digest))
        return found

    def _page(self, path: str, name: str, window: list[Entry], feed: Link) -> bytes | None:
        editions = self._editions(window)
        if editions is None:
            return None
        build = self.build
        root = urls.root_of(path)
        info = build.info(
            path,
            f"Action items · {name}",
            f"Every action item of {name} in the last {desk.DESK_DAYS} days, most urgent first.",
            (feed, build.site_feed),
        )
        groups = desk.desk_groups(editions, build.markup, root)
        return build.page("actions.html", info, name=name, groups=groups, days=desk.DESK_DAYS)

    def _feed(
        self, feed: Link, looked: list[Entry], form: Callable[[Channel, list[Item]], bytes]
    ) -> bytes | None:
        editions = self._editions(looked)
        if editions is None:
            return None
        base = self.build.settings.site.base_url
        items = []
        for alert in desk.immediate_items(editions, self.build.settings.site.feed_items):
            link = urls.absolute(base, alert.entry.path)
            html = (
                f"<p>{escape(alert.text)}</p><p>{escape(alert.repo)} · from the "
                f"{escape(alert.entry.project)} edition of {escape(alert.entry.date_label)}</p>"
            )
            items.append(
                Item(
                    title=alert.text,
                    link=f"{link}#actions",
                    published=alert.entry.published,
                    html=html,
                    categories=(alert.repo,),
                    id=f"{link}#action-{alert.index}",
                )
            )
        channel = Channel(
            title=feed.label,
            link=urls.absolute(base, urls.ACTIONS),
            description="Action items to act on now, newest first.",
            self_url=urls.absolute(base, feed.path),
        )
        return form(channel, items)


@dataclass(frozen=True)
class Chrome:
    """What every page at one depth shows around its own content (see _chrome.html)."""

    masthead: Markup
    footer: Markup


def _looked_at(path: Path, stat: stamp.Stat, known: CollectedDay | None) -> CollectedDay:
    """The collected day at ``path`` (whose stat is ``stat``), last seen as ``known``.

    Opened only when its stat changed, and parsed only when its bytes did too (a fresh
    checkout of the data folder gives every file a new mtime, not new contents).
    """
    if known is not None and (known.mtime_ns, known.size) == stat[:2]:
        return known
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if known is not None and known.sha256 == sha:
        return dataclasses.replace(known, mtime_ns=stat[0])
    return CollectedDay(stat[0], stat[1], sha, _numbers_in(data))


def _numbers_in(data: bytes) -> frozenset[int]:
    """The pull request numbers of a collected day's JSON ``data`` (read without validating)."""
    pulls_ = json.loads(data).get("pulls", [])
    return frozenset(p["number"] for p in pulls_ if isinstance(p.get("number"), int))


def _earlier(day: dt.date) -> str:
    return f"Previous edition, {long_date(day)}"


def _later(day: dt.date) -> str:
    return f"Next edition, {long_date(day)}"
