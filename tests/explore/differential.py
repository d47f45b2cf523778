"""Compiled successors against the tree walk's, state by state (for the differential
tests): the same labelled successors in the same order, or the same error."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from tlaconf.evaluate import EvalError
from tlaconf.explore import Model
from tlaconf.explore.adapter import Successors
from tlaconf.values import encode


def _outcome(succ: Successors, model: Model, state: dict[str, Any]
             ) -> tuple[Any, list[dict[str, Any]]]:
    """What ``succ`` makes of ``state`` (comparable: kinds of values apart), and the
    successors."""
    b = model.behaviour
    assert b is not None
    try:
        with succ.guard():
            got = succ.next(b.next, b.next_ns, b.next_span, b.next_name, state)
    except Exception as exc:  # the error is what is compared
        return ("error", type(exc).__name__, str(exc)), []
    return ([(str(label), label.name, _text(label.args), _text(label.bound), _text(nxt))
             for label, nxt in got], [nxt for _, nxt in got])


def _text(v: Any) -> str:
    if isinstance(v, dict):
        return json.dumps({k: encode(x) for k, x in v.items()}, sort_keys=True)
    return json.dumps([[n, encode(x)] for n, x in v])


def first_difference(model: Model, limit: int) -> str | None:
    """Explore ``model`` breadth first (``limit`` states at most, constraints ignored) and
    return the first state whose successors the compiled actions and the tree walk find
    differently (described), else None."""
    fast, walk = Successors(model.ctx), Successors(model.ctx, compiled=False)
    try:
        queue = deque(model.initial_states())
    except EvalError:  # the initial states are the tree walk's in both
        return None
    seen = {_text(s) for s in queue}
    done = 0
    while queue and done < limit:
        state = queue.popleft()
        done += 1
        (got, _), (want, states) = _outcome(fast, model, state), _outcome(walk, model, state)
        if got != want:
            return f"in state {_text(state)}:\n compiled:  {got}\n tree walk: {want}"
        for nxt in states:
            text = _text(nxt)
            if text not in seen:
                seen.add(text)
                queue.append(nxt)
    return None
