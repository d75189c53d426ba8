"""Build the static site from the stored digests, re-rendering only what changed.

A build stats every digest file and parses only new or changed ones (see :mod:`.scan`),
works out which months and years of pages that reaches (see :mod:`.groups`), then offers
the pages of those groups and the site-wide pages to :class:`Output`, each with a key
hashing the page's inputs; a page is rendered only when its key differs from the
manifest's or its file is missing. Pages of other groups are not looked at: the manifest
answers what the site-wide pages need (newest editions, counts) by index.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import logging
import sqlite3
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

import jinja2
import msgspec.structs
from markupsafe import Markup
from msgspec import Struct

from digest.config import Settings
from digest.errors import StorageError
from digest.models import Digest, PullRequest, RepoDay
from digest.render import (
    groups,
    listings,
    manifest,
    pulls,
    search,
    sitepages,
    stamp,
    topical,
    urls,
    verify,
)
from digest.render.desks import Desks
from digest.render.feed import Channel, Item, json_feed, json_path, rss, sitemap, sitemap_index
from digest.render.fragments import Fragments
from digest.render.listings import Collection, FeedPlan
from digest.render.manifest import CollectedDay, Manifest, year_group
from digest.render.markup import MarkupRenderer
from digest.render.output import Output, Render
from digest.render.publish import StagedSite
from digest.render.scan import Scanner
from digest.render.stamp import RenderReport
from digest.render.templating import make_environment, template_error, template_source
from digest.render.urls import edition_path
from digest.render.views import (
    Entry,
    Link,
    edition_view,
    long_date,
    structured_data,
)
from digest.store import Store

log = logging.getLogger("digest")


class PageInfo(Struct, frozen=True):
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
    settings: Settings,
    store: Store,
    code: str,
    fingerprint: str,
    inputs: stamp.Inputs,
    trust: bool = True,
) -> RenderReport:
    """Bring ``settings.site_dir`` up to date with the digests in ``store``.

    ``code`` is the render code's version, ``fingerprint`` the hash of what besides
    digests shapes pages and ``inputs`` every input's stat and their hash (see :mod:`.stamp`).
    Only new or changed digest files are parsed and only the months they reach are
    planned again (see :mod:`.groups`); of those, only pages whose inputs changed are
    rendered, and pages of vanished digests are deleted. The same digests always give
    byte-identical pages. The build is published atomically (see :mod:`.publish`): if it
    fails, the site stays as it was. Without ``trust`` every file of the copy it starts
    from is checked, even when its builds folder is as the last build left it (see
    :mod:`.verify`).
    """
    staged = StagedSite(settings.site_dir)
    try:
        try:
            return _publish(settings, store, staged, fingerprint, inputs, trust)
        except sqlite3.DatabaseError:
            # The manifest is damaged in a way opening it did not show: start afresh.
            manifest.discard(staged.builds / manifest.NAME)
            return _publish(settings, store, staged, fingerprint, inputs, trust)
    except jinja2.TemplateError as error:
        raise template_error(error) from None
    except sqlite3.Error as error:
        raise StorageError(staged.builds / manifest.NAME, str(error)) from None
    except OSError as error:  # Pages go through the store; folders, links and renames not.
        raise StorageError(error.filename or settings.site_dir, error) from None


def _publish(
    settings: Settings,
    store: Store,
    staged: StagedSite,
    fingerprint: str,
    inputs: stamp.Inputs,
    trust: bool,
) -> RenderReport:
    """Build into a copy of the site and publish it; then commit the manifest."""
    staged.prepare()
    fragments = Fragments(staged.cache / "fragments")
    state = None
    try:
        state = manifest.open_manifest(staged.builds / manifest.NAME, fingerprint)
        left = state.builds_left()
        site_dir = staged.begin(left, trust=trust)
        manifest.adopt(site_dir, state)
        env = make_environment(settings)
        # The copy may come from a restored cache: what the last build did not write as it
        # is now is rendered again or deleted; unless it is the build before last caught
        # up with the published one, both as the last build left them (see .verify).
        # The site holds pages only: anything else (the stamp of an earlier version) goes.
        checked = verify.check_site(site_dir, state.db, staged.trusted, staged.folders)
        present = checked.present
        report, settled = _build_site(
            settings, store, env, fragments, site_dir, state, inputs, checked
        )
        # A page deleted by hand from the published build is still in the copy (made from
        # the build before last): publishing the copy puts it back. (A build that changed
        # a page publishes its copy anyway.) A published build as the last build left it
        # holds what the copy holds; one changed since, or not known to be as left, is
        # replaced by the copy, checked (and so known from then on).
        changed = bool(report.written or report.deleted) or not staged.published_as_left
        # What the copy holds now: the files deleted are no longer ``present`` (each was
        # discarded as it went), and ``written`` and ``deleted`` are apart.
        files = len(present) + sum(p not in present for p in report.written)
        published = staged.published()
        if changed or published is None:
            # Beside the build to publish, before it is: a stamp never vouches for a build
            # that is not there yet.
            stamp.save(stamp.beside(staged.next_build()), inputs.hash, report, files)
            copy = staged.finish(changed=True, paths=(*report.written, *report.deleted))
        else:
            # The same pages: the copy goes, and the published build's stamp learns the
            # inputs' new stats (no new build for that).
            stamp.save(stamp.beside(published), inputs.hash, report, files)
            copy = staged.finish(changed=False)
        # The builds as this build leaves them: the copy, when every file of it is known to
        # be a page as recorded (and as many as the pages recorded), and the others as the
        # last build left them.
        builds = {name: left[name] for name in staged.kept() if name in left}
        if copy is not None:
            builds.pop(copy.name, None)
            if settled and files == state.count_pages(None):
                folders = checked.folders | verify.parents(report.written)
                builds[copy.name] = verify.vouch(copy, folders, files)
        state.record_builds(builds)
    except BaseException:
        staged.abandon()
        if state is not None:
            state.close(save=False)
        raise
    # Only now: the manifest must never be newer than the published site.
    state.close(save=True)
    fragments.prune()
    return report


def _build_site(
    settings: Settings,
    store: Store,
    env: jinja2.Environment,
    fragments: Fragments,
    site_dir: Path,
    state: Manifest,
    inputs: stamp.Inputs,
    checked: verify.Checked,
) -> tuple[RenderReport, bool]:
    """Build the site into ``site_dir`` (holding the files ``checked``) with ``env``,
    knowing from ``state`` what the last build did, and bring ``state`` up to date;
    return what the build did, and whether every file it leaves is known to be a page
    the manifest records, holding its recorded bytes."""
    scanner = Scanner(store, state, inputs, topical.tagger(settings.topics, store))
    changes = scanner.scan()
    collected, to_save, changed_days = groups.collected_changes(state, inputs, store.root)
    build = _Build(
        settings, state, scanner, env, fragments, collected, changes.parsed, inputs.buckets
    )
    everything, found = listings.collections(settings, state)
    recorded = state.groups()
    with_editions = state.groups_of_editions()
    known = recorded | with_editions
    # The groups of files not as the last build wrote them are planned as if they were missing.
    dirty = groups.plan(state, changes, changed_days, (everything, *found), known, checked)
    made, newest = build.index_version(), search.newest_month(with_editions)
    dirty |= search.replanned(state, made, newest, known)
    search.record(state, made, newest)
    planned = {manifest.SITE_WIDE, *dirty}
    previous = state.pages(planned)
    out = Output(
        site_dir,
        {path: "" if path in checked.suspect else page.key for path, page in previous.items()},
        present=checked.present,
        recorded={path: page.sha256 for path, page in previous.items()},
    )
    # Groups that hold pages but no edition (their editions are gone) are not offered:
    # their pages are deleted as stale.
    for group in sorted(dirty & with_editions, reverse=True):
        if group % 100:
            build.offer_month(out, group)
        else:
            build.offer_year(out, group, everything, found)
    build.offer_site_wide(out, everything, found, recorded - planned)
    if out.will_fork():
        build.warm()  # loaded once here, not once in each worker
    out.finish()
    index = build.plan_search(out, made, newest, checked)
    # The search index's files are cleared after it is made again, from the pages as they
    # will be published: most keep their names (Pagefind names them by their contents).
    deleted = out.remove_stale(lambda path: not search.of_index(path))
    of_index = {p for p in checked.suspect if search.of_index(p)}
    pages_only = verify.Checked(checked.present, checked.suspect - of_index, checked.removed)
    deleted += verify.clear(site_dir, pages_only, out, deleted)
    if index is not None and index.todo:
        build.offer_search(out, index)
    deleted += out.remove_stale(search.of_index)
    deleted += verify.clear(site_dir, verify.Checked(checked.present, of_index, []), out, deleted)
    verify.tell(checked, out.written, deleted)
    pages = {
        path: manifest.Page(key, build.groups[path], out.sums[path])
        for path, key in out.done.items()
    }
    settled = _record_files(state, checked, out, deleted, previous.keys() - pages.keys())
    state.update_pages(previous, pages)
    # The pages of the groups not planned were not looked at: as good as skipped.
    clean = state.count_pages(recorded - planned)
    for name, day in {**to_save, **build.looked}.items():
        state.put_collected(name, day)
    report = RenderReport(
        pages_written=len(out.written),
        pages_unchanged=out.unchanged,
        pages_skipped=out.skipped + clean,
        pages_deleted=len(deleted),
        editions=everything.total,
        digests_read=scanner.read,
        problems=tuple(scanner.problems),
        written=tuple(out.written),
        deleted=tuple(deleted),
    )
    return report, settled


def _record_files(
    state: Manifest,
    checked: verify.Checked,
    out: Output,
    deleted: list[str],
    unrecorded: AbstractSet[str],
) -> bool:
    """Record in ``state`` how the files known to hold their pages' bytes are seen, and
    the seals of the folders changed (see :mod:`.verify`): the site found as ``checked``,
    then written by ``out``, less the files ``deleted`` and the pages no longer recorded
    (``unrecorded``). Return whether no file left is doubtful (not known to hold its
    page's recorded bytes, or not a page recorded).

    A trusted copy's files were not looked at: its seals are left as they are (a seal
    holds only for the very files it was made of, and the next check file by file makes
    again those that do not)."""
    seen = {**checked.observed, **verify.confirmed(checked, out.done, out.seen), **out.seen}
    state.record_seen(seen)
    doubtful = (checked.suspect - seen.keys()) | unrecorded
    if not checked.trusted:
        state.record_seals(verify.seals(checked, out.seen, deleted, doubtful))
    return not doubtful - set(deleted)


class _Build:
    """Offers each page of the site to an :class:`Output` with its key and renderer."""

    def __init__(
        self,
        settings: Settings,
        state: Manifest,
        scanner: Scanner,
        env: jinja2.Environment,
        fragments: Fragments,
        collected: dict[str, CollectedDay],
        parsed: dict[str, Digest],
        buckets: Iterable[str] = (),
    ) -> None:
        self.settings = settings
        self.state = state
        self.scanner = scanner
        self.env = env
        self.fragments = fragments
        self.fingerprint = state.version
        #: The collected days as last known, by data path (those of the buckets that
        #: changed; the others are asked of the manifest); and the ones looked at anew.
        self.collected = collected
        self.looked: dict[str, CollectedDay] = {}
        #: The repositories with a collected day (``owner/repo``).
        self.repos = {
            name.split("/", 1)[1].rpartition("/")[0]
            for name in buckets
            if name.startswith("collected/")
        }
        #: The collected days looked at by this build (each once).
        self._days: dict[str, CollectedDay] = {}
        self.markup = MarkupRenderer()
        self.topics = {t.slug or "": t.name for t in settings.topics}
        self.nav = tuple(Link(p.shown, urls.project_path(p.key)) for p in settings.projects)
        #: The topics, in the masthead's second row.
        self.sections = tuple(Link(t.name, urls.topic_path(t.slug or "")) for t in settings.topics)
        self.site_feed = listings.site_feed(settings.site.title)
        #: Every page offered, and its group.
        self.groups: dict[str, int] = {}
        #: Corrections found so far, by cited change (see :meth:`corrections`).
        self.reported: dict[str, tuple[pulls.Correction, ...]] = {}
        # Digests the feeds read: the newest few dozen, parsed once.
        self._recent: dict[str, Digest | None] = {}
        self._templates: dict[str, jinja2.Template] = {}
        self._chromes: dict[str, Chrome] = {}
        #: Digests parsed by this build's scan, by edition path (a PR page reads its citer's).
        self._parsed = parsed
        self._last_day: tuple[tuple[str, dt.date], RepoDay | None] | None = None
        self._pagefind = ""

    def offer(self, out: Output, group: int, path: str, key: str, render: Render) -> None:
        """Offer the page at ``path`` of ``group`` to ``out``."""
        self.groups[path] = group
        out.page(path, key, render)

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

    def warm(self) -> None:
        """Load every page template (the shipped ones compiled ahead, see :mod:`.templating`)
        and make the masthead and footer of every depth of the site now, so that worker
        processes inherit them instead of each making them."""
        for name in self.env.list_templates(filter_func=lambda n: n.endswith(".html")):
            if not name.startswith("shipped/"):
                self._template(name)
        for root in sorted({urls.root_of(path) for path in self.groups}):
            self._chrome(root)

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
                {"site": self.settings.site, "nav": self.nav, "sections": self.sections}
            )
            chrome = self._chromes[root] = Chrome(macros.masthead(root), macros.footer(root))
        return chrome

    def info(self, path: str, title: str, description: str, feeds: tuple[Link, ...]) -> PageInfo:
        """Return the head of the page at ``path``."""
        base = self.settings.site.base_url
        return PageInfo(
            path, urls.root_of(path), title, description, urls.absolute(base, path), feeds
        )

    def offer_month(self, out: Output, group: int) -> None:
        """Offer every page of the month ``group``: its editions, the pages of the changes
        they cite first, and its sitemap."""
        month = manifest.group_name(group)
        entries = self.state.month(month)
        # Only a change of a repository collected here can have a page.
        cited = {pr for entry in entries for pr in entry.cites}
        firsts = self.state.first_citers(pr for pr in cited if pr.partition("#")[0] in self.repos)
        self.corrections(entries)
        seen = self._pull_pages(firsts)
        paths = {key: pulls.pull_path(firsts[key][0], key) for key in seen}
        self._offer_editions(out, group, entries, paths)
        own = [key for key in seen if firsts[key][1].startswith(f"{month}-")]
        # By day: pages of one collected day are rendered one after another, and the day
        # is read once for all of them (see _repo_day).
        own.sort(key=lambda key: (key.partition("#")[0], firsts[key][1], key))
        citers = self.state.citers(own)
        for key in own:
            self._offer_pull_page(out, group, key, paths[key], citers[key], seen[key])
        self._offer_sitemap(out, group, {entry.path: entry.date for entry in entries})

    def offer_year(
        self, out: Output, group: int, everything: Collection, found: list[Collection]
    ) -> None:
        """Offer the listings of the year ``group`` and their sitemap."""
        year = group // 100
        for page in listings.plan_years(self.settings, year, self.state, everything, found):
            self._offer_listing(out, group, page.listing, functools.partial(self._year_page, page))
        self._offer_sitemap(out, group, {})

    def _year_page(self, page: listings.YearListing, info: PageInfo) -> bytes:
        """The year page ``page``: each month's lines made once, then kept as a fragment."""
        heading = page.collection.heading
        context = page.listing.context
        macros: Any = None
        sections = []
        for section in page.months:
            key = Fragments.key(
                "month", self.fingerprint, heading, info.root, section.month, section.shown
            )
            html = self.fragments.get(key)
            if html is None:
                if macros is None:
                    macros = self._template("_macros.html").module
                lines = listings.month_lines(page.collection, self.state, section.month)
                html = str(macros.month_sections((lines,), info.root, context["show_project"]))
                self.fragments.put(key, html)
            sections.append(Markup(html))  # made by the macro above, autoescaped
        return self.page(page.listing.template, info, sections=sections, **context)

    def _offer_sitemap(self, out: Output, group: int, dated: dict[str, dt.date]) -> None:
        """Offer the sitemap of the HTML pages offered in ``group``, those of ``dated``
        with their date."""
        offered = self._html_of(group)
        path = urls.sitemap_path(manifest.group_name(group))
        render = functools.partial(sitemap, self.settings.site.base_url, offered, dated)
        key = self.key("sitemap", path, offered, sorted(dated.items()))
        self.offer(out, group, path, key, render)

    def _offer_editions(
        self, out: Output, group: int, entries: list[Entry], pull_paths: dict[str, str]
    ) -> None:
        """Offer the edition pages of ``entries`` (the month's, newest first); links to their
        neighbours and to the pages of the changes they cite are part of their keys."""
        by_slug: dict[str, list[Entry]] = {}
        for entry in reversed(entries):
            by_slug.setdefault(entry.slug, []).append(entry)
        for slug, days in sorted(by_slug.items()):
            first, last = days[0].date.isoformat(), days[-1].date.isoformat()
            before = self.state.neighbours(slug, first)[0]
            after = self.state.neighbours(slug, last)[1]
            dates = [
                dt.date.fromisoformat(before) if before else None,
                *(entry.date for entry in days),
                dt.date.fromisoformat(after) if after else None,
            ]
            for i, entry in enumerate(days, start=1):
                if _key(entry) in self.scanner.stale:
                    self.groups[entry.path] = group
                    out.keep(entry.path)
                    continue
                earlier, later = dates[i - 1], dates[i + 1]
                links = (
                    Link(_earlier(earlier), edition_path(slug, earlier)) if earlier else None,
                    Link(_later(later), edition_path(slug, later)) if later else None,
                )
                corrections = pulls.edition_corrections(entry, self.reported)
                pages = [pull_paths.get(key) for key in entry.cites]
                # An edition shows its digest, and of its neighbours only their dates.
                inputs = f"{entry.path} {entry.sha256} {earlier} {later} {corrections} {pages}"
                digest = self._parsed.get(entry.path)
                render = functools.partial(
                    self._edition, entry, links, corrections, digest, pull_paths
                )
                self.offer(out, group, entry.path, self.key(inputs), render)

    def corrections(self, entries: Iterable[Entry]) -> None:
        """Find the corrections of the changes ``entries`` cite, if not found yet."""
        wanted = {pr for entry in entries for pr in entry.cites} - self.reported.keys()
        if not wanted:
            return
        found = pulls.find_corrections(self.state.reporting(wanted))
        self.reported.update({key: found.get(key, ()) for key in wanted})

    def _pull_pages(self, firsts: dict[str, tuple[str, str]]) -> dict[str, str]:
        """Of the changes first cited as ``firsts`` says, those that were collected here and
        so have a page, with their collected day's hash.

        A change cited by an edition written elsewhere (its collected day is not in
        ``data_dir``) gets no page, and editions do not link to one.
        """
        root = self.scanner.store.root
        inputs = self.scanner.inputs
        found = {}
        for key, (_, day) in firsts.items():
            repo, _, number = key.partition("#")
            name = f"collected/{repo}/{day}.json"
            stat = inputs.stat(name)
            if stat is None:
                continue  # not collected here (an edition written elsewhere): no page
            collected = self._days.get(name)
            if collected is None:
                known = self.collected.get(name) or self.state.collected_day(name)
                collected = groups.looked_at(root / name, stat, known)
                if collected != known:
                    self.looked[name] = collected
                self._days[name] = collected
            if int(number) in collected.numbers and collected.sha256:
                found[key] = collected.sha256
        return found

    def _offer_pull_page(
        self, out: Output, group: int, key: str, path: str, editions: list[Entry], seen: str
    ) -> None:
        """Offer the page of a cited change (its key: the change's stored day, its citers)."""
        citers = [(e.path, e.project, e.date_label, e.headline) for e in editions]
        # The first citer's digest says what the change does "in short".
        first = editions[0].sha256
        inputs = (path, citers, first, self.reported.get(key, ()), seen)
        render = functools.partial(self._pull, key, editions)
        self.offer(out, group, path, self.key("pull", *inputs), render)

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
        pull_paths: dict[str, str],
    ) -> bytes | None:
        digest = digest or self.scanner.load(entry)
        if digest is None:
            return None
        view = edition_view(digest, entry, self.markup, topics=self.topics, pull_pages=pull_paths)
        project_feed = listings.project_feed(entry.project, entry.slug)
        info = msgspec.structs.replace(
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

    def offer_site_wide(
        self, out: Output, everything: Collection, found: list[Collection], clean: set[int]
    ) -> None:
        """Offer the pages that span years: front page, archive, collections, feeds, desks,
        the sitemap index, the style sheet and ``robots.txt``.

        ``clean`` are the groups of pages not planned by this build.
        """
        group = manifest.SITE_WIDE
        desks = Desks(self, found)
        for listing in listings.plan_listings(self.settings, self.state, everything, found):
            listing = sitepages.augment(listing, desks, everything, self.settings)
            self._offer_listing(out, group, listing)
        self._offer_feeds(out, everything, found)
        desks.offer(out)
        sitepages.offer(self, out, found, desks)
        env = self.env
        self.offer(
            out,
            group,
            urls.STYLE,
            self.key("style"),
            lambda: template_source(env, urls.STYLE).encode(),
        )
        base = self.settings.site.base_url
        robots = f"User-agent: *\nAllow: /\nSitemap: {urls.absolute(base, urls.SITEMAP)}\n"
        self.offer(out, group, urls.ROBOTS, self.key("robots", robots), robots.encode)
        self._offer_sitemap(out, group, {})
        named = clean | set(self.groups.values())
        # Newest year first, each year's listings before its months (newest first), the
        # site-wide pages last.
        order = sorted(named, key=lambda g: (g == group, -year_group(g), g % 100 != 0, -g))
        maps = [urls.sitemap_path(manifest.group_name(g)) for g in order]
        render = functools.partial(sitemap_index, base, maps)
        self.offer(out, group, urls.SITEMAP, self.key("sitemap index", maps), render)

    def index_version(self) -> str:
        """The version of Pagefind that makes the search index; "" for no index (turned off
        in the configuration, or Pagefind not installed: warned of)."""
        if not self.settings.site.search:
            return ""
        binary = search.executable()
        if binary is None:
            log.warning(
                "site: no search index: Pagefind is not installed (pip install pagefind[bin])"
            )
            return ""
        self._pagefind = binary
        return search.version(binary)

    def plan_search(
        self, out: Output, made: str, newest: str, checked: verify.Checked
    ) -> search.SearchPlan | None:
        """Plan the bundles, made by Pagefind ``made`` ("" for no index), of the months
        whose pages ``out`` was offered, ``newest`` being the index's newest month; the
        bundles as the last build made them, all their files present and as it wrote them
        when the build began (``checked``), are offered as they are."""
        if not made:
            return None
        pages = [
            (path, out.sums.get(path, ""), manifest.group_name(self.groups.get(path, 0)))
            for path in out.done
        ]
        index = search.plan(made, newest, pages, out.previous)
        # A bundle with a file missing is made again.
        todo = index.to_build(checked.present, checked.suspect)
        index = msgspec.structs.replace(index, todo=todo)
        for bundle in index.bundles:
            if bundle not in index.todo:
                group = manifest.month_group(bundle.month)
                for path in index.kept(bundle) or ():
                    self.offer(out, group, path, bundle.key, _gone)
        out.finish()
        return index

    def offer_search(self, out: Output, index: search.SearchPlan) -> None:
        """Build the bundles of the index whose pages changed, over the site as it now is,
        and offer their files."""
        if not index.todo:
            return
        files = search.build_bundles(
            self._pagefind, out.site_dir, index.todo, index.newest, workers=out.workers
        )
        bundles = {bundle.folder: bundle for bundle in index.todo}
        for path, data in sorted(files.items()):
            if not (out.site_dir / path).is_file():
                out.gone(path)  # lost since the build began: written again
            bundle = bundles["/".join(path.split("/")[:2])]
            group = manifest.month_group(bundle.month)
            self.offer(out, group, path, bundle.key, functools.partial(bytes, data))
        out.finish()

    def _html_of(self, group: int) -> list[str]:
        """The HTML pages offered so far in ``group``, sorted (what its sitemap lists)."""
        return sorted(
            p
            for p, g in self.groups.items()
            if g == group and p.endswith(".html") and p != urls.NOT_FOUND
        )

    def _offer_listing(
        self,
        out: Output,
        group: int,
        listing: listings.Listing,
        make: Callable[[PageInfo], bytes] | None = None,
    ) -> None:
        """Offer ``listing``, rendered from its context, or by ``make`` given its head."""
        info = self.info(listing.path, listing.title, listing.description, listing.feeds)
        key = self.key(listing.template, info, listing.context)
        if make is None:
            render = functools.partial(self.page, listing.template, info, **listing.context)
        else:
            render = functools.partial(make, info)
        self.offer(out, group, listing.path, key, render)

    def _offer_feeds(self, out: Output, everything: Collection, found: list[Collection]) -> None:
        """Offer the site feed and each project's and topic's, as RSS and as JSON Feed."""
        # By path and title: a topic's feed titles an edition by what it says of the topic.
        items: dict[tuple[str, str], Item | None] = {}
        for plan in listings.plan_feeds(self.settings, everything, found):
            self.corrections(plan.entries)
            content = [
                (e.sha256, e.published, pulls.edition_corrections(e, self.reported))
                for e in plan.entries
            ]
            for path, form in ((plan.path, rss), (json_path(plan.path), json_feed)):
                render = functools.partial(self._feed, plan, items, form)
                self.offer(
                    out, manifest.SITE_WIDE, path, self.key("feed", path, plan, content), render
                )

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
        """The digest of ``entry``, parsed once per build (the feeds share the newest)."""
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


class Chrome(Struct, frozen=True):
    """What every page at one depth shows around its own content (see _chrome.html)."""

    masthead: Markup
    footer: Markup


def _gone() -> bytes | None:
    """The render of a search index file kept as it is: never called while it is on disk
    (a missing one has the index made again by the next build)."""
    return None


def _earlier(day: dt.date) -> str:
    return f"Previous edition, {long_date(day)}"


def _later(day: dt.date) -> str:
    return f"Next edition, {long_date(day)}"


def _key(entry: Entry) -> str:
    """The manifest's key of ``entry``'s digest."""
    return f"{entry.slug}/{entry.date.isoformat()}"
