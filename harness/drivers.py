"""Drivers for spec-driven testing (``tlaconf mbt``): the harness seen through a module.

A driver resets the implementation, applies one request (an action label and its
params, drawn from the module's ``Params_<Action>``) and returns whether it was
accepted, the state mapped onto the module's variables, and the params fields the
implementation reports (a shuffle's order, a located object's place).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from harness.abilities.instances import Receipt
from harness.abilities.machines import Advance, Finish, LifecycleMachine, Return
from harness.deal import DealRequest
from harness.profile import (
    Deal,
    Draw,
    ExitSetAside,
    Flip,
    Locate,
    Move,
    Observe,
    ProfileState,
    Reorder,
    Request,
    Reveal,
    SetAside,
    Shuffle,
    apply,
    custody_vars,
    deal_vars,
    membership_vars,
    observation_vars,
    pile_vars,
)
from harness.recorder import DEFAULT_CONSTANTS, REVISION
from harness.scenarios.abilities import started_engine
from harness.scenarios.play import initial_state
from harness.seat_views import LeakCheck, apply_view_request, views_vars
from harness.zones import Custody

Params = dict[str, Any]
CUSTODY = Custody("effect-0", "ability-0", "none")
"""The transit record a move into set-aside gets (as the scenarios' moves carry one)."""
Build = Callable[[Params], Any]
Answer = tuple[bool, dict[str, Any], dict[str, Any]]
Apply = Callable[[ProfileState, Any], tuple[ProfileState, Any]]


class ProfileDriver:
    """The two-seat profile (:mod:`harness.profile`) through one conformance module."""

    revision = REVISION
    constants: Mapping[str, Any] = DEFAULT_CONSTANTS

    def __init__(self, module: str, refine: Callable[[ProfileState], dict[str, Any]],
                 requests: Mapping[str, Build], run: Apply = apply) -> None:  # fmt: skip
        self.module = module
        self.refine = refine
        self.requests = dict(requests)
        self.run = run
        self.state = initial_state()

    def reset(self) -> dict[str, Any]:
        self.state = initial_state()
        return self.refine(self.state)

    def apply(self, action: str, params: Params) -> Answer:
        request = self.requests[action](params)
        self.state, out = self.run(self.state, request)
        own = request.params()
        reported = {k: v for k, v in out.params.items() if k not in own}
        return out.accepted, self.refine(self.state), reported


def _move(p: Params) -> Request:
    return Move(p["id"], p["source"], p["destination"], p["movementAuthorized"],
                p["revealRequired"], p["revealedBeforeMove"], custody=CUSTODY)


def _deal(p: Params) -> Request:
    position: Any = p["sourceIndex"] if p["sourcePosition"] == "index" else p["sourcePosition"]
    count: Any = "all" if p["countAll"] else p["count"]
    request = DealRequest(p["source"], piles=tuple(p["piles"]), count=count,
                          distribution=p["distribution"], source_position=position,
                          pile_position=p["pilePosition"], face=p["face"])
    return Deal(request, p["movementAuthorized"])


def zones() -> ProfileDriver:
    """``ZoneMembership``: moves between zone instances."""
    return ProfileDriver("ZoneMembership", membership_vars, {"Move": _move})


def decks() -> ProfileDriver:
    """``DeckOrder``: draws, shuffles, reorders and locates."""
    return ProfileDriver("DeckOrder", pile_vars, {
        "Draw": lambda p: Draw(p["seat"], p["movementAuthorized"]),
        "Shuffle": _shuffle,
        "Reorder": lambda p: Reorder(p["zone"], tuple(p["order"]), p["reorderContext"],
                                     p["searchCompletion"], p["shuffleOccurred"]),
        "Locate": lambda p: Locate(p["id"]),
    })


def deals() -> ProfileDriver:
    """``Deals``: TCS deals."""
    return ProfileDriver("Deals", deal_vars, {"Deal": _deal})


def _shuffle(p: Params) -> Request:
    return Shuffle(p["zone"], p["seed"])


def observation() -> ProfileDriver:
    """``Observation``: flips, reveals, moves and seat views."""
    return ProfileDriver("Observation", observation_vars, {
        "Move": _move,
        "Flip": lambda p: Flip(p["id"], p["face"]),
        "Reveal": lambda p: Reveal(p["id"], p["seat"]),
    })


def views() -> ProfileDriver:
    """``SeatViews``: what each seat sees (observe, leak checks) across moves, flips,
    reveals, draws, shuffles and deals."""
    return ProfileDriver("SeatViews", views_vars, {
        "Observe": lambda p: Observe(p["seat"]),
        "LeakCheck": lambda p: LeakCheck(p["seat"], p["seed"]),
        "Move": _move,
        "Flip": lambda p: Flip(p["id"], p["face"]),
        "Reveal": lambda p: Reveal(p["id"], p["seat"]),
        "Draw": lambda p: Draw(p["seat"], p["movementAuthorized"]),
        "Shuffle": _shuffle,
        "Deal": _deal,
    }, apply_view_request)


def custody() -> ProfileDriver:
    """``Custody``: setting objects aside and their exits."""
    return ProfileDriver("Custody", custody_vars, {
        "SetAside": lambda p: SetAside(p["id"], p["source"], p["effectInstance"],
                                       p["owningAbility"], p["cleanup"], p["movementAuthorized"]),
        "Exit": lambda p: ExitSetAside(p["id"], p["destination"], p["observerQualifies"],
                                       p["movementAuthorized"]),
    })


class LifecycleDriver:
    """``AbilityLifecycle``: three started ability instances (the scenarios' start, seed 0)
    finishing instructions, advancing and returning."""

    module = "AbilityLifecycle"
    revision = REVISION
    constants: Mapping[str, Any] = {}

    def __init__(self) -> None:
        self.machine = LifecycleMachine(started_engine(random.Random(0), 3))

    def reset(self) -> dict[str, Any]:
        self.machine = LifecycleMachine(started_engine(random.Random(0), 3))
        return self.machine.variables()

    def apply(self, action: str, p: Params) -> tuple[bool, dict[str, Any]]:
        request: Finish | Advance | Return
        if action == "Finish":
            r = p["receipt"]
            request = Finish(p["instance"], Receipt(r["instance"], r["instruction"], r["complete"]))
        elif action == "Advance":
            request = Advance(p["instance"], p["checkpointAndChainsComplete"])
        else:
            request = Return(p["instance"], p["actualFinalCheckpointAndChainsComplete"],
                             p["caller"])
        return self.machine.apply(request), self.machine.variables()


def abilities() -> LifecycleDriver:
    """``AbilityLifecycle``: finishing, advancing and returning started ability instances."""
    return LifecycleDriver()
