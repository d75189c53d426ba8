"""Where every page of the site lives, as paths relative to the site folder.

Pages link to each other with relative links (``root`` + path) so the site works from
``file://`` and from a sub-path; only feeds and ``<link rel=canonical>`` are absolute.
"""

from __future__ import annotations

import datetime as dt
import re

INDEX = "index.html"
ARCHIVE = "archive.html"
FEED = "feed.xml"
STYLE = "style.css"
ACTIONS = "actions.html"
#: The feed of every ``immediate`` action item (its JSON Feed is ``.json`` beside it).
IMMEDIATE_FEED = "actions/immediate.xml"
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
#: Every feed of the site, with what each carries.
SUBSCRIBE = "subscribe.html"
#: What a web server shows for a page that is not there.
NOT_FOUND = "404.html"
#: The search page (Pagefind) and the folder of its index.
SEARCH = "search.html"
SEARCH_INDEX = "pagefind"


def edition_path(slug: str, day: dt.date) -> str:
    """Return the stable path of ``slug``'s edition of ``day``."""
    return f"{slug}/{day.isoformat()}.html"


def project_path(slug: str) -> str:
    """Return the path of project ``slug``'s front page."""
    return f"{slug}/index.html"


def project_actions_path(slug: str) -> str:
    """Return the path of project ``slug``'s action-items desk."""
    return f"{slug}/actions.html"


def project_immediate_feed_path(slug: str) -> str:
    """Return the path of project ``slug``'s feed of ``immediate`` action items."""
    return f"{slug}/immediate.xml"


def desk_path(folder: str, urgency: str | None = None) -> str:
    """Return the path of the desk in ``folder`` (``""``: the site's, ``rockets/``,
    ``topics/arm/``), of one ``urgency`` if given."""
    return f"{folder}actions-{urgency}.html" if urgency else f"{folder}actions.html"


def topic_immediate_feed_path(slug: str) -> str:
    """Return the path of topic ``slug``'s feed of ``immediate`` action items."""
    return f"topics/{slug}/immediate.xml"


def project_year_path(slug: str, year: int) -> str:
    """Return the path of project ``slug``'s list of editions of ``year``."""
    return f"{slug}/{year}.html"


def project_feed_path(slug: str) -> str:
    """Return the path of project ``slug``'s RSS feed."""
    return f"{slug}/feed.xml"


def topic_path(slug: str) -> str:
    """Return the path of topic ``slug``'s front page."""
    return f"topics/{slug}.html"


def topic_feed_path(slug: str) -> str:
    """Return the path of topic ``slug``'s RSS feed (its JSON Feed is ``.json`` beside it)."""
    return f"topics/{slug}.xml"


def topic_year_path(slug: str, year: int) -> str:
    """Return the path of topic ``slug``'s list of editions of ``year``."""
    return f"topics/{slug}/{year}.html"


def archive_year_path(year: int) -> str:
    """Return the path of the site-wide list of editions of ``year``."""
    return f"archive/{year}.html"


def sitemap_path(name: str) -> str:
    """Return the path of the sitemap named ``name`` (a month, a year or ``site``)."""
    return f"sitemap/{name}.xml"


def root_of(path: str) -> str:
    """Return the relative prefix leading from the page at ``path`` back to the site root."""
    return "../" * path.count("/")


def absolute(base_url: str, path: str) -> str:
    """Return the absolute URL of ``path`` under ``base_url`` (``x/index.html`` -> ``x/``)."""
    if path == INDEX or path.endswith("/" + INDEX):
        path = path.removesuffix(INDEX)
    return base_url + path


# Pull-request pages take the repository's name (``pr/Org-repo.js-12.html``) and feeds have
# JSON twins; segments never start with a dot. The one text file is robots.txt.
_PAGE = re.compile(
    r"(?:[A-Za-z0-9][A-Za-z0-9._-]*/){0,2}[A-Za-z0-9][A-Za-z0-9._-]*\.(?:html|xml|css|json)"
    r"|robots\.txt"
    # The search index Pagefind writes, a bundle a month (see .search); the flat shape of
    # earlier versions too, so that its files are deleted.
    r"|pagefind/(?:\d{4}-\d{2}/)?(?:[a-z]+/)?[A-Za-z0-9][A-Za-z0-9._-]*"
    r"\.(?:js|css|json|pagefind|pf_meta|pf_index|pf_fragment|pf_filter)"
)


def is_page_path(path: str) -> bool:
    """True when ``path`` has the shape of a page the Wire writes (``slug/2026-07-01.html``).

    No hidden names, no ``..``, no absolute path, at most two folders; ``.html``, ``.xml``,
    ``.css`` or ``.json``; or ``robots.txt``; or a file of the search index.
    """
    return bool(_PAGE.fullmatch(path))
