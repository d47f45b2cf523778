"""Results that depend only on a state and a request, kept for the rest of a run.

Hypothesis starts every example from the initial state and repeats prefixes while it
generates and shrinks, so the same ``ENABLED``, params domain and step check come
back again and again.  They are keyed by the explorer's state identity (64-bit
fingerprints, :func:`tlaconf.explore.fingerprint`), never by Python equality, which would
take ``TRUE`` for ``1``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

from tlaconf.explore import fingerprint
from tlaconf.values import from_python, make_fn

T = TypeVar("T")

LIMIT = 200_000
"""Entries a memo keeps; it starts afresh past that (a long run's memory stays bounded)."""


def value_key(value: Any) -> int:
    """A TLA+ value's (or plain Python data's) fingerprint: equal values, equal keys."""
    return fingerprint(from_python(value))


def state_key(state: Mapping[str, Any]) -> int:
    """A state's (variable -> value) fingerprint, as the record of its variables."""
    return fingerprint(make_fn({k: from_python(v) for k, v in state.items()}))


class Memo(Generic[T]):
    """``key -> result`` computed once (up to :data:`LIMIT` entries); ``hits`` counts the
    computations saved."""

    def __init__(self) -> None:
        self._d: dict[Hashable, T] = {}
        self.hits = 0

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        try:
            found = self._d[key]
        except KeyError:
            if len(self._d) >= LIMIT:
                self._d.clear()
            found = self._d[key] = compute()
            return found
        self.hits += 1
        return found
