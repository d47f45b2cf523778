"""Property tests: every lifecycle path, legal and illegal, drawn by Hypothesis."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.abilities import (
    AbilityDefinition,
    AbilityEngine,
    ConditionResult,
    ObjectSource,
    Receipt,
    UseRecord,
    ability_active,
    ability_source,
    finish_ok,
    may_choose,
    shape_ok,
    use_due,
)
from harness.abilities.machines import (
    ActivityMachine,
    Finish,
    LifecycleMachine,
    ResolutionMachine,
    Return,
    UseMachine,
)
from harness.abilities.strategies import (
    activity_requests,
    definitions,
    libraries,
    object_refs,
    resolution_step,
    use_requests,
)

FAST = settings(max_examples=60, deadline=None)


def check_resolution_invariants(m: ResolutionMachine) -> None:
    s = m.engine.state
    for iid, inst in s.instances.items():
        reg = s.registry[inst.definition.id]
        assert inst.id == iid
        assert 1 <= inst.cursor <= len(inst.instructions)
        assert not inst.returned or inst.complete
        assert inst.epoch <= reg.epoch
        if inst.phase == "Pending":       # a pending offer is always current
            assert reg.present and reg.epoch == inst.epoch
            assert not inst.imminent


@settings(max_examples=60, deadline=None)
@given(libraries(), st.data())
def test_resolution_walks(library: tuple[AbilityDefinition, ...], data: st.DataObject) -> None:
    m = ResolutionMachine(AbilityEngine(library))
    for _ in range(20):
        r = data.draw(resolution_step(m.engine))
        before_state = m.engine.state
        old = before_state.instances.get(getattr(r, "instance", -1))
        if not m.apply(r):
            assert m.engine.state is before_state      # immutable: nothing partial applied
            continue
        new = m.engine.state.instances.get(getattr(r, "instance", -1))
        if isinstance(r, Finish):
            assert old is not None and finish_ok(old, r.receipt)
            assert r.receipt.instance == old.id
            assert r.receipt.instruction == old.instructions[old.cursor - 1]
        if isinstance(r, Return):
            assert old is not None and new is not None
            assert old.complete and not old.returned and r.final_checkpoint_and_chains_complete
            assert r.caller == old.caller and new == replace(old, returned=True)
        check_resolution_invariants(m)


@FAST
@given(libraries(), st.data())
def test_lifecycle_machine_only_finishes_with_matching_receipts(
    library: tuple[AbilityDefinition, ...], data: st.DataObject
) -> None:
    engine = AbilityEngine(library)
    d = library[0]
    r = ConditionResult(d.id, 1, "o", True, True, True)
    assert engine.recognize(1, r, 101, d.controller, "Play")
    src = d.source.object if isinstance(d.source, ObjectSource) else None
    assert engine.begin(101, 1, src, "Play", True, True)
    m = LifecycleMachine(engine)
    for _ in range(12):
        inst = m.engine.state.instances[101]
        receipt = data.draw(st.builds(Receipt, st.sampled_from((101, 102)),
                                      st.sampled_from((*inst.instructions, 99)), st.booleans()))
        expected = (inst.imminent and not inst.complete and receipt.complete
                    and receipt.instance == 101
                    and receipt.instruction == inst.instructions[inst.cursor - 1])
        assert m.apply(Finish(101, receipt)) is expected
        if not expected:
            m.engine.advance(101, True)


@FAST
@given(definitions())
def test_definitions_obey_shape_and_source_relation(d: AbilityDefinition) -> None:
    assert shape_ok(d.kind, d.instructions)
    p = d.provenance
    assert d.source == ability_source(d.origin, p.printed_object, p.recipient,
                                      p.effect_creator, p.rule)
    if d.origin == "Granted":
        assert d.source == ObjectSource(p.recipient)  # type: ignore[arg-type]


@FAST
@given(object_refs(), object_refs())
def test_granted_source_is_always_the_recipient(grantor, recipient) -> None:  # type: ignore[no-untyped-def]
    assert ability_source("Granted", recipient=recipient, effect_creator=grantor) == \
        ObjectSource(recipient)


@FAST
@given(libraries(), st.data())
def test_activity_walks(library: tuple[AbilityDefinition, ...], data: st.DataObject) -> None:
    m = ActivityMachine({d.id: d for d in library})
    ids = tuple(m.abilities)
    for r in data.draw(st.lists(activity_requests(ids), max_size=15)):
        before = m.variables()
        ok = m.apply(r)
        if not ok:
            assert m.variables() == before
        elif r.label == "Choose":
            d = m.abilities[r.ability]
            assert ability_active(d, m.context) and r.chooser == d.controller
            assert may_choose(d, m.context, r.chooser, r.timing_ok, r.targets_ok, r.affordable)
        assert m.variables()["active"] == {a for a, d in m.abilities.items()
                                           if ability_active(d, m.context)}


@FAST
@given(libraries(), st.data())
def test_use_walks(library: tuple[AbilityDefinition, ...], data: st.DataObject) -> None:
    m = UseMachine()
    for r in data.draw(st.lists(use_requests(library), max_size=25)):
        before_ledger, before = m.ledger, m.variables()
        ok = m.apply(r)
        if not ok:
            assert m.ledger is before_ledger and m.variables() == before
        if r.label == "Boundary" and ok:
            d = r.definition
            record = UseRecord(d.id, before_ledger.turn, r.instance, d.once_per_turn, d.source)
            due = use_due(d, r.event)
            assert m.ledger.uses == (before_ledger.uses | {record} if due else before_ledger.uses)
        if r.label == "Boundary" and not ok:
            assert use_due(r.definition, r.event) and r.definition.once_per_turn
        seen = set()
        for u in m.ledger.uses:
            assert u.turn <= m.ledger.turn
            if u.once_per_turn:
                key = (u.definition, u.source, u.turn)
                assert key not in seen, "two once-per-turn uses in one turn"
                seen.add(key)
