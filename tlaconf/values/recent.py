"""What was computed for the last few large objects, found by identity.

A frozenset takes no attributes, so a value derived from a large set (the shape of its
elements, its elements in TLC's order) is kept beside it here; each entry holds its
object, so an id is never reused while its entry is alive.  :func:`forget` empties every
table (and the lists kept with :func:`kept`) when a run ends: what they hold (a 50 MB
state's set) is then freed at once by reference counting, instead of being walked by the
collector's passes at the end of the process.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar
from weakref import WeakSet

V = TypeVar("V")
T = TypeVar("T")

_TABLES: WeakSet[Recent[Any]] = WeakSet()
_KEPT: list[list[Any]] = []


class Recent(Generic[V]):
    """A least-recently-used table of ``size`` objects and the value computed for each."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[Any, V]] = OrderedDict()
        _TABLES.add(self)

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


def kept(items: list[T]) -> list[T]:
    """``items``: a module's list of what it keeps from one call for the next (emptied by
    :func:`forget` too)."""
    _KEPT.append(items)
    return items


def forget() -> None:
    """Empty every table and kept list (a run is over: nothing computed for its values is
    needed)."""
    for table in list(_TABLES):
        table._entries.clear()
    for items in _KEPT:
        items.clear()
