"""Seeded random walks: from a random initial state, a random successor at every step.

The same model, seed, number of walks and depth give the same walks.  A walk stops at
``depth`` states, at a state all of whose successors the constraints exclude, or at a
violation (an invariant FALSE, or a deadlock when deadlocks are checked).  A model whose
PROPERTY lines are to be checked is refused.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable

from tlaconf.explore.bfs import Progress
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.model import Model
from tlaconf.explore.result import Result, Step, Violation
from tlaconf.values import sort_key


def walks(model: Model, n: int, depth: int, seed: int,
          progress: Progress | None = None) -> Result:
    """``n`` random walks of at most ``depth`` states each; ``distinct_states`` counts the
    states met over all walks, ``depth`` the longest walk."""
    if model.properties is not None:
        raise Unsupported("random walks do not check PROPERTY lines (a liveness property "
                          "needs the whole state graph): search breadth-first, or give "
                          "--skip-properties", str(model.cfg.path or model.tla))
    start = time.perf_counter()
    rng = random.Random(seed)
    res = Result(complete=False)
    seen: dict[Hashable, Hashable] = {}
    inits = model.initial_states()
    res.total_states += len(inits)
    inits = [s for s in inits if model.in_constraints(s)]
    for _ in range(n):
        if not inits:
            break
        state = rng.choice(inits)
        path = [Step(None, state)]
        while True:
            key = model.key(state)
            if key not in seen or not model.same_key(seen[key], key):
                strict = key if key not in seen else ("kinds", sort_key(key))
                if strict not in seen:
                    seen[strict] = strict
                    res.distinct_states += 1
            res.depth = max(res.depth, len(path))
            inv = model.violated_invariant(state)
            if inv is not None:
                res.result, res.violation = "violation", Violation(inv, tuple(path))
                res.seconds = time.perf_counter() - start
                return res
            if len(path) >= depth:
                break
            succs = model.successors(state)
            res.total_states += len(succs)
            if not succs and model.check_deadlock:
                res.result, res.violation = "deadlock", Violation(None, tuple(path))
                res.seconds = time.perf_counter() - start
                return res
            allowed = [t for t in succs if model.in_constraints(t.state)
                       and model.action_allowed(state, t.state)]
            if not allowed:
                break
            t = rng.choice(allowed)
            state = t.state
            path.append(Step(t.label, state))
        if progress is not None:
            res.seconds = time.perf_counter() - start
            progress(res, 0)
    res.seconds = time.perf_counter() - start
    return res
