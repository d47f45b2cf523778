"""Unit tests of the ability library: every rule of seed 003, its worked examples verbatim."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.abilities import (
    AbilityDefinition,
    AbilityEngine,
    AbilityError,
    ActivityContext,
    ConditionResult,
    ObjectData,
    ObjectRef,
    ObjectSource,
    Receipt,
    RuleSource,
    UseEvent,
    UseLedger,
    ability_active,
    ability_source,
    checkpoint_candidates,
    finish_ok,
    may_choose,
    return_ok,
    shape_ok,
    use_due,
)
from harness.abilities.activity import public_view
from harness.abilities.definitions import Provenance
from harness.abilities.instances import AbilityInstance, advance_ok, finished

O11, O12, O13 = ObjectRef(11, 1), ObjectRef(12, 1), ObjectRef(13, 1)


def conditional(ident: str = "ward", instructions: tuple[int, ...] = (41, 42),
                condition: str = "Trigger", **kw: object) -> AbilityDefinition:
    return AbilityDefinition(ident, "Conditional", instructions, "Printed",
                             Provenance(printed_object=O12), "SideA",
                             condition=condition, **kw)  # type: ignore[arg-type]


def started(instructions: tuple[int, ...] = (41, 42), iid: int = 7) -> AbilityInstance:
    return AbilityInstance(iid, conditional(instructions=instructions), "occ1", 1, 1, "Play",
                           "SideA", phase="Resolving", imminent=True)


# --- AbilityShape9 -----------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "instructions", "ok"), [
    ("Static", (), True), ("Static", (1,), False), ("Activated", (), False),
    ("Activated", (1, 2), True), ("Conditional", (3,), True), ("Sorcery", (1,), False),
])
def test_shape(kind: str, instructions: tuple[int, ...], ok: bool) -> None:
    assert shape_ok(kind, instructions) is ok


def test_definition_rejects_bad_shape_and_non_integer_instructions() -> None:
    with pytest.raises(AbilityError, match="AbilityShape9"):
        AbilityDefinition("s", "Static", (1,), "Printed", Provenance(printed_object=O11), "SideA")
    with pytest.raises(AbilityError, match="integers"):
        AbilityDefinition("s", "Activated", ("x",), "Printed",  # type: ignore[arg-type]
                          Provenance(printed_object=O11), "SideA")
    with pytest.raises(AbilityError, match="recognition condition"):
        AbilityDefinition("s", "Activated", (1,), "Printed", Provenance(printed_object=O11),
                          "SideA", condition="Trigger")
    with pytest.raises(AbilityError, match="needs its object"):
        AbilityDefinition("s", "Activated", (1,), "Granted", Provenance(printed_object=O11),
                          "SideA")


def test_metadata_is_labels_and_immutable() -> None:
    d = conditional(metadata={"label": "Ward"})
    assert d.value()["metadata"] == {"label": "Ward"}
    with pytest.raises(TypeError):
        d.metadata["label"] = "x"  # type: ignore[index]


# --- AbilitySource9 ----------------------------------------------------------------------

def test_granted_by_11_to_12_has_source_12() -> None:
    """Seed: an ability granted by object 11 to object 12 — the source relationship names 12."""
    src = ability_source("Granted", recipient=O12, effect_creator=O11)
    assert src == ObjectSource(O12)
    assert src != ObjectSource(O11)
    d = AbilityDefinition("g", "Activated", (1,), "Granted",
                          Provenance(recipient=O12, effect_creator=O11), "SideA")
    assert d.source.object.id == 12  # type: ignore[union-attr]


def test_each_origin_branch() -> None:
    assert ability_source("Printed", printed_object=O11, recipient=O12) == ObjectSource(O11)
    assert ability_source("Lingering", printed_object=O11, effect_creator=O13) == ObjectSource(O13)
    assert ability_source("Rule", printed_object=O11, rule="Upkeep") == RuleSource("Upkeep")
    assert ObjectSource(O11).value() != RuleSource("x").value()
    # one record shape (a model checker types them), told apart by kind
    assert set(RuleSource("x").value()) == set(ObjectSource(O11).value())
    assert RuleSource("x").value()["kind"] != ObjectSource(O11).value()["kind"]
    with pytest.raises(AbilityError):
        ability_source("Borrowed", printed_object=O11)


def test_renewed_object_is_a_different_source() -> None:
    assert O12.renewed() == ObjectRef(12, 2)
    assert ObjectSource(O12.renewed()) != ObjectSource(O12)


# --- presence, activity, permission to choose -------------------------------------------

def _ctx(**kw: object) -> ActivityContext:
    base: dict[str, object] = {"present": frozenset({"ward", "rule", "ling"}),
                               "objects": {O12: ObjectData("Play", True, "SideA")}}
    base.update(kw)
    return ActivityContext(**base)  # type: ignore[arg-type]


def test_activity_requires_presence_first() -> None:
    d = conditional()
    assert ability_active(d, _ctx())
    assert not ability_active(d, _ctx(present=frozenset()))
    assert not ability_active(d, _ctx(present=frozenset(), departure_holds=frozenset(
        {("ward", O12)})))


def test_rule_source_needs_rule_permission_not_a_face_up_flag() -> None:
    d = AbilityDefinition("rule", "Activated", (1,), "Rule", Provenance(rule="Upkeep"), "SideA")
    assert not ability_active(d, _ctx())
    assert ability_active(d, _ctx(permitted_rules=frozenset({"Upkeep"})))


def test_object_source_uses_current_data_of_this_lifetime() -> None:
    d = conditional()
    renewed = {O12.renewed(): ObjectData("Play", True, "SideA")}
    assert not ability_active(d, _ctx(objects=renewed))
    assert not ability_active(d, _ctx(objects={O12: ObjectData("SideA.Hand", True, "SideA")}))


def test_facedown_sideb_restriction() -> None:
    d = conditional(active_facedown=True)
    down_a = {O12: ObjectData("Play", False, "SideA")}
    down_b = {O12: ObjectData("Play", False, "SideB")}
    assert ability_active(d, _ctx(objects=down_a))
    assert not ability_active(d, _ctx(objects=down_b))
    assert not ability_active(conditional(), _ctx(objects=down_a))


def test_departure_holds_and_membership_are_specific_records() -> None:
    d = conditional()
    gone = _ctx(objects={})
    assert not ability_active(d, gone)
    assert ability_active(d, _ctx(objects={}, departure_holds=frozenset({("ward", O12)})))
    assert not ability_active(d, _ctx(objects={}, departure_holds=frozenset({("other", O12)})))
    assert not ability_active(d, _ctx(objects={}, departure_holds=frozenset(
        {("ward", O12.renewed())})))
    ling = AbilityDefinition("ling", "Activated", (1,), "Lingering",
                             Provenance(effect_creator=O12), "SideA")
    member = frozenset({("ling", O12)})
    assert ability_active(ling, _ctx(objects={}, persistent_membership=member))
    # membership is not a blanket permission for a printed ability
    assert not ability_active(d, _ctx(objects={}, persistent_membership=frozenset(
        {("ward", O12)})))


def test_active_is_not_permission_to_choose() -> None:
    d = conditional()
    ctx = _ctx()
    assert ability_active(d, ctx)
    assert may_choose(d, ctx, "SideA", True, True, True)
    assert not may_choose(d, ctx, "SideB", True, True, True)
    assert not may_choose(d, ctx, "SideA", False, True, True)
    assert not may_choose(d, ctx, "SideA", True, False, True)
    assert not may_choose(d, ctx, "SideA", True, True, False)
    assert not may_choose(d, _ctx(present=frozenset()), "SideA", True, True, True)


def test_activity_grants_no_right_to_hidden_metadata() -> None:
    d = conditional(metadata={"label": "Ward"}, active_facedown=True)
    ctx = _ctx(objects={O12: ObjectData("Play", False, "SideA")})
    assert ability_active(d, ctx)
    assert public_view(d, ctx, "SideB") == {"id": "ward"}
    assert public_view(d, ctx, "SideA")["metadata"] == {"label": "Ward"}


# --- CheckpointCandidates96 --------------------------------------------------------------

def test_trigger_branch_needs_pattern_and_stipulation() -> None:
    defs = {"ward": conditional()}
    hit = ConditionResult("ward", 3, "o1", pattern_matched=True, stipulation_met=True)
    assert [c.branch for c in checkpoint_candidates(defs, 3, [hit])] == ["Trigger"]
    assert not checkpoint_candidates(defs, 3, [ConditionResult("ward", 3, "o1", True, False)])
    # state-based fields do not make a trigger definition recognized
    assert not checkpoint_candidates(defs, 3, [ConditionResult("ward", 3, "o1",
                                                               primary_holds=True)])


def test_state_branch_has_sibling_and_throttle_guards() -> None:
    defs = {"rally": conditional("rally", (51,), "State")}
    ok = ConditionResult("rally", 2, "o", primary_holds=True)
    assert [c.branch for c in checkpoint_candidates(defs, 2, [ok])] == ["State"]
    for bad in (ConditionResult("rally", 2, "o", primary_holds=True, sibling_pending=True),
                ConditionResult("rally", 2, "o", primary_holds=True, throttled=True),
                ConditionResult("rally", 2, "o", pattern_matched=True, stipulation_met=True)):
        assert not checkpoint_candidates(defs, 2, [bad])


def test_results_are_tied_to_definition_and_snapshot() -> None:
    defs = {"ward": conditional()}
    stale = ConditionResult("ward", 2, "o1", pattern_matched=True, stipulation_met=True)
    other = ConditionResult("nope", 3, "o1", pattern_matched=True, stipulation_met=True)
    assert not checkpoint_candidates(defs, 3, [stale, other])


# --- instances, receipts, FinishAbilityInstruction9 ---------------------------------------

def test_receipt_for_42_cannot_complete_cursor_one_of_41_42() -> None:
    """Seed: a receipt for instruction 42 cannot complete cursor position one of <<41, 42>>."""
    inst = started((41, 42))
    assert inst.cursor == 1
    assert not finish_ok(inst, Receipt(inst.id, 42))
    assert finish_ok(inst, Receipt(inst.id, 41))


def test_receipt_for_the_right_instruction_of_another_instance_is_insufficient() -> None:
    """Seed: a receipt for the right instruction but another instance is also insufficient."""
    inst = started((41, 42), iid=7)
    other = started((41, 42), iid=8)
    assert not finish_ok(inst, Receipt(other.id, 41))
    assert not finish_ok(inst, Receipt(inst.id, 41, complete=False))


def test_finish_preserves_other_fields_and_waits_between_instructions() -> None:
    inst = started((41, 42))
    after = finished(inst)
    assert (after.cursor, after.imminent, after.complete) == (2, False, False)
    assert after.caller == inst.caller and after.definition == inst.definition
    assert not finish_ok(after, Receipt(inst.id, 42))           # not imminent yet
    assert not advance_ok(after, False)                          # chains still open
    assert advance_ok(after, True)
    last = finished(replace(after, imminent=True))
    assert (last.cursor, last.complete) == (2, True)


def test_return_rules() -> None:
    inst = started((41,))
    assert not return_ok(inst, True, "SideA")                   # not complete
    done = finished(inst)
    assert return_ok(done, True, "SideA")
    assert not return_ok(done, False, "SideA")                  # final checkpoint/chains
    assert not return_ok(done, True, "SideB")                   # caller
    assert not return_ok(replace(done, returned=True), True, "SideA")      # returned once


# --- the engine: recognition vs pending offer vs started procedure -----------------------

def _engine() -> AbilityEngine:
    return AbilityEngine((conditional(), conditional("rally", (51,), "State", interrupt=True)))


def _hit(occ: str = "o1", checkpoint: int = 1) -> ConditionResult:
    return ConditionResult("ward", checkpoint, occ, pattern_matched=True, stipulation_met=True)


def test_instance_captures_definition_copy_occurrence_and_epoch() -> None:
    e = _engine()
    assert e.recognize(1, _hit(), 101, "SideA", "Play")
    inst = e.state.instances[101]
    assert inst.definition == e.state.registry["ward"].definition
    assert (inst.occurrence, inst.checkpoint, inst.epoch, inst.phase) == ("o1", 1, 1, "Pending")
    assert not e.recognize(1, _hit(), 102, "SideA", "Play")      # same occurrence again
    assert not e.recognize(1, _hit("o2"), 101, "SideA", "Play")   # id in use


def test_begin_checks_window_source_identity_zone_and_interrupt_boundary() -> None:
    e = _engine()
    e.recognize(1, _hit(), 101, "SideA", "Play")
    e.recognize(1, ConditionResult("rally", 1, "o9", primary_holds=True), 102, "SideA", "Play")
    assert not e.begin(101, 2, O12, "Play", True, True)           # another window
    assert not e.begin(101, 1, O12.renewed(), "Play", True, True)  # equal id, renewed object
    assert not e.begin(101, 1, O12, "SideA.Hand", True, True)     # moved away
    assert not e.begin(101, 1, O12, "Play", False, True)          # scheduling
    assert not e.begin(102, 1, O12, "Play", True, False)          # interrupt boundary first
    assert e.begin(101, 1, O12, "Play", True, True)
    assert e.state.instances[101].imminent
    assert not e.begin(101, 1, O12, "Play", True, True)           # already started


def test_restored_definition_does_not_restore_a_lost_pending_instance() -> None:
    e = _engine()
    e.recognize(1, _hit(), 101, "SideA", "Play")
    assert e.withdraw("ward") and e.state.instances[101].phase == "Lost"
    assert not e.withdraw("ward")
    assert e.restore("ward") and e.state.registry["ward"].epoch == 2
    assert e.state.instances[101].phase == "Lost"
    assert not e.begin(101, 1, O12, "Play", True, True)
    assert e.recognize(1, _hit("o2"), 102, "SideA", "Play")
    assert e.state.instances[102].epoch == 2


def test_departure_loses_offers_detaches_started_and_manufactures_no_receipt() -> None:
    e = _engine()
    e.recognize(1, _hit("o1"), 101, "SideA", "Play")
    e.recognize(1, _hit("o2"), 102, "SideA", "Play")
    e.begin(102, 1, O12, "Play", True, True)
    assert e.depart(O12)
    assert e.state.instances[101].phase == "Lost"
    detached = e.state.instances[102]
    assert detached.phase == "Detached" and not detached.complete
    assert not e.return_(102, True, "SideA")
    assert e.finish(102, Receipt(102, 41))                        # continuation contract
    assert e.advance(102, True) and e.finish(102, Receipt(102, 42))
    assert e.return_(102, True, "SideA")
    assert not e.return_(102, True, "SideA")


def test_rejected_requests_leave_the_state_object_unchanged() -> None:
    e = _engine()
    e.recognize(1, _hit(), 101, "SideA", "Play")
    before = e.state
    assert not e.finish(101, Receipt(101, 41))                    # not started
    assert not e.return_(101, True, "SideA")
    assert not e.restore("ward")
    assert not e.recognize(9, _hit(), 103, "SideA", "Play")
    assert e.state is before


def test_duplicate_definitions_are_an_input_error() -> None:
    with pytest.raises(AbilityError, match="duplicate"):
        AbilityEngine((conditional(), conditional()))


# --- AbilityUseDue9 and once per turn -----------------------------------------------------

def test_use_is_due_only_at_the_definitions_own_actual_boundary() -> None:
    paid, optional, choice = (conditional(use_basis=b) for b in
                              ("Payment", "OptionalEffect", "Choice"))
    assert use_due(paid, UseEvent("Payment", True))
    assert not use_due(paid, UseEvent("Payment", False))          # payment not made
    assert not use_due(paid, UseEvent("Recognition", True))       # recognition is not use
    assert not use_due(paid, UseEvent("Selection", True))
    assert use_due(optional, UseEvent("OptionalExecution", True))
    assert not use_due(optional, UseEvent("OptionalExecution", False))  # declined
    assert not use_due(optional, UseEvent("Payment", True))
    assert use_due(choice, UseEvent("Selection", True))
    assert not use_due(choice, UseEvent("Payment", True))


def test_once_per_turn_reads_turn_and_source_history() -> None:
    d = conditional(once_per_turn=True)
    ledger = UseLedger()
    assert ledger.may_select(d, d.source)
    used = ledger.boundary(d, d.source, 1, UseEvent("Payment", True))
    assert used is not None and not used.may_select(d, d.source)
    assert used.may_select(d, ObjectSource(O13))                  # another source
    nxt = used.end_turn()
    assert nxt.may_select(d, d.source) and nxt.uses == used.uses  # history kept
    assert used.boundary(d, d.source, 2, UseEvent("Payment", True)) is None  # refused
    not_due = ledger.boundary(d, d.source, 1, UseEvent("Recognition", True))
    assert not_due is ledger
