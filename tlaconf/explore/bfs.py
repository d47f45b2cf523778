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
from collections.abc import Callable, Hashable, Sequence
from itertools import pairwise
from typing import Any

from tlaconf.explore.adapter import Label
from tlaconf.explore.hooks import Hooks, Stop
from tlaconf.explore.model import Model
from tlaconf.explore.result import Result, Step, Violation
from tlaconf.values import sort_key

Progress = Callable[[Result, int], None]
"""Called now and then with the counts so far and the number of states queued."""
_EVERY = 2000


def bfs(model: Model, max_depth: int | None = None, progress: Progress | None = None,
        hooks: Sequence[Hooks] = ()) -> Result:
    """Explore ``model`` breadth first, up to ``max_depth`` levels (all when None), with
    ``hooks`` (and those the model's ``PROPERTY`` lines need) riding the search."""
    start = time.perf_counter()
    res = Result()
    seen: dict[Hashable, tuple[Hashable | None, Label | None, dict[str, Any], Hashable]] = {}
    queue: deque[tuple[dict[str, Any], Hashable, int]] = deque()
    riders = [*hooks, *model.hooks()]
    sids: dict[Hashable, int] = {}
    keys: list[Hashable] = []

    def sid(key: Hashable) -> int:
        at = sids.get(key)
        if at is None:
            at = sids[key] = len(keys)
            keys.append(key)
        return at

    def stopped(stop: Stop) -> Result:
        ids = [keys[i] for i in stop.path]
        steps = [Step(None, seen[ids[0]][2])]
        for a, b in pairwise(ids):
            state = seen[a][2]
            label = next((t.label for t in model.successors(state)
                          if _is(model, _seen_key(model, seen, model.key(t.state)), b)),
                         Label("Stuttering"))
            steps.append(Step(label, seen[b][2]))
        res.result = "violation"
        res.violation = Violation(stop.name, tuple(steps), stop.kind, stop.loop, stop.detail)
        return done()

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
        try:
            for h in riders:
                h.initial(sid(key), state)
        except Stop as stop:
            return stopped(stop)
        if found(state, key, 1):
            return done()
    while queue:
        state, key, level = queue.popleft()
        with model.guard():
            succs = model.successors(state)
            try:
                for h in riders if not succs else ():
                    h.dead_end(sid(key), state)
            except Stop as stop:
                return stopped(stop)
            if not succs and model.check_deadlock:
                res.result, res.violation = "deadlock", Violation(None, path(key))
                return done()
            for t in succs:
                res.total_states += 1
                nxt = t.state
                if not model.in_constraints(nxt) or not model.action_allowed(state, nxt):
                    continue
                k = _unique(model, seen, model.key(nxt))
                if riders:
                    old = k is None
                    dst = _seen_key(model, seen, model.key(nxt)) if old else k
                    if not old:
                        seen[k] = (key, t.label, nxt, k)
                    try:
                        for h in riders:
                            h.transition(sid(key), state, t.label, sid(dst), nxt, not old)
                    except Stop as stop:
                        return stopped(stop)
                if k is None:
                    continue
                seen[k] = (key, t.label, nxt, k)
                if found(nxt, k, level + 1):
                    return done()
        if progress is not None and res.distinct_states % _EVERY < len(succs) + 1:
            res.seconds = time.perf_counter() - start
            progress(res, len(queue))
    try:
        for h in riders:
            h.finished(res.complete)
    except Stop as stop:
        return stopped(stop)
    unchecked = [u for h in riders for u in getattr(h, "unchecked", ())]
    if unchecked:  # a hook's checks that a search cut short leaves undone
        res.extra["unchecked"] = unchecked
    return done()


def _is(model: Model, a: Hashable, b: Hashable) -> bool:
    return a is b or (a == b and model.same_key(a, b))


def _seen_key(model: Model, seen: dict[Hashable, Any], key: Hashable) -> Hashable:
    """The key under which a state already seen is stored."""
    hit = seen.get(key)
    if hit is not None and model.same_key(hit[3], key):
        return hit[3]
    return ("kinds", sort_key(key))


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
