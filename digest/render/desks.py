"""The desks of a build: the site's, each project's and each topic's, and their feeds.

Each desk is a page of every action item of its last :data:`desk.DESK_DAYS` days and a
page per urgency, plus an act-now feed (RSS and JSON Feed) of its ``immediate`` items.
The front page, the projects' and the topics' pages show a few of their desk's items
(:meth:`Desks.extras`). Everything comes from the manifest (entries and action items), and
every key from the digests' hashes: a desk whose editions did not change is decided
without reading its entries.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from markupsafe import escape
from msgspec import Struct

from digest.render import desk, manifest, urls
from digest.render.feed import Channel, Item, json_feed, json_path, rss
from digest.render.listings import Collection
from digest.render.output import Output
from digest.render.views import URGENCY_LABEL, EditionActions, Entry, Link

if TYPE_CHECKING:
    from digest.render.site import _Build

#: Editions an ``immediate`` feed looks back over, at most.
LOOKBACK = 200
#: Items a topic's page shows of its desk; the front page's act-now items.
ON_TOPIC_PAGE = 8
ON_FRONT_PAGE = 5


class DeskPlan(Struct, frozen=True):
    """One desk: whose it is, where its pages and feed go, and which editions it reads."""

    #: ``site``, ``project`` or ``topic``.
    kind: str
    name: str
    #: Where its pages go (``""``, ``rockets/``, ``topics/arm/``).
    folder: str
    feed: Link
    #: SQL over ``digests d`` choosing its editions, and its parameters (a topic's desk
    #: has none: its editions are those of :attr:`topic`).
    where: str
    params: tuple[str, ...]
    #: The topic whose editions, and of those whose items, it keeps (None: every item).
    topic: str | None = None

    @property
    def path(self) -> str:
        return urls.desk_path(self.folder)


class DeskView(Struct, frozen=True):
    """What ``actions.html`` prints."""

    name: str
    kind: str
    days: int
    #: The urgency this page shows (None: every urgency).
    urgency: str | None
    tabs: tuple[desk.Tab, ...]
    repos: tuple[desk.RepoFilter, ...]
    groups: tuple[desk.UrgencyGroup, ...]
    total: int
    feed: Link


class DeskSummary(Struct, frozen=True):
    """A few items of a desk, shown on another page, with the way to the whole desk."""

    path: str
    feed: Link
    rows: tuple[desk.DeskRow, ...]
    #: Items of the whole desk, by urgency label.
    counts: tuple[tuple[str, int], ...]
    days: int = desk.DESK_DAYS


class Desks:
    """Plans and offers the desks of a build (see the module's description)."""

    def __init__(self, build: _Build, found: Sequence[Collection]) -> None:
        self.build = build
        site = build.settings.site
        self.plans = [
            DeskPlan(
                "site",
                site.title,
                "",
                Link(f"{site.title}: act-now items", urls.IMMEDIATE_FEED),
                "1",
                (),
            )
        ]
        for c in found:
            h = c.heading
            if h.kind == "project":
                feed = Link(f"{h.name}: act-now items", urls.project_immediate_feed_path(h.slug))
                self.plans.append(
                    DeskPlan("project", h.name, f"{h.slug}/", feed, "d.slug = ?", (h.slug,))
                )
            elif h.kind == "topic":
                feed = Link(f"{h.name}: act-now items", urls.topic_immediate_feed_path(h.slug))
                self.plans.append(
                    DeskPlan("topic", h.name, f"topics/{h.slug}/", feed, "", (), h.slug)
                )
        #: Action items read so far, by digest key: the desks' windows overlap.
        self._actions: dict[str, EditionActions] = {}
        self._windows: dict[str, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = {}
        self._rows: dict[str, list[desk.DeskRow]] = {}

    # -- what other pages show of the desks ----------------------------------------------

    def by_path(self, folder: str) -> DeskPlan | None:
        return next((p for p in self.plans if p.folder == folder), None)

    def summary(self, plan: DeskPlan, root: str, limit: int, urgent_only: bool) -> DeskSummary:
        """A few items of ``plan``'s desk for a page ``root`` away from the site root: the
        act-now ones (``urgent_only``), else the most urgent first."""
        rows = self._desk_rows(plan, root)
        counts = {u.value: 0 for u in desk.URGENCIES}
        for row in rows:
            counts[row.urgency] += 1
        order = {u.value: i for i, u in enumerate(desk.URGENCIES)}
        chosen = [r for r in rows if r.urgency == "immediate"] if urgent_only else rows
        chosen = sorted(chosen, key=lambda r: order[r.urgency])[:limit]
        return DeskSummary(
            plan.path,
            plan.feed,
            tuple(chosen),
            tuple((URGENCY_LABEL[u], counts[u.value]) for u in desk.URGENCIES),
        )

    # -- the desks' own pages and feeds --------------------------------------------------

    def offer(self, out: Output) -> None:
        build = self.build
        group = manifest.SITE_WIDE
        for plan in self.plans:
            looked, window = self._window(plan)
            for urgency in (None, *desk.URGENCIES):
                value = urgency.value if urgency else None
                path = urls.desk_path(plan.folder, value)
                render = functools.partial(self._page, plan, value)
                key = build.key("desk", path, plan, window)
                build.offer(out, group, path, key, render)
            for path, form in ((plan.feed.path, rss), (json_path(plan.feed.path), json_feed)):
                render_feed = functools.partial(self._feed, plan, looked, form)
                key = build.key("immediate", path, plan, looked)
                build.offer(out, group, path, key, render_feed)

    def _window(self, plan: DeskPlan) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """(key, sha256), newest first, of the editions ``plan``'s act-now feed looks back
        over, and of those of its desk's days (up to its newest edition's)."""
        found = self._windows.get(plan.folder)
        if found is None:
            looked = self._sums(plan, limit=LOOKBACK)
            window: list[tuple[str, str]] = []
            if looked:  # keyed slug/YYYY-MM-DD
                newest = dt.date.fromisoformat(looked[0][0].rsplit("/", 1)[1])
                since = newest - dt.timedelta(days=desk.DESK_DAYS - 1)
                window = self._sums(plan, since=str(since))
            found = self._windows[plan.folder] = (looked, window)
        return found

    def _sums(
        self, plan: DeskPlan, *, since: str | None = None, limit: int | None = None
    ) -> list[tuple[str, str]]:
        """(key, sha256), newest first, of ``plan``'s editions from the day ``since`` on
        (``YYYY-MM-DD``, every day when None); at most ``limit``."""
        state = self.build.state
        if plan.topic is not None:
            return state.topic_sums(plan.topic, since=since, limit=limit)
        if since is None:
            return state.sums_where(plan.where, plan.params, limit)
        return state.sums_where(f"{plan.where} AND d.date >= ?", (*plan.params, since), limit)

    def _editions(self, sums: list[tuple[str, str]]) -> list[tuple[Entry, EditionActions]]:
        """The entries of ``sums``' digests with their action items, as the manifest holds them."""
        keys = [key for key, _ in sums]
        state = self.build.state
        entries = state.entries(keys)
        self._actions.update(state.actions(k for k in keys if k not in self._actions))
        return [(entries[k], self._actions[k]) for k in keys if k in entries and k in self._actions]

    def _desk_rows(self, plan: DeskPlan, root: str) -> list[desk.DeskRow]:
        cached = self._rows.get(f"{plan.folder}\0{root}")
        if cached is None:
            editions = self._editions(self._window(plan)[1])
            cached = desk.desk_rows(editions, self.build.markup, root, plan.topic)
            self._rows[f"{plan.folder}\0{root}"] = cached
        return cached

    def _page(self, plan: DeskPlan, urgency: str | None) -> bytes:
        build = self.build
        path = urls.desk_path(plan.folder, urgency)
        root = urls.root_of(path)
        rows = self._desk_rows(plan, root)
        shown = [r for r in rows if urgency is None or r.urgency == urgency]
        tabs = [desk.Tab("All", plan.path, len(rows), urgency is None)]
        for u in desk.URGENCIES:
            n = sum(1 for r in rows if r.urgency == u.value)
            tabs.append(
                desk.Tab(
                    URGENCY_LABEL[u], urls.desk_path(plan.folder, u.value), n, urgency == u.value
                )
            )
        label = next((URGENCY_LABEL[u] for u in desk.URGENCIES if u.value == urgency), "")
        view = DeskView(
            name=plan.name,
            kind=plan.kind,
            days=desk.DESK_DAYS,
            urgency=urgency,
            tabs=tuple(tabs),
            repos=desk.repo_filters(shown),
            groups=desk.desk_groups(shown),
            total=len(shown),
            feed=plan.feed,
        )
        title = f"Action items{f' ({label})' if label else ''} · {plan.name}"
        description = (
            f"Every action item of {plan.name} in the last {desk.DESK_DAYS} days"
            f"{f', {label.lower()} only' if label else ', most urgent first'}."
        )
        info = build.info(path, title, description, (plan.feed, build.site_feed))
        return build.page("actions.html", info, desk=view)

    def _feed(
        self,
        plan: DeskPlan,
        looked: list[tuple[str, str]],
        form: Callable[[Channel, list[Item]], bytes],
    ) -> bytes:
        editions = self._editions(looked)
        base = self.build.settings.site.base_url
        items = []
        limit = self.build.settings.site.feed_items
        for alert in desk.immediate_items(editions, limit, plan.topic):
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
            title=plan.feed.label,
            link=urls.absolute(base, plan.path),
            description="Action items to act on now, newest first.",
            self_url=urls.absolute(base, plan.feed.path),
        )
        return form(channel, items)
