"""The render stage: stored digests in, a static news site (pages and RSS feeds) out.

``render_site(settings, store)`` is the whole public API; it builds incrementally into
``settings.site_dir`` and returns a :class:`RenderReport`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from digest.render import stamp
from digest.render.stamp import RenderReport

if TYPE_CHECKING:
    from digest.config import Settings
    from digest.store import Store

__all__ = ["RenderReport", "render_site"]


def render_site(settings: Settings, store: Store, *, full: bool = False) -> RenderReport:
    """Bring ``settings.site_dir`` up to date with the digests in ``store``; say what it did.

    The stored records are known from the store's indexes, and the site's builds folder,
    when it is as the last build left it, from the manifest (see :mod:`.verify`); ``full``
    first reads every data file again and checks every file of the site (after either was
    edited by hand). When no input changed since the published build (see :mod:`.stamp`)
    and the site holds what that build wrote, returns that build's report at once, without
    loading the renderer.
    """
    if full:
        store.reindex()
    code = stamp.code_version()
    fingerprint = stamp.fingerprint(settings, code)
    inputs = stamp.inputs(store, fingerprint)
    current = stamp.current(settings, inputs.hash)
    if current is not None:
        from digest.render import verify
        from digest.render.publish import StagedSite

        report, files = current
        staged = StagedSite(settings.site_dir)
        build = staged.published()
        if build is not None and verify.intact(build, staged.manifest, files, trust=not full):
            staged.discard_leftovers()
            return report
    from digest.render.site import build_site

    return build_site(settings, store, code, fingerprint, inputs, not full)
