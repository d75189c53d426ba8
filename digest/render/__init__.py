"""The render stage: stored digests in, a static news site (pages and RSS feeds) out.

``render_site(settings, store)`` is the whole public API; it builds incrementally into
``settings.site_dir`` and returns a :class:`RenderReport`.
"""

from digest.render.site import RenderReport, render_site

__all__ = ["RenderReport", "render_site"]
