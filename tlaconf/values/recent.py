"""What was computed for the last few large objects, found by identity.

A frozenset takes no attributes, so a value derived from a large set (the shape of its
elements, its elements in TLC's order) is kept beside it here; each entry holds its
object, so an id is never reused while its entry is alive.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class Recent(Generic[V]):
    """A least-recently-used table of ``size`` objects and the value computed for each."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[Any, V]] = OrderedDict()

    def get(self, obj: Any, compute: Callable[[Any], V]) -> V:
        """The value kept for ``obj``, else ``compute(obj)``, then kept."""
        seen = self._entries.get(id(obj))
        if seen is not None and seen[0] is obj:
            self._entries.move_to_end(id(obj))
            return seen[1]
        value = compute(obj)
        self.put(obj, value)
        return value

    def put(self, obj: Any, value: V) -> None:
        """Keep ``value`` for ``obj`` (the oldest entry goes past ``size``)."""
        self._entries[id(obj)] = (obj, value)
        self._entries.move_to_end(id(obj))
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)
