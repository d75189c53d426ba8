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

    The stored records are known from the store's indexes; ``full`` first reads every
    file again (after data was edited by hand). When no input changed since the published
    build (see :mod:`.stamp`) and the site holds what that build wrote (see
    :mod:`.verify`), returns that build's report at once, without loading the renderer.
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
        if verify.intact(settings.site_dir, staged.manifest, files):
            staged.discard_leftovers()
            return report
    from digest.render.site import build_site

    return build_site(settings, store, code, fingerprint, inputs)
