"""The states a driver's requests reach, breadth first, from the implementation's initial
state: each allowed request's successors are the spec's (``Successors.action`` of
:mod:`tlaconf.explore`), states are deduplicated by their encoded values, and each state
keeps the shortest path of requests that reaches it (what a test replays to get the
implementation there).

The graph is the one the params domains span (``Params_<Action>``), not the module's
``Next``: these are the requests a driver can make.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tlaconf.explore import Successors
from tlaconf.mbt.memo import state_key
from tlaconf.values import Fn

State = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Hop:
    """One request on a path, and the state key the spec says it leads to."""

    action: str
    params: Fn
    after: int


@dataclass(frozen=True, slots=True)
class Node:
    """A reachable state, its key, and the shortest path of requests to it."""

    key: int
    state: State
    path: tuple[Hop, ...]

    @property
    def depth(self) -> int:
        return len(self.path)


def reachable(initial: State, depth: int, succ: Successors,
              allowed: Callable[[Node], Iterable[tuple[str, Fn]]]) -> Iterator[Node]:  # fmt: skip
    """Every state within ``depth`` requests of ``initial``, breadth first, each once.
    ``allowed(node)`` gives the allowed requests of a state; it is asked only when the
    consumer asks for the next state (so a consumer that stops early pays for no more)."""
    first = Node(state_key(initial), initial, ())
    seen = {first.key}
    queue = deque([first])
    while queue:
        node = queue.popleft()
        yield node
        if node.depth >= depth:
            continue
        for action, params in allowed(node):
            for after in succ.action(action, (params,), node.state):
                key = state_key(after)
                if key not in seen:
                    seen.add(key)
                    queue.append(Node(key, after, (*node.path, Hop(action, params, key))))
