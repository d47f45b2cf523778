"""Drivers of the composition helpers (seed 002) for spec-driven testing (``tlaconf mbt``).

Each helper's scenario machine (:mod:`harness.scenarios.composition`) is the glue between
the helper and its module: it applies a request and maps the helper's state onto the
module's variables.  A driver builds the machine's request from the params drawn; what
the helper answers (events emitted, expiries, the layered order, a draft's grants, a
validation's violations) is read back from the request the machine makes, and reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from harness.composition.decks import validate_deck
from harness.composition.durations import Duration
from harness.composition.errors import CompositionError
from harness.composition.responses import Response
from harness.composition.transactions import Intent
from harness.scenarios.abilities import REVISION, Machine
from harness.scenarios.composition import (
    decks,
    durations,
    keywords,
    phases,
    responses,
    targets,
    turn_views,
)
from harness.scenarios.composition import transactions as costs
from harness.scenarios.composition.common import Move, Request, constants_of

Params = dict[str, Any]
Build = Callable[[Any, Params], Request]


class MachineDriver:
    """A scenario machine (made afresh by ``make``) driven through ``builders``: action
    label -> the request for the params drawn."""

    revision = REVISION

    def __init__(self, make: Callable[[], Machine], builders: Mapping[str, Build]) -> None:
        self.make = make
        self.builders = dict(builders)
        self.machine = make()
        self.module = self.machine.module
        self.constants = dict(constants_of(self.machine))

    def reset(self) -> dict[str, Any]:
        self.machine = self.make()
        return self.machine.variables()

    def apply(self, action: str, p: Params) -> tuple[bool, dict[str, Any], dict[str, Any]]:
        request = self.builders[action](self.machine, p)
        accepted = self.machine.apply(request)
        return accepted, self.machine.variables(), request.params()


def phase_runner() -> MachineDriver:
    """``PhaseRunner``: starts and advances (to a phase, or to the next one for ``to = ""``)."""
    return MachineDriver(phases.PhaseMachine, {
        "Start": lambda m, p: m.start(),
        "Advance": lambda m, p: m.advance(p["to"] or None),
    })


def duration_clock() -> MachineDriver:
    """``DurationClock``: durations added, ordinary events, boundaries."""
    def add(m: Any, p: Params) -> Request:
        d = p["duration"]
        return durations.Add(Duration(d["id"], d["unit"], d["remaining"], d["order"]))

    return MachineDriver(durations.DurationMachine, {
        "Add": add,
        "Event": lambda m, p: durations.Event(p["name"]),
        "Boundary": lambda m, p: m.boundary(p["unit"]),
    })


def keyword_layering() -> MachineDriver:
    """``KeywordLayering``: registrations (the catalog's effects), acquisitions, losses,
    resolves."""
    return MachineDriver(keywords.KeywordMachine, {
        "Register": lambda m, p: keywords.Register(p["keyword"],
                                                   keywords.CATALOG.get(p["keyword"], ())),
        "Acquire": lambda m, p: keywords.Acquire(p["keyword"], frozenset(p["sources"])),
        "Lose": lambda m, p: keywords.Lose(p["keyword"], p["source"]),
        "Resolve": lambda m, p: m.resolve(),
    })


def response_window() -> MachineDriver:
    """``ResponseWindow``: windows opened, responses, passes, arrivals."""
    return MachineDriver(responses.ResponseMachine, {
        "Open": lambda m, p: responses.Open(p["seat"]),
        "Respond": lambda m, p: responses.Respond(
            p["seat"], Response(p["response"]["id"], p["response"]["seat"]), p["nested"]),
        "Pass": lambda m, p: responses.Pass(p["seat"], p["kind"]),
        "Arrive": lambda m, p: responses.Arrive(p["entry"], p["zone"], p["opens"], p["seat"]),
    })


def costs_and_drafts() -> MachineDriver:
    """``CostsAndDrafts``: payments, gains, draft rounds."""
    def draft(m: Any, p: Params) -> Request:
        intents = frozenset(Intent(i["seat"], i["item"]) for i in p["intents"])
        return m.draft(intents, p["arbitration"])

    return MachineDriver(costs.TransactionMachine, {
        "Pay": lambda m, p: costs.Pay(p["seat"], dict(p["cost"])),
        "Gain": lambda m, p: costs.Gain(p["seat"], dict(p["gain"])),
        "Draft": draft,
    })


def deck_validation() -> MachineDriver:
    """``DeckValidation``: lists validated (the violations reported) and submitted."""
    def validate(m: Any, p: Params) -> Request:
        cards, fmt = tuple(p["cards"]), p["format"]
        try:
            found = validate_deck(cards, decks.CATALOG, decks.FORMATS[fmt], p["kind"] or fmt)
        except CompositionError:
            found = ()
        return decks.Validate(cards, fmt, tuple(found), p["kind"])

    return MachineDriver(decks.DeckMachine, {
        "Validate": validate,
        "Submit": lambda m, p: decks.Submit(p["owner"], p["format"], tuple(p["cards"])),
    })


def target_choice() -> MachineDriver:
    """``TargetChoice``: board moves, target-choice views, action enumerations, choices."""
    return MachineDriver(targets.TargetMachine, {
        "Move": lambda m, p: Move(p["entry"], p["source"], p["destination"]),
        "View": lambda m, p: m.view(),
        "Enumerate": lambda m, p: m.enumerate(),
        "Choose": lambda m, p: targets.Choose(p["action"], tuple(p["targets"])),
    })


def turn_observation() -> MachineDriver:
    """``TurnObservation``: each seat's TurnView, revelations, moves, leak checks (of the
    library's view)."""
    return MachineDriver(turn_views.ViewMachine, {
        "Observe": lambda m, p: m.observe(p["seat"]),
        "Reveal": lambda m, p: turn_views.Reveal(p["entry"], frozenset(p["seats"]), p["reason"]),
        "Move": lambda m, p: Move(p["entry"], p["source"], p["destination"]),
        "LeakCheck": lambda m, p: m.leak_check(p["seat"], p["seed"]),
    })
