"""Hypothesis strategies for abilities (test-time only: imports ``hypothesis``).

Domains are kept small (two seats, a few instance ids, instructions, checkpoints)
so that random requests hit real instances and often match, and the legal and
illegal paths are both exercised.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.abilities.activity import ActivityContext, ObjectData
from harness.abilities.definitions import AbilityDefinition, ObjectRef, ObjectSource, Provenance
from harness.abilities.engine import AbilityEngine
from harness.abilities.instances import AbilityInstance, Receipt
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
    ResolutionRequest,
    Restore,
    Return,
    Select,
    Withdraw,
)
from harness.abilities.recognition import ConditionResult
from harness.abilities.use import UseEvent

SEATS = st.sampled_from(("SideA", "SideB"))
ZONES = st.sampled_from(("Play", "SideA.Hand", "SideB.Discard", "None"))
INSTANCE_IDS = st.integers(101, 104)
INSTRUCTIONS = st.integers(41, 44)
CHECKPOINTS = st.integers(1, 3)
OCCURRENCES = st.sampled_from(("occ1", "occ2", "occ3"))


def object_refs() -> st.SearchStrategy[ObjectRef]:
    return st.builds(ObjectRef, st.integers(11, 13), st.integers(1, 2))


def provenances(origin: str) -> st.SearchStrategy[Provenance]:
    refs = object_refs()
    if origin == "Printed":
        return st.builds(Provenance, printed_object=refs)
    if origin == "Granted":
        return st.builds(Provenance, recipient=refs, effect_creator=refs)
    if origin == "Lingering":
        return st.builds(Provenance, effect_creator=refs)
    return st.builds(Provenance, rule=st.sampled_from(("Upkeep", "Draw")))


@st.composite
def definitions(draw: st.DrawFn, ident: str | None = None,
                kind: str | None = None) -> AbilityDefinition:
    """A well-shaped definition (every kind, origin, condition form and use basis)."""
    k = kind or draw(st.sampled_from(("Static", "Activated", "Conditional")))
    n = 0 if k == "Static" else draw(st.integers(1, 3))
    origin = draw(st.sampled_from(("Printed", "Granted", "Lingering", "Rule")))
    return AbilityDefinition(
        id=ident or draw(st.sampled_from(("a", "b", "c"))),
        kind=k,
        instructions=tuple(draw(st.lists(INSTRUCTIONS, min_size=n, max_size=n, unique=True))),
        origin=origin,
        provenance=draw(provenances(origin)),
        controller=draw(SEATS),
        interrupt=draw(st.booleans()),
        condition=draw(st.sampled_from(("Trigger", "State"))) if k == "Conditional" else "None",
        use_basis=draw(st.sampled_from(("Payment", "OptionalEffect", "Choice"))),
        once_per_turn=draw(st.booleans()),
        active_zones=frozenset(draw(st.sets(ZONES, min_size=1))),
        active_facedown=draw(st.booleans()),
    )


def libraries() -> st.SearchStrategy[tuple[AbilityDefinition, ...]]:
    """Conditional definitions "a", "b" and "c"."""
    return st.tuples(*(definitions(ident=i, kind="Conditional") for i in "abc"))


def condition_results() -> st.SearchStrategy[ConditionResult]:
    return st.builds(ConditionResult, st.sampled_from(("a", "b", "c", "zz")), CHECKPOINTS,
                     OCCURRENCES, st.booleans(), st.booleans(), st.booleans(), st.booleans(),
                     st.booleans())


def receipts() -> st.SearchStrategy[Receipt]:
    return st.builds(Receipt, INSTANCE_IDS, INSTRUCTIONS, st.booleans())


def resolution_requests() -> st.SearchStrategy[ResolutionRequest]:
    """Any AbilityResolution request over small domains (legal or not)."""
    return st.one_of(
        st.builds(Recognize, INSTANCE_IDS, CHECKPOINTS, condition_results(), SEATS, ZONES),
        st.builds(Begin, INSTANCE_IDS, CHECKPOINTS, st.none() | object_refs(), ZONES,
                  st.booleans(), st.booleans()),
        st.builds(Finish, INSTANCE_IDS, receipts()),
        st.builds(Advance, INSTANCE_IDS, st.booleans()),
        st.builds(Return, INSTANCE_IDS, st.booleans(), SEATS),
        st.builds(Withdraw, st.sampled_from(("a", "b", "c"))),
        st.builds(Restore, st.sampled_from(("a", "b", "c"))),
        st.builds(Depart, object_refs()),
    )


def contexts(ability_ids: tuple[str, ...]) -> st.SearchStrategy[ActivityContext]:
    refs = object_refs()
    ids = st.sampled_from(ability_ids)
    return st.builds(
        ActivityContext,
        present=st.frozensets(ids),
        permitted_rules=st.frozensets(st.sampled_from(("Upkeep", "Draw"))),
        objects=st.dictionaries(refs, st.builds(ObjectData, ZONES, st.booleans(), SEATS)),
        facedown_restricted_seats=st.frozensets(SEATS),
        departure_holds=st.frozensets(st.tuples(ids, refs), max_size=3),
        persistent_membership=st.frozensets(st.tuples(ids, refs), max_size=3),
    )


def activity_requests(ability_ids: tuple[str, ...]) -> st.SearchStrategy[Observe | Choose]:
    return st.one_of(
        st.builds(Observe, contexts(ability_ids)),
        st.builds(Choose, st.sampled_from(ability_ids), SEATS, st.booleans(), st.booleans(),
                  st.booleans()),
    )


def use_requests(
    library: tuple[AbilityDefinition, ...],
) -> st.SearchStrategy[Select | BoundaryReached | EndTurn]:
    defs = st.sampled_from(library)
    events = st.builds(UseEvent, st.sampled_from(("Recognition", "Selection", "Payment",
                                                  "OptionalExecution")), st.booleans())
    return st.one_of(
        st.builds(Select, defs),
        st.builds(BoundaryReached, defs, st.integers(201, 205), events),
        st.builds(EndTurn, st.integers(1, 4)),
    )


MOSTLY = st.sampled_from((True, True, True, False))
RARELY = st.sampled_from((False, False, False, True))


def _move(draw: st.DrawFn, inst: AbilityInstance) -> ResolutionRequest:
    """The request that moves ``inst`` on, with its parameters right or subtly wrong."""
    if inst.phase == "Pending":
        src = inst.definition.source
        obj = src.object if isinstance(src, ObjectSource) else None
        return Begin(inst.id, draw(st.sampled_from((inst.checkpoint,) * 3 + (9,))),
                     draw(st.sampled_from((obj, obj, obj and obj.renewed()))),
                     draw(st.sampled_from((inst.source_zone,) * 3 + ("SetAside",))),
                     draw(MOSTLY), draw(MOSTLY))
    if inst.complete:
        return Return(inst.id, draw(MOSTLY),
                      draw(st.sampled_from((inst.caller, inst.caller, "SideA", "SideB"))))
    if inst.imminent:
        right = inst.instructions[inst.cursor - 1]
        return Finish(inst.id, Receipt(draw(st.sampled_from((inst.id, inst.id, inst.id + 1))),
                                       draw(st.sampled_from((right, right, *inst.instructions))),
                                       draw(MOSTLY)))
    return Advance(inst.id, draw(MOSTLY))


_ANY_RESOLUTION_REQUEST = resolution_requests()


@st.composite
def resolution_step(draw: st.DrawFn, engine: AbilityEngine) -> ResolutionRequest:
    """A request for the engine's current state: usually one that moves a live instance on
    or recognizes a present definition, sometimes any request at all."""
    state = engine.state
    live = sorted(i.id for i in state.instances.values() if i.phase != "Lost" and not i.returned)
    present = sorted(r.definition.id for r in state.registry.values() if r.present)
    choice = draw(st.sampled_from(("move", "move", "recognize", "any")))
    if choice == "move" and live:
        return _move(draw, state.instances[draw(st.sampled_from(live))])
    if choice != "any" and present:
        d = state.registry[draw(st.sampled_from(present))].definition
        free = [i for i in range(101, 106) if i not in state.instances] or [101]
        result = ConditionResult(d.id, 1, draw(OCCURRENCES), draw(MOSTLY), draw(MOSTLY),
                                 draw(MOSTLY), draw(RARELY), draw(RARELY))
        return Recognize(draw(st.sampled_from(free)), 1, result, draw(SEATS),
                         draw(st.sampled_from(("Play", "SideA.Hand"))))
    return draw(_ANY_RESOLUTION_REQUEST)
