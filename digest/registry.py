"""One place where sources and writers are registered by name.

Built-in sources and writers register through :func:`digest.builtins.register`, the same
hook an outside package exposes through the ``the_wire.plugins`` entry-point group::

    [project.entry-points."the_wire.plugins"]
    mine = "my_package.wire:register"   # def register(registry: Registry) -> None
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from msgspec import Struct, field

from digest.errors import UsageError, WireError

if TYPE_CHECKING:
    from digest.sources.base import SourceFactory
    from digest.summarize.base import WriterFactory

ENTRY_POINT_GROUP = "the_wire.plugins"
F = TypeVar("F")


class Registry(Struct):
    """Factories of sources and writers, keyed by the name used in configuration."""

    sources: dict[str, SourceFactory] = field(default_factory=dict)
    writers: dict[str, WriterFactory] = field(default_factory=dict)
    #: Finds hooks to run before the first lookup: installed plugins are looked for only
    #: when a source or writer is asked for (building the site needs none, and looking
    #: through every installed package's metadata costs milliseconds).
    discover: Callable[[], list[Callable[[Registry], None]]] | None = None

    def add_source(self, name: str, factory: SourceFactory) -> None:
        _add(self.sources, "source", name, factory)

    def add_writer(self, name: str, factory: WriterFactory) -> None:
        _add(self.writers, "writer", name, factory)

    def source(self, name: str) -> SourceFactory:
        self._discover()
        return _get(self.sources, "source", name)

    def writer(self, name: str) -> WriterFactory:
        self._discover()
        return _get(self.writers, "writer", name)

    def _discover(self) -> None:
        """Run the hooks ``discover`` finds, once."""
        discover, self.discover = self.discover, None
        if discover is not None:
            for hook in discover():
                hook(self)


def _add(table: dict[str, F], kind: str, name: str, factory: F) -> None:
    if name in table:
        raise WireError(f"two plugins register the {kind} {name!r}")
    table[name] = factory


def _get(table: dict[str, F], kind: str, name: str) -> F:
    try:
        return table[name]
    except KeyError:
        known = ", ".join(sorted(table)) or "none"
        raise UsageError(f"unknown {kind} {name!r}; available: {known}") from None


def default_registry(*, plugins: bool = True) -> Registry:
    """A registry with the built-ins and, unless ``plugins`` is False, installed plugins."""
    from digest import builtins

    registry = Registry(discover=_installed_plugins if plugins else None)
    builtins.register(registry)
    return registry


def _installed_plugins() -> list[Callable[[Registry], None]]:
    """The ``register`` hooks of the installed packages' ``the_wire.plugins`` entry points."""
    import importlib.metadata

    return [ep.load() for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]
