"""Scripted situations the random walks hardly reach, played at the start of every seed's
ability traces: each guard of each action made FALSE by some rejected request (and TRUE
by an accepted one), and the rare paths where implementations go wrong.

* resolution: the same occurrence recognized twice; a throttled condition result for a
  present definition; a Withdraw while an offer is pending (and Begin of the lost offer,
  also after a Restore); a renewed object presented as the same source at Begin; Begin
  in the wrong window, zone, without scheduling or before an interrupt boundary;
  each Finish guard alone (a receipt of another instance, of another instruction,
  incomplete; a lost offer); requests naming an instance or definition that does not
  exist;
* use: one definition used from two sources in one turn; a use boundary with no Select
  before it; a second once-per-turn use refused at its boundary; a wrong next turn;
* activity: choosing an ability that does not exist, one whose source is face down, and
  each Choose guard alone (timing, targets, affordability);
  what each seat is shown of that ability.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from harness.abilities.activity import ActivityContext, ObjectData
from harness.abilities.definitions import AbilityDefinition, ObjectRef, Provenance
from harness.abilities.instances import Receipt
from harness.abilities.machines import (
    Advance,
    Begin,
    BoundaryReached,
    Choose,
    Depart,
    EndTurn,
    Finish,
    Observe,
    Recognize,
    ResolutionMachine,
    Restore,
    Return,
    Select,
    View,
    Withdraw,
)
from harness.abilities.recognition import ConditionResult
from harness.abilities.use import UseEvent

if TYPE_CHECKING:
    from harness.scenarios.abilities import Request, World

NO_INSTANCE = 999
NO_DEFINITION = "nope"


def _by_id(catalog: tuple[AbilityDefinition, ...], ident: str) -> AbilityDefinition:
    return next(d for d in catalog if d.id == ident)


def resolution(world: World) -> Iterator[Request]:
    """Requests for a fresh engine over the scenarios' CATALOG in ``world`` (updated as the
    object renews and instance ids are used)."""
    w = world
    iid = w.next_instance
    occ = 1000

    def hit(d: str, n: int, **kw: bool) -> ConditionResult:
        flags = {"pattern_matched": True, "stipulation_met": True, "primary_holds": True}
        return ConditionResult(d, 1, f"occ{n}", **{**flags, **kw})

    obj12 = w.current[12]
    # the same occurrence recognized twice; a throttled result for a present definition
    yield Recognize(iid, 1, hit("ward", occ), "SideA", "Play")
    yield Recognize(iid + 1, 1, hit("ward", occ), "SideA", "Play")
    yield Recognize(iid + 1, 1, hit("rally", occ + 1, throttled=True), "SideA", "Play")
    yield Recognize(iid, 1, hit("rally", occ + 2), "SideA", "Play")  # instance id taken
    yield Recognize(iid + 1, 1, hit(NO_DEFINITION, occ + 3), "SideA", "Play")
    # Begin guards, one at a time: window, zone, scheduling, then the right request
    yield Begin(iid, 2, obj12, "Play")
    yield Begin(iid, 1, obj12, "SideA.Hand")
    yield Begin(iid, 1, obj12, "Play", scheduling_ok=False)
    yield Begin(NO_INSTANCE, 1, obj12, "Play")
    yield Begin(iid, 1, obj12, "Play")
    # rally interrupts: Begin before its interrupt boundary is refused
    yield Recognize(iid + 1, 1, hit("rally", occ + 4), "SideA", "Play")
    yield Begin(iid + 1, 1, obj12, "Play", interrupt_boundary_passed=False)
    yield Begin(iid + 1, 1, obj12, "Play")
    # Withdraw while an offer is pending: the offer is lost, and stays lost after Restore
    yield Recognize(iid + 2, 1, hit("ward", occ + 5), "SideA", "Play")
    yield Withdraw("ward")
    yield Withdraw("ward")
    yield Withdraw(NO_DEFINITION)
    yield Begin(iid + 2, 1, obj12, "Play")
    yield Restore("ward")
    yield Restore("ward")
    yield Restore(NO_DEFINITION)
    yield Begin(iid + 2, 1, obj12, "Play")
    # a renewed object is not the same source: Begin with it is refused
    yield Depart(obj12)
    renewed = obj12.renewed()
    w.current[12] = renewed
    yield Recognize(iid + 3, 1, hit("ward", occ + 6), "SideA", "Play")
    yield Begin(iid + 3, 1, renewed, "Play")
    yield Begin(iid + 3, 1, obj12, "Play")
    # Finish guards one at a time on the begun ward offer (instructions 41, 42), and on a
    # lost offer; then the right receipt
    yield Finish(iid, Receipt(iid + 1, 41))
    yield Finish(iid, Receipt(iid, 42))
    yield Finish(iid, Receipt(iid, 41, complete=False))
    yield Finish(iid + 2, Receipt(iid + 2, 41))
    yield Finish(iid, Receipt(iid, 41))
    # unknown instances for every instance request
    yield Finish(NO_INSTANCE, Receipt(NO_INSTANCE, 41))
    yield Advance(NO_INSTANCE, True)
    yield Return(NO_INSTANCE, True, "SideA")
    w.next_instance = iid + 4


def lifecycle(machine: ResolutionMachine) -> Iterator[Request]:
    """Finish guards one at a time on the first started instance (receipts of another
    instance, another instruction, incomplete), then requests naming no instance."""
    first, other = sorted(machine.engine.state.instances)[:2]
    instructions = machine.engine.state.instances[first].instructions
    yield Finish(first, Receipt(other, instructions[0]))
    yield Finish(first, Receipt(first, instructions[0] + 1000))
    yield Finish(first, Receipt(first, instructions[0], complete=False))
    yield Finish(NO_INSTANCE, Receipt(NO_INSTANCE, 41))
    yield Advance(NO_INSTANCE, True)
    yield Return(NO_INSTANCE, True, "SideA")


def use(catalog: tuple[AbilityDefinition, ...]) -> Iterator[Request]:
    """Once-per-turn per (definition, source); a boundary with no Select before it."""
    ward = _by_id(catalog, "ward")
    other_source = replace(ward, provenance=Provenance(printed_object=_other(ward)))
    yield Select(ward)
    yield BoundaryReached(ward, 901, UseEvent("Payment", True))
    yield Select(other_source)  # the same definition from another source: still open
    yield BoundaryReached(other_source, 902, UseEvent("Payment", True))
    yield Select(ward)  # used from this source this turn
    yield BoundaryReached(ward, 903, UseEvent("Payment", True))  # a second use: refused
    upkeep = _by_id(catalog, "upkeep")
    yield BoundaryReached(upkeep, 904, UseEvent("Payment", True))  # no Select before it
    yield EndTurn(1)  # the next turn is 2


def _other(d: AbilityDefinition) -> ObjectRef:
    printed = d.provenance.printed_object
    assert printed is not None
    return ObjectRef(printed.id + 1, printed.life)


def activity(catalog: tuple[AbilityDefinition, ...]) -> Iterator[Request]:
    """Choosing an unknown ability; an ability active face down chosen by its controller."""
    strike = _by_id(catalog, "strike")
    src = strike.provenance.printed_object
    assert src is not None
    ctx = ActivityContext(present=frozenset(d.id for d in catalog),
                          objects={src: ObjectData("Play", False, "SideA")},
                          facedown_restricted_seats=frozenset())
    yield Observe(ctx)
    yield View(strike.id, "SideA")  # the face-down source's controller sees everything
    yield View(strike.id, "SideB")  # the other seat sees the id alone
    yield View(NO_DEFINITION, "SideA")
    yield Choose(NO_DEFINITION, "SideA")
    yield Choose(strike.id, strike.controller)
    yield Choose(strike.id, strike.controller, targets_ok=False)
    yield Choose(strike.id, strike.controller, timing_ok=False)
    yield Choose(strike.id, strike.controller, affordable=False)
