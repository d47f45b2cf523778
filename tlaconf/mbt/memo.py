"""Results that depend only on a state and a request, kept for the rest of a run.

Hypothesis starts every example from the initial state and repeats prefixes while it
generates and shrinks, so the same ``ENABLED``, params domain and step check come
back again and again.  They are keyed by the values' ITF encoding (as a trace writes
them), never by Python equality, which would take ``TRUE`` for ``1``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

from tlaconf.values import encode, from_python

T = TypeVar("T")

LIMIT = 200_000
"""Entries a memo keeps; it starts afresh past that (a long run's memory stays bounded)."""


def value_key(value: Any) -> str:
    """A TLA+ value (or plain Python data) as its encoded text: equal keys, equal values."""
    return json.dumps(encode(from_python(value)), separators=(",", ":"), ensure_ascii=False)


def state_key(state: Mapping[str, Any]) -> str:
    """A state (variable -> value) as its encoded text."""
    return value_key({k: state[k] for k in sorted(state)})


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
