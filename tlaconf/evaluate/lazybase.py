"""The base of the lazy sets: values that support membership first and are enumerated
(once, cached) only when something needs all their elements.

The lazy sets themselves are in :mod:`.lazysets`; the semantics of values
(:mod:`.semantics`) needs only this base, so the two do not import each other.
"""

from __future__ import annotations

from typing import Any

from tlaconf.evaluate.fail import Fail, TooLarge

ENUM_LIMIT = 1_000_000
"""Largest set the evaluator will build by enumerating a lazy set."""


class LazySet:
    """Base of the lazy sets.  Subclasses define ``contains``, ``describe`` and ``_enum``
    (and ``equal_hint`` where they compare without enumerating)."""

    __slots__ = ("_cache",)
    finite = True

    def __init__(self) -> None:
        self._cache: frozenset[Any] | None = None

    def contains(self, x: Any, sid: int) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def _enum(self, sid: int) -> frozenset[Any]:
        raise NotImplementedError

    def equal_hint(self, other: Any, sid: int) -> bool | None:
        """``self = other`` (``other`` a set) when this kind of set decides it without
        enumerating both (by name, by size, by its parts); None when it does not."""
        return None

    def size(self, sid: int) -> int:
        """The number of elements (without enumerating when the set knows it)."""
        return len(self.enum(sid))

    def enum(self, sid: int) -> frozenset[Any]:
        """The elements, as a frozenset; :class:`Fail` when the set is infinite or too big."""
        if self._cache is None:
            if not self.finite:
                raise Fail(f"cannot enumerate the infinite set {self.describe()}", (), sid)
            self._cache = self._enum(sid)
        return self._cache

    def __repr__(self) -> str:
        return self.describe()

    def __eq__(self, other: object) -> bool:
        """By content, as a frozenset would compare (a lazy set inside a tuple, record or
        set: ``<<SUBSET {1}>> = <<SUBSET {1}>>``); an infinite set only equals itself."""
        if self is other:
            return True
        if isinstance(other, LazySet):
            return self.finite and other.finite and self.enum(-1) == other.enum(-1)
        if type(other) is not frozenset:
            return NotImplemented
        return self.finite and self.size(-1) == len(other) and self.enum(-1) == other

    def __hash__(self) -> int:
        if self.finite:
            try:
                return hash(self.enum(-1))
            except TooLarge:  # hashed by identity, compared on demand
                pass
        return id(self)
