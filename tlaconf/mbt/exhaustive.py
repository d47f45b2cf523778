"""Every behaviour up to a depth (MongoDB's approach): every request of every params
domain sent from every state within ``depth - 1`` requests of the initial state, so
every sequence of up to ``depth`` requests the model allows is covered (states
deduplicated: a state reached twice is tested once).

Only for small models: past :data:`LIMIT` requests it refuses (exit 2, with the count).
"""

from __future__ import annotations

from tlaconf.errors import UserError
from tlaconf.explore import Successors
from tlaconf.mbt.directed import drive
from tlaconf.mbt.domains import Request
from tlaconf.mbt.machine import Session, State
from tlaconf.mbt.reach import Node, reachable
from tlaconf.values import Fn

LIMIT = 20_000
"""Requests an exhaustive run sends at most (the states' domains summed)."""


def plan(session: Session, succ: Successors, initial: State, depth: int,
         limit: int = LIMIT) -> tuple[list[tuple[Node, Request]], int]:  # fmt: skip
    """The requests to send and the number of states they are sent from; UserError when
    there are more than ``limit``."""
    doms = session.domains
    out: list[tuple[Node, Request]] = []
    enabled: dict[int, list[tuple[str, Fn]]] = {}
    states = 0

    def allowed(node: Node) -> list[tuple[str, Fn]]:
        return enabled.get(node.key, [])

    for node in reachable(initial, depth, succ, allowed):
        if node.depth >= depth:
            continue
        states += 1
        for action in doms.actions:
            dom = doms.domain(action, node.state, node.key)
            if len(out) + dom.count > limit:
                raise UserError(
                    f"{session.driver.module}: more than {limit} requests to send at depth "
                    f"{depth} (at least {len(out) + dom.count}, counted over {states} "
                    f"state(s)): too large for --exhaustive; lower --depth, or leave "
                    "--exhaustive for the directed mode")
            for i in range(dom.count):
                params = dom.nth(i)
                ok = doms.allowed(action, params, node.state, node.key)
                out.append((node, Request(action, params, ok)))
                if ok:
                    enabled.setdefault(node.key, []).append((action, params))
    return out, states


def run_exhaustive(session: Session, succ: Successors, initial: State, depth: int,
                   limit: int = LIMIT) -> tuple[int, int, int]:  # fmt: skip
    """Send every request of :func:`plan`; (states, requests, requests not sent because the
    implementation went elsewhere).  StepFailed at the first step that does not conform."""
    requests, states = plan(session, succ, initial, depth, limit)
    return states, len(requests), len(drive(session, requests))
