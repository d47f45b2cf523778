"""Breadth-first search of a model's state graph, as TLC's model checker does it.

A state is new when its key (:meth:`Model.key`: ``VIEW``, ``SYMMETRY``) has not been
seen; a new state satisfying every ``CONSTRAINT`` (and whose step satisfies every
``ACTION_CONSTRAINT``) is counted, checked against the invariants and explored.
A state without any successor is a deadlock (unless ``CHECK_DEADLOCK FALSE``).
Levels are explored in order, so the first violation found has a shortest path.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from tlaconf.explore.adapter import Label
from tlaconf.explore.model import Model
from tlaconf.explore.result import Result, Step, Violation
from tlaconf.values import sort_key

Progress = Callable[[Result, int], None]
"""Called now and then with the counts so far and the number of states queued."""
_EVERY = 2000


def bfs(model: Model, max_depth: int | None = None, progress: Progress | None = None) -> Result:
    """Explore ``model`` breadth first, up to ``max_depth`` levels (all when None)."""
    start = time.perf_counter()
    res = Result()
    seen: dict[Hashable, tuple[Hashable | None, Label | None, dict[str, Any], Hashable]] = {}
    queue: deque[tuple[dict[str, Any], Hashable, int]] = deque()

    def path(key: Hashable) -> tuple[Step, ...]:
        out = []
        k: Hashable | None = key
        while k is not None:
            parent, label, state, _ = seen[k]
            out.append(Step(label, state))
            k = parent
        return tuple(reversed(out))

    def found(state: dict[str, Any], key: Hashable, level: int) -> bool:
        res.distinct_states += 1
        res.depth = max(res.depth, level)
        inv = model.violated_invariant(state)
        if inv is not None:
            res.result, res.violation = "violation", Violation(inv, path(key))
            return True
        if max_depth is None or level < max_depth:
            queue.append((state, key, level))
        else:
            res.complete = False
        return False

    def done() -> Result:
        res.seconds = time.perf_counter() - start
        return res

    for state in model.initial_states():
        res.total_states += 1
        if not model.in_constraints(state):
            continue
        key = _unique(model, seen, model.key(state))
        if key is None:
            continue
        seen[key] = (None, None, state, key)
        if found(state, key, 1):
            return done()
    while queue:
        state, key, level = queue.popleft()
        with model.guard():
            succs = model.successors(state)
            if not succs and model.check_deadlock:
                res.result, res.violation = "deadlock", Violation(None, path(key))
                return done()
            for t in succs:
                res.total_states += 1
                nxt = t.state
                if not model.in_constraints(nxt) or not model.action_allowed(state, nxt):
                    continue
                k = _unique(model, seen, model.key(nxt))
                if k is None:
                    continue
                seen[k] = (key, t.label, nxt, k)
                if found(nxt, k, level + 1):
                    return done()
        if progress is not None and res.distinct_states % _EVERY < len(succs) + 1:
            res.seconds = time.perf_counter() - start
            progress(res, len(queue))
    return done()


def _unique(model: Model, seen: dict[Hashable, Any], key: Hashable) -> Hashable | None:
    """``key`` if it is new, None if it was seen; a key that Python confuses with a seen
    one (``TRUE == 1``) is made distinct by the kinds of its values."""
    hit = seen.get(key)
    if hit is None:
        return key
    if model.same_key(hit[3], key):
        return None
    strict = ("kinds", sort_key(key))
    return None if strict in seen else strict
