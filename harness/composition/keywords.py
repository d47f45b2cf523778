"""``KeywordRegistry`` and ``resolveKeywordLayers``: keyword effects in layer order.

A keyword is registered once with its authored effects (each on a layer, in an
authored active order).  Objects acquire keywords at a time (several objects may
acquire one at the same time).  Resolution lists every granted effect ordered by
layer, then the keyword's registration order, acquisition time, source id and
the effect's authored active order.  The meaning of a keyword stays with the
product; the registry only orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.composition.errors import CompositionError


@dataclass(frozen=True)
class KeywordEffect:
    """One authored effect of a keyword: a name and the layer it applies in."""

    name: str
    layer: int

    def value(self) -> dict[str, Any]:
        return {"name": self.name, "layer": self.layer}


@dataclass(frozen=True)
class Grant:
    """Object ``source`` holds ``keyword`` since time ``acquired``."""

    keyword: str
    source: int
    acquired: int

    def value(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "source": self.source, "acquired": self.acquired}


@dataclass(frozen=True)
class LayeredEffect:
    """A granted effect with every key resolution orders by."""

    keyword: str
    effect: str
    layer: int
    registration: int
    acquired: int
    source: int
    active_order: int

    def value(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "effect": self.effect, "layer": self.layer,
                "registration": self.registration, "acquired": self.acquired,
                "source": self.source, "activeOrder": self.active_order}


def layer_key(e: LayeredEffect) -> tuple[int, int, int, int, int]:
    """Layer, registration order, acquisition time, source id, authored active order."""
    return (e.layer, e.registration, e.acquired, e.source, e.active_order)


@dataclass(frozen=True)
class KeywordRegistry:
    """Registered keywords in registration order (immutable)."""

    keywords: tuple[tuple[str, tuple[KeywordEffect, ...]], ...] = ()

    def registration(self, keyword: str) -> int:
        """The 1-based registration position of ``keyword``."""
        for n, (name, _) in enumerate(self.keywords, 1):
            if name == keyword:
                return n
        raise CompositionError("unknown_keyword", f"{keyword!r} is not registered",
                               keyword=keyword)

    def effects(self, keyword: str) -> tuple[KeywordEffect, ...]:
        return self.keywords[self.registration(keyword) - 1][1]

    def register(self, keyword: str, effects: tuple[KeywordEffect, ...]) -> KeywordRegistry:
        """A registry with ``keyword`` appended; a keyword registers once."""
        if any(name == keyword for name, _ in self.keywords):
            raise CompositionError("duplicate_keyword", f"{keyword!r} is already registered",
                                   keyword=keyword)
        return KeywordRegistry((*self.keywords, (keyword, tuple(effects))))

    def value(self) -> dict[str, Any]:
        return {name: {"registration": n, "effects": [e.value() for e in effects]}
                for n, (name, effects) in enumerate(self.keywords, 1)}


def resolve_keyword_layers(registry: KeywordRegistry,
                           grants: frozenset[Grant]) -> tuple[LayeredEffect, ...]:
    """Every effect the grants put in play, in layer order (see the module docstring)."""
    effects = [
        LayeredEffect(g.keyword, e.name, e.layer, registry.registration(g.keyword), g.acquired,
                      g.source, n)
        for g in grants
        for n, e in enumerate(registry.effects(g.keyword), 1)
    ]
    return tuple(sorted(effects, key=layer_key))


@dataclass(frozen=True)
class KeywordState:
    """A registry, the grants in play and the acquisition clock (immutable)."""

    registry: KeywordRegistry = KeywordRegistry()
    grants: frozenset[Grant] = frozenset()
    clock: int = 0

    def acquire(self, keyword: str, sources: frozenset[int]) -> KeywordState:
        """Objects ``sources`` acquire ``keyword`` together, at the next time."""
        self.registry.registration(keyword)
        if not sources:
            raise CompositionError("no_sources", "an acquisition needs at least one object")
        held = sorted(g.source for g in self.grants if g.keyword == keyword and g.source in sources)
        if held:
            raise CompositionError("already_held", f"{held} already hold {keyword!r}",
                                   keyword=keyword, sources=held)
        time = self.clock + 1
        new = frozenset(Grant(keyword, s, time) for s in sources)
        return KeywordState(self.registry, self.grants | new, time)

    def lose(self, keyword: str, source: int) -> KeywordState:
        """Object ``source`` loses ``keyword``."""
        kept = frozenset(g for g in self.grants if (g.keyword, g.source) != (keyword, source))
        if kept == self.grants:
            raise CompositionError("not_held", f"{source} does not hold {keyword!r}",
                                   keyword=keyword, source=source)
        return KeywordState(self.registry, kept, self.clock)

    def register(self, keyword: str, effects: tuple[KeywordEffect, ...]) -> KeywordState:
        return KeywordState(self.registry.register(keyword, effects), self.grants, self.clock)

    def resolve(self) -> tuple[LayeredEffect, ...]:
        return resolve_keyword_layers(self.registry, self.grants)
