"""The apalache checker against a fake explorer server that answers like Apalache 0.62.1.

The fake (``fake_apalache.py``) decides every question on the concrete states
tlaconf's root modules pin, answers an ACTION invariant at step 1 SATISFIED
without solving (the real server's shortcut), and refuses string
concatenation with the real type checker's error.  No Apalache binary is
used here; ``make test-apalache`` runs the golden corpus through a real one.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.apalache.fake_apalache import FakeApalache
from tlaconf.errors import CheckerFailed, UserError
from tlaconf.gate.golden import golden_traces, relative_key
from tlaconf.replay import replay_trace
from tlaconf.replay.apalache.annotations import untyped
from tlaconf.replay.apalache.bundle import _extend_apalache, read_bundle, read_types
from tlaconf.replay.apalache.root import trace_types
from tlaconf.replay.apalache.sequences import as_sequences
from tlaconf.replay.apalache.server import Client
from tlaconf.replay.apalache.types import (
    EMPTY,
    TypeBook,
    conform,
    infer,
    literal,
    type_text,
    unify,
)
from tlaconf.replay.apalache.typesyntax import TypeSyntaxError, parse_type
from tlaconf.replay.backend import get_checker
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.lookup import module_spec
from tlaconf.tla.parser import parse_module
from tlaconf.trace import TraceWriter
from tlaconf.trace.partial import is_partial
from tlaconf.trace.reader import open_trace
from tlaconf.values import ModelValue, from_python

PROJECT = Path(__file__).resolve().parents[2]
SPEC = PROJECT / "tests" / "replay" / "spec"
HERE = Path(__file__).parent


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApalache]:
    server = FakeApalache()
    monkeypatch.setenv("APALACHE_SERVER", server.url)
    yield server
    server.close()


def st(count: int, a: int = 0, b: int = 0) -> dict[str, Any]:
    return {"count": count, "tally": {"a": a, "b": b}}


def inc(by: int, state: dict[str, Any], outcome: str = "accepted", who: str = "a") -> Any:
    return ("Inc", {"by": by, "who": who}, outcome, state)


def write(path: Path, steps: list[Any], initial: dict[str, Any] | None = None,
          module: str = "Counter") -> Path:  # fmt: skip
    with TraceWriter(path, module, "1", {"Limit": 10}) as w:
        w.init(initial or st(0))
        for action, params, outcome, state in steps:
            if action is None:
                w.unlabeled_step(state, outcome)
            else:
                w.step(action, params, outcome, state)
    return path


def replay(path: Path, spec: Path = SPEC, cross: bool = False) -> Any:
    checker = get_checker("apalache")
    return replay_trace(path, spec, EmbeddedBackend(), checker=checker, cross_check=cross)


# ---------------------------------------------------------------- types


def test_types_of_values() -> None:
    v = from_python
    assert infer(v({"a": 1, "b": 2})) == ("Fun", ("Str",), ("Int",))
    assert infer(v({"a": 1, "b": "x"})) == ("Rec", (("a", ("Int",)), ("b", ("Str",))))
    assert infer(v({"a": 1}), record=True) == ("Rec", (("a", ("Int",)),))
    assert infer(v([1, 2])) == ("Seq", ("Int",)) and infer(v(())) == EMPTY
    assert infer(frozenset()) == ("Set", None)
    # the empty function is the empty sequence and every empty function
    fun = ("Fun", ("Rec", (("id", ("Int",)),)), ("Str",))
    assert unify(EMPTY, fun) == fun and unify(("Seq", ("Int",)), EMPTY) == ("Seq", ("Int",))
    assert unify(("Set", None), ("Set", ("Str",))) == ("Set", ("Str",))
    with pytest.raises(UserError, match="no common Apalache type"):
        unify(("Int",), ("Str",))
    with pytest.raises(UserError, match="model value"):
        infer(ModelValue("m"))
    t = unify(infer(v({"x": frozenset()})), infer(v({"x": frozenset({"a"})})))
    assert type_text(t) == "(Str -> Set(Str))"
    assert literal(v({"x": frozenset({"a"})}), t) == 'SetAsFun({<<"x", {"a"}>>})'
    assert literal(v({"id": 3}), ("Rec", (("id", ("Int",)),))) == "[id |-> 3]"


def test_annotations_are_read() -> None:
    assert parse_type("Set(Str)") == ("Set", ("Str",))
    assert parse_type("Str -> Set(Int)") == ("Fun", ("Str",), ("Set", ("Int",)))
    record = ("Rec", (("a", ("Int",)), ("b", ("Seq", ("Str",)))))
    assert parse_type("{a: Int, b: Seq(Str)}") == record
    assert parse_type("<<Int, Bool>>") == ("Tup", (("Int",), ("Bool",)))
    assert parse_type("a -> b") == ("Fun", ("Var", "a"), ("Var", "b"))
    assert parse_type("{a: Int, b}") == ("Open", (("a", ("Int",)),), "b")
    assert parse_type("(Int, Str) => Bool") == ("Oper", (("Int",), ("Str",)), ("Bool",))
    assert parse_type("Int => Bool") == ("Oper", (("Int",),), ("Bool",))
    assert parse_type("(Int) -> Bool") == ("Fun", ("Int",), ("Bool",))
    assert parse_type("(Int -> Str) -> Int") == ("Fun", ("Fun", ("Int",), ("Str",)), ("Int",))
    assert parse_type("Set(PLAYER)") == ("Set", ("Const", "PLAYER"))
    assert parse_type("A(Int) | B(Str)") == ("Variant", (("A", ("Int",)), ("B", ("Str",))), None)
    assert parse_type("$pt", {"pt": "{x: Int}"}) == ("Rec", (("x", ("Int",)),))
    for bad, why in [("[a: Int]", "no-rows"), ("$alias", "no @typeAlias"),
                     ("Set(Int", "expected '\\)'"),
                     ("{a: Int, a: Str}", "duplicate field a"), ("foo", "not a type"),
                     ("Int ->", "end"), ("(Int, Str)", "unexpected text|expected")]:
        with pytest.raises(TypeSyntaxError, match=why):
            parse_type(bad)


def test_values_are_checked_against_annotations() -> None:
    v = from_python
    rec = parse_type("{id: Int, life: Int}")
    assert conform(v({"id": 1, "life": 2}), rec) == rec
    with pytest.raises(UserError, match="without the field life"):
        conform(v({"id": 1}), rec, "p")
    with pytest.raises(UserError, match="with the field x the annotation lacks"):
        conform(v({"id": 1, "life": 2, "x": 3}), rec)
    opened = parse_type("{id: Int, a}")  # a row variable: the value's other fields
    assert conform(v({"id": 1, "x": "y"}), opened) == ("Rec", (("id", ("Int",)), ("x", ("Str",))))
    meta = parse_type("Str -> Str")  # the empty function is also the empty sequence
    assert conform(v(()), meta) == meta and conform(frozenset(), parse_type("Set(Int)"))
    with pytest.raises(UserError, match=r"p\[2\] is \"x\", a string, not Int"):
        conform(v([1, "x"]), parse_type("Seq(Int)"), "p")


def test_one_shape_per_variable_across_a_trace() -> None:
    book = TypeBook({"ids": parse_type("Set(Int)")})
    book.observe("ids", frozenset(), 2, "variable ids")
    book.observe("ids", frozenset({1}), 3, "variable ids")
    with pytest.raises(UserError, match=r"line 4: an element of variable ids is \"x\", a string, "
                       r"not Int \(its @type annotation\)"):  # fmt: skip
        book.observe("ids", frozenset({"x"}), 4, "variable ids")
    book.observe("meta", from_python({"label": "Ward"}), 2, "variable meta")
    with pytest.raises(UserError, match=r"line 7: variable meta has the shape Int here but .* at "
                       r"line 2"):  # fmt: skip
        book.observe("meta", 3, 7, "variable meta")


def test_a_trace_whose_shape_varies_is_an_error_naming_both_lines(
    fake: FakeApalache, tmp_path: Path
) -> None:
    path = write(tmp_path / "v.trace.jsonl", [inc(1, st(1, a=1)), inc(1, st(2, a=2), who="b")])
    # a tally that is a record of another shape in the second state
    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace('"tally": {"a": 2, "b": 0}', '"tally": {"a": 2, "b": "x"}')
    path.write_text("\n".join(lines) + "\n")
    result = replay(path)
    assert result.verdict == "error" and not result.undecided
    assert result.failure is not None
    assert "line 4: variable tally has the shape" in result.failure.reason
    assert "at line 2" in result.failure.reason and fake.methods() == []


# ---------------------------------------------------------------- the bundle


def test_the_bundle_is_typable() -> None:
    spec = module_spec(PROJECT / "spec", "ZoneMembership", "2", {})
    mod = EmbeddedBackend().load(spec)
    bundle = read_bundle(spec, {"Move", "Partition"}, mod.constant)
    assert bundle.folded == ("ZoneInstances4",)
    assert {"SeatZones4", "SharedZones4", "SeatZone4"} <= set(bundle.left_out)
    zones = next(t for t in bundle.texts if "MODULE Zones4" in t)
    original = (PROJECT / "spec/reference-profile/rev2/Zones4.tla").read_text()
    assert len(zones.split("\n")) == len(original.split("\n"))  # Apalache's lines are ours
    assert [ln for ln in zones.split("\n") if "\\o" in ln.split("\\*")[0]] == []
    assert '\\* @type: Set(Str);\nZoneInstances4 == {"Bank", "Play",' in zones
    assert "ZonePartition4(inGameIds, occupants) ==" in zones  # verbatim text stays verbatim


def test_sequences_built_as_functions_are_sent_as_mkseq() -> None:
    text = ("---- MODULE S ----\nEXTENDS Sequences\n"
            "Rev(s) == [i \\in 1..Len(s) |-> s[Len(s) - i + 1]]\n"
            "Pairs(S, n) == {t \\in [1..n -> S] : t[1] # 0}\n"
            "Nested(n) == [i \\in 1..n |->\n    [j \\in 1..i |-> j]]\n"
            "Fn(S) == [x \\in S |-> 1]\n====\n")  # fmt: skip
    tree = parse_module(text, "S.tla")
    units = list(tree.definitions().values())
    out, count = as_sequences(text, units)
    assert count == 4 and len(out.split("\n")) == len(text.split("\n"))
    lines = out.split("\n")
    assert lines[2] == ("Rev(s) == SubSeq(MkSeq(__ApalacheSeqCapacity(s), "
                        "LAMBDA i: s[Len(s) - i + 1]), 1, Len(s))")
    # a set of functions, which Apalache cannot expand, is n times S folded with Append
    assert lines[3] == ("Pairs(S, n) == {t \\in (LET tlaconf_ext1(tlaconf_acc, tlaconf_set) == "
                        "{Append(tlaconf_t, tlaconf_x) : tlaconf_t \\in tlaconf_acc, "
                        "tlaconf_x \\in tlaconf_set} IN ApaFoldSeqLeft(tlaconf_ext1, {<<>>}, "
                        "MkSeq(n, LAMBDA tlaconf_k: IF tlaconf_k > 0 THEN S ELSE {}))) : t[1] # 0}")
    assert lines[4:6] == ["Nested(n) == MkSeq(n, LAMBDA i: ", "    MkSeq(i, LAMBDA j: j + 0))"]
    assert lines[6] == "Fn(S) == [x \\in S |-> 1]"  # a function on another domain stays
    parse_module(out, "S.tla")  # still TLA+
    assert as_sequences(text, units[:1])[1] == 1  # only the definitions sent


def test_ranges_up_to_a_length_are_sent_as_domains() -> None:
    """Apalache needs constant range bounds ("Expected a constant integer range in [ .. ],
    found 1..Len(frames)"): 1..Len(s) is sent as DOMAIN s, the same set."""
    text = ("---- MODULE R ----\nEXTENDS Sequences\n"
            "All(s) == \\A i \\in 1..Len(s) : s[i] > 0\n"
            "Some(r) == \\E i \\in 1..Len(r.frames) : i > 1\n"
            "Below(s) == \\A i \\in 1..Len(s) - 1 : s[i] < s[i + 1]\n"
            "Rev(s) == [i \\in 1..Len(s) |-> s[Len(s) - i + 1]]\n"
            "Up(S) == [i \\in 1..Cardinality(S) |-> i]\n====\n")  # fmt: skip
    tree = parse_module(text, "R.tla")
    out, count = as_sequences(text, list(tree.definitions().values()))
    lines = out.split("\n")
    assert lines[2] == "All(s) == \\A i \\in (DOMAIN (s)) : s[i] > 0"
    assert lines[3] == "Some(r) == \\E i \\in (DOMAIN (r.frames)) : i > 1"
    assert lines[4] == "Below(s) == \\A i \\in ((DOMAIN (s)) \\ {Len(s)}) : s[i] < s[i + 1]"
    assert lines[5] == ("Rev(s) == SubSeq(MkSeq(__ApalacheSeqCapacity(s), "
                        "LAMBDA i: s[Len(s) - i + 1]), 1, Len(s))")
    assert lines[6] == ("Up(S) == (LET tlaconf_append(tlaconf_a, tlaconf_e) == "
                        "Append(tlaconf_a, tlaconf_e) IN SubSeq(MkSeq(__ApalacheSeqCapacity("
                        "ApaFoldSet(tlaconf_append, <<>>, S)), LAMBDA i: i + 0), 1, "
                        "Cardinality(S)))")
    assert count == 2  # two MkSeq: the module must extend Apalache
    parse_module(out, "R.tla")


def test_a_module_with_a_capacity_extends_apalaches_modules() -> None:
    """ResponseWindows' Unwind (a reversal up to Len) is sent up to the capacity of its
    sequence, and the module extends Apalache and __apalache_internal, on the same lines."""
    spec = module_spec(PROJECT / "spec", "ResponseWindow", "2", {"SeatOrder": ("A", "B")})
    mod = EmbeddedBackend().load(spec)
    bundle = read_bundle(spec, {"Pass"}, mod.constant)
    windows = next(t for t in bundle.texts if "MODULE ResponseWindows" in t)
    assert "EXTENDS Apalache, __apalache_internal, Naturals, Sequences" in windows
    assert ("Unwind(responses) == SubSeq(MkSeq(__ApalacheSeqCapacity(responses), "
            "LAMBDA i: responses[Len(responses) + 1 - i]), 1, Len(responses))") in windows
    original = (PROJECT / "spec/reference-profile/rev2/ResponseWindows.tla").read_text()
    assert len(windows.split("\n")) == len(original.split("\n"))
    assert _extend_apalache("---- MODULE X ----\nX == 1", ()) == (
        "---- MODULE X ---- EXTENDS Apalache, __apalache_internal\nX == 1")
    assert _extend_apalache("EXTENDS Apalache, Sequences", ("Apalache", "Sequences")) == (
        "EXTENDS __apalache_internal, Apalache, Sequences")


def test_actions_are_annotated_from_the_params_of_the_trace() -> None:
    spec = module_spec(PROJECT / "spec", "ZoneMembership", "2", {})
    mod = EmbeddedBackend().load(spec)
    params = infer(from_python({"id": 11, "source": "Play", "destination": "Bank",
                                "movementAuthorized": True, "revealRequired": False,
                                "revealedBeforeMove": False}), record=True)  # fmt: skip
    bundle = read_bundle(spec, {"Move", "Partition"}, mod.constant, {"Move": params})
    lines = bundle.texts[0].split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("Move(p) =="))
    assert lines[at - 1] == (
        "\\* @type: ({destination: Str, id: Int, movementAuthorized: Bool, revealRequired: Bool, "
        "revealedBeforeMove: Bool, source: Str}) => Bool;"
    )
    original = (PROJECT / "spec/conformance/ZoneMembership.tla").read_text()
    assert len(lines) == len(original.split("\n"))


def test_variable_annotations(tmp_path: Path) -> None:
    conf = tmp_path / "conformance"
    conf.mkdir()
    (tmp_path / "reference-profile" / "rev1").mkdir(parents=True)
    (conf / "W.tla").write_text(
        "---- MODULE W ----\nVARIABLES\n  \\* @type: Set(Str);\n  owners,\n  n\n"
        "\\* @typeAlias: pt = {x: Int};\nW_aliases == TRUE\n"
        "\\* @type: ($pt) => Bool;\nA(p) == p.x > 0\n====\n"
    )
    typing = read_types(module_spec(tmp_path, "W", "1", {}))
    assert typing.of("W") == {"owners": ("Set", ("Str",)),
                              "A": ("Oper", (("Rec", (("x", ("Int",)),)),), ("Bool",))}
    assert typing.holders == {"W_aliases"}
    text = (conf / "W.tla").read_text()
    for old, new, why in [("($pt) => Bool", "($pt, Int) => Bool", r"W.tla, line 8: A has 1 "
                           r"parameter\(s\) but its @type annotation \(\$pt, Int\) => Bool has 2"),
                          ("($pt)", "($point)", "line 8: the @type annotation of A: no @typeAlias"),
                          ("Set(Str)", "Set(Str", r"line 3: the @type annotation of owners")]:
        (conf / "W.tla").write_text(text.replace(old, new))
        with pytest.raises(UserError, match=why):
            read_types(module_spec(tmp_path, "W", "1", {}))


# ---------------------------------------------------------------- verdicts


CASES = {
    "conforms": ([inc(2, st(2, a=2)), ("Reset", {"atLeast": 5}, "rejected", st(2, a=2)),
                  inc(3, st(5, a=5)), ("Reset", {"atLeast": 5}, "accepted", st(0))],
                 ("conforms", None)),
    "wrong-effect": ([inc(1, st(1, a=1)), inc(2, st(4, a=4))], ("violation", 2)),
    "first-step-wrong": ([inc(1, st(2, a=2))], ("violation", 1)),
    "rejected-enabled": ([inc(1, st(1, a=1)), inc(1, st(1, a=1), "rejected")],
                         ("violation", 2)),
    "rejected-changed": ([("Reset", {"atLeast": 9}, "rejected", st(1))], ("violation", 1)),
    "invariant": ([inc(6, st(6, a=6)), inc(6, st(12, a=12))], ("violation", 2)),
    "unlabeled": ([inc(1, st(1, a=1)), (None, None, "accepted", st(2, a=2)),
                   (None, None, "rejected", st(2, a=2)), (None, None, "accepted", st(5, a=2))],
                  ("violation", 4)),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_checker_gives_the_embedded_verdict(
    fake: FakeApalache, tmp_path: Path, name: str
) -> None:
    steps, expected = CASES[name]
    path = write(tmp_path / f"{name}.trace.jsonl", steps)
    ours = replay_trace(path, SPEC, EmbeddedBackend())
    theirs = replay(path)
    assert (ours.verdict, ours.failure and ours.failure.step) == expected
    assert (theirs.verdict, theirs.failure and theirs.failure.step) == expected
    assert (theirs.failure and theirs.failure.blame) == (ours.failure and ours.failure.blame)
    # one session per trace, disposed; an ACTION invariant (a step's TlaconfA<k>) is only
    # asked right after the step's transition, never right after Init (the server answers
    # SATISFIED there without solving), one per accepted step with an action label reached
    methods = fake.methods()
    assert methods.count("loadSpec") == 1 and methods[-1] == "disposeSpec"
    asked = [(m, p.get("kind")) for m, p in fake.requests
             if m in ("assumeTransition", "checkInvariant", "nextStep")]  # fmt: skip
    for i, (_, kind) in enumerate(asked):
        if kind == "ACTION":
            assert asked[i - 1][0] in ("assumeTransition", "checkInvariant")
            assert asked[: i].count(("nextStep", None)) >= 2
    reached = sum(1 for s in steps[: theirs.failure.step if theirs.failure else None]
                  if s[2] == "accepted" and s[0] is not None)  # fmt: skip (Next: a transition)
    assert asked.count(("checkInvariant", "ACTION")) >= reached
    cross = replay(path, cross=True)
    assert not cross.undecided and cross.verdict == expected[0]


def test_an_initial_state_breaking_an_invariant(fake: FakeApalache, tmp_path: Path) -> None:
    path = write(tmp_path / "i.trace.jsonl", [inc(1, st(12, a=12))], initial=st(11, a=11))
    result = replay(path)
    assert result.verdict == "violation" and result.failure is not None
    assert result.failure.step == 0 and "Bounded" in result.failure.reason


def test_the_fake_answers_an_action_invariant_at_step_1_like_the_real_server(
    fake: FakeApalache, tmp_path: Path
) -> None:
    """Why tlaconf never asks that question: the answer is SATISFIED without solving."""
    root = ("---- MODULE R ----\nEXTENDS Integers\nVARIABLES\n  \\* @type: Int;\n  x\n"
            "TlaconfInit == x = 0\n\nTlaconfNext ==\n  \\/ A:: (x' = 5)\n\n"
            "NotT == ~(x' = 5)\n====\n")  # fmt: skip
    ask = fake.answer
    sid = ask("loadSpec", {"sources": [base64.b64encode(root.encode()).decode()],
                           "invariants": ["NotT"]})["sessionId"]  # fmt: skip
    assert ask("assumeTransition", {"sessionId": sid, "transitionId": 0, "checkEnabled": True})[
        "status"] == "ENABLED"  # fmt: skip
    ask("nextStep", {"sessionId": sid})
    ask("assumeTransition", {"sessionId": sid, "transitionId": 0, "checkEnabled": True})
    answer = ask("checkInvariant", {"sessionId": sid, "invariantId": 0, "kind": "ACTION"})
    assert answer["invariantStatus"] == "SATISFIED"  # although x' = 5 is reachable


def _spec_folder(tmp_path: Path) -> Path:
    """An empty spec folder of a project: ``conformance/`` and revision 1 of the profile."""
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    return spec


def test_a_type_checker_error_is_a_spec_error(fake: FakeApalache, tmp_path: Path) -> None:
    spec = _spec_folder(tmp_path)
    (spec / "conformance" / "Named.tla").write_text(
        "---- MODULE Named ----\nEXTENDS Integers, Sequences\nVARIABLES name\n"
        'Rename(p) == name\' = p.first \\o "."\n====\n'
    )
    path = tmp_path / "n.trace.jsonl"
    with TraceWriter(path, "Named", "1", {}) as w:
        w.init({"name": "a"})
        w.step("Rename", {"first": "b"}, "accepted", {"name": "b."})
    result = replay(path, spec)
    assert result.verdict == "error" and not result.undecided and result.failure is not None
    assert "TypeCheckerSnowcat" in result.failure.reason and "Named.tla:4:" in result.failure.reason


def test_an_unannotated_applied_parameter_is_refused_like_snowcat(
    fake: FakeApalache, tmp_path: Path
) -> None:
    spec = _spec_folder(tmp_path)
    module = spec / "conformance" / "Tally.tla"
    text = ("---- MODULE Tally ----\nEXTENDS Integers\nVARIABLES n\n"
            "Amount(d) == d.by\n"
            "Inc(p) == n' = n + Amount(p)\n====\n")  # fmt: skip
    module.write_text(text)
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Tally", "1", {}) as w:
        w.init({"n": 0})
        w.step("Inc", {"by": 2}, "accepted", {"n": 2})
    result = replay(path, spec)
    assert result.verdict == "error" and not result.undecided and result.failure is not None
    assert ('["Tally.tla:4:14-4:17", "Cannot apply d to the argument \\"by\\" in d[\\"by\\"]."]'
            in result.failure.reason)  # fmt: skip
    assert '"Error when computing the type of Amount"' in result.failure.reason
    module.write_text(text.replace("Amount(d) ==", "\\* @type: ({by: Int}) => Int;\nAmount(d) =="))
    assert replay(path, spec).verdict == "conforms"


UNSUPPORTED = re.compile(r'\\in\s+Seq\(|\bTLC(?:Get|Set)\b|\bToString\b|\bRECURSIVE\b|'
                         r'"\s*\\o\b|\\o\s*"')
"""Seq(S) as a set, TLCGet/TLCSet, ToString, recursion (needs UNROLL), string concatenation."""


def test_golden_bundles_are_typable() -> None:
    """What the bundle sends for each golden trace: every definition that applies a
    parameter has a @type annotation, every annotation parses and agrees with its
    definition's arity, and every variable's and params' values fit their annotations."""
    spec_dir = PROJECT / "spec"
    embedded = EmbeddedBackend()
    seen: dict[str, set[str]] = {}
    constants: dict[str, dict[str, Any]] = {}
    for path in golden_traces(PROJECT / "traces"):
        if is_partial(path):  # replayed by the candidate-set search, never bundled
            continue
        with open_trace(path) as t:
            module, labels = t.header.module, {s.action or "Next" for s in t.steps()}
            constants.setdefault(module, dict(t.header.constants))
        seen.setdefault(module, set()).update(labels)
    problems = []
    for module, labels in sorted(seen.items()):
        spec = module_spec(spec_dir, module, "2", constants[module])
        loaded = embedded.load(spec)
        typing = read_types(spec)  # parses every annotation, checks arities
        bundle = read_bundle(spec, labels | set(spec.invariants), loaded.constant, None, typing)
        for text in bundle.texts:
            name = text.split("MODULE", 1)[1].split()[0]
            for unit, params in untyped(parse_module(text, name), text, name):
                problems.append(f"{name}.tla:{unit.span.line} {unit.name}: {params}")
            for n, line in enumerate(text.split("\n"), start=1):
                code = line.split("\\*", 1)[0]
                for bad in UNSUPPORTED.findall(code):  # what Apalache lacks altogether
                    problems.append(f"{name}.tla:{n}: {bad.strip()}")
        typed = {v for v in loaded.variables if typing.of(module).get(v) is not None}
        assert typed == set(loaded.variables), module
        for c in spec.constants:
            assert any(c in m for m in typing.modules.values()), (module, c)
    assert problems == []
    for path in golden_traces(PROJECT / "traces"):  # values fit the annotations
        if is_partial(path):
            continue
        with open_trace(path) as t:
            module = t.header.module
        spec = module_spec(spec_dir, module, "2", constants[module])
        notes = read_types(spec).of(module)
        trace_types(path, tuple(embedded.load(spec).variables), notes)


def test_unknown_is_exit_3_naming_the_step(fake: FakeApalache, tmp_path: Path) -> None:
    fake.unknown = {("assumeTransition", "TlaconfS2")}
    path = write(tmp_path / "u.trace.jsonl", [inc(1, st(1, a=1)), inc(1, st(2, a=2))])
    r = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "--backend", "apalache",
         "--spec", str(SPEC), str(path)], capture_output=True, text=True,
    )  # fmt: skip
    assert r.returncode == 3, r.stderr
    failure = json.loads(r.stdout)["traces"][0]["failure"]
    assert "Apalache answered UNKNOWN while deciding step 2 (Inc)" in failure["reason"]


def test_without_apalache_the_error_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for var in ("APALACHE_SERVER", "APALACHE_MC", "APALACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(UserError, match=r"apalache-mc not found.*installation"):
        get_checker("apalache")
    monkeypatch.setenv("APALACHE_MC", str(tmp_path / "nope"))
    with pytest.raises(UserError, match="is not an executable file"):
        get_checker("apalache")
    monkeypatch.delenv("APALACHE_MC")
    monkeypatch.setenv("APALACHE_SERVER", "ftp://x")
    with pytest.raises(UserError, match="is not a server URL: expected http://host:port"):
        get_checker("apalache")
    path = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    env = {k: v for k, v in os.environ.items() if not k.startswith("APALACHE")}
    r = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--backend", "apalache", "--spec",
         str(SPEC), str(path)], capture_output=True, text=True, env={**env, "PATH": str(tmp_path)},
    )  # fmt: skip
    assert r.returncode == 2 and "apalache-mc not found" in r.stderr
    assert "Traceback" not in r.stderr


def test_its_own_server_runs_in_a_private_folder_and_is_stopped(tmp_path: Path) -> None:
    script = tmp_path / "apalache-mc"
    script.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.path.insert(0, {str(HERE)!r})\n"
                      f"runpy.run_path({str(HERE / 'fake_apalache.py')!r}, run_name='__main__')\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "cwd.txt"
    path = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    env = {k: v for k, v in os.environ.items() if not k.startswith("APALACHE")}
    env.update(APALACHE_MC=str(script), FAKE_APALACHE_LOG=str(log),
               PYTHONPATH=os.pathsep.join([str(PROJECT), *sys.path]))  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "--backend", "apalache",
         "--spec", str(SPEC), str(path)], capture_output=True, text=True, env=env, cwd=work,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    server_cwd = Path(json.loads(log.read_text())["cwd"])
    assert server_cwd != work and server_cwd.name.startswith("tlaconf-apalache-")
    assert not server_cwd.exists()  # removed with the stopped server
    assert list(work.iterdir()) == []


def test_an_unreachable_server_is_exit_3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("APALACHE_SERVER", f"http://127.0.0.1:{port}")
    result = replay(write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))]))
    assert result.undecided and result.failure is not None
    assert "cannot reach the Apalache server" in result.failure.reason


def _two_per_module() -> list[Path]:
    """Two golden traces of each conformance module (the whole corpus takes too long here)."""
    chosen: dict[str, list[Path]] = {}
    for path in golden_traces(PROJECT / "traces"):
        with open_trace(path) as t:
            module = t.header.module
        if len(chosen.setdefault(module, [])) < 2:
            chosen[module].append(path)
    return [p for paths in chosen.values() for p in paths]


def test_golden_traces_through_the_fake_server(fake: FakeApalache) -> None:
    """Golden traces of every conformance module: the module bundle loads (typable by the
    fake's rules), and the checker's verdict and failing step are the embedded evaluator's."""
    embedded = EmbeddedBackend()
    checker = get_checker("apalache")
    spec = PROJECT / "spec"
    differ = []
    chosen = _two_per_module()
    for path in chosen:
        ours = replay_trace(path, spec, embedded)
        theirs = replay_trace(path, spec, embedded, checker=checker)
        if ours.module == "Observation" and theirs.verdict == "error":
            # Observation's views carry `listed` in some zones only: no one record type
            # (README, External checkers); the backend says so, naming the line
            assert theirs.failure is not None
            assert "without the field listed" in theirs.failure.reason
            continue
        a = (ours.verdict, ours.failure and ours.failure.step)
        b = (theirs.verdict, theirs.failure and theirs.failure.step)
        if a != b:
            differ.append((relative_key(PROJECT / "traces", path), a, b,
                           theirs.failure and theirs.failure.reason))  # fmt: skip
    assert differ == [] and len(chosen) >= 18


def _counter_spec(tmp_path: Path, invariants: str, cfg: str) -> Path:
    """A copy of the Counter spec with more invariants."""
    spec = _spec_folder(tmp_path)
    text = (SPEC / "conformance" / "Counter.tla").read_text()
    (spec / "conformance" / "Counter.tla").write_text(text.replace("\n====", invariants + "\n===="))
    (spec / "conformance" / "Counter.cfg").write_text(cfg)
    ops = SPEC / "reference-profile" / "rev1" / "CounterOps.tla"
    (spec / "reference-profile" / "rev1" / "CounterOps.tla").write_text(ops.read_text())
    return spec


def test_each_conjunct_of_an_invariant_is_asked(fake: FakeApalache, tmp_path: Path) -> None:
    """Apalache splits an invariant into its conjuncts (the fake: 2 and 1, interleaved);
    the labels say whose conjuncts they are, and a violated second conjunct is found."""
    spec = _counter_spec(tmp_path, "\nBoth ==\n    /\\ count >= 0\n    /\\ count # 3\n",
                         "INVARIANT\n    Both\n    Bounded\nCONSTANT Limit = 10\n")  # fmt: skip
    path = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1)), inc(2, st(3, a=3))])
    result = replay(path, spec)
    assert result.verdict == "violation" and result.failure is not None
    assert result.failure.step == 2 and "Both" in result.failure.reason
    loaded = fake.requests[[m for m, _ in fake.requests].index("loadSpec")][1]
    # the invariants, then each accepted step's check (an ACTION invariant)
    assert loaded["invariants"] == ["TlaconfInv0", "TlaconfInv1", "TlaconfA1Q", "TlaconfA2Q"]
    assert "TlaconfInv0 == TlaconfI0:: (Both)" in fake.root()
    # the params: an annotated definition (Snowcat types them from it, row variables,
    # tuples and empty sets included), the step's check applies the action to it
    assert ('\\* @type: {by: Int, who: Str};\nTlaconfP2 == [by |-> 2, who |-> "a"]'
            in fake.root())
    assert "TlaconfA2Q == TlaconfA2:: (Inc(TlaconfP2))" in fake.root()
    asked = [p["invariantId"] for m, p in fake.requests
             if m == "checkInvariant" and p["kind"] == "STATE"]  # fmt: skip
    assert sorted(set(asked)) == [0, 1, 2]  # 3 conjuncts in all


def test_an_invariant_with_primes_is_refused(fake: FakeApalache, tmp_path: Path) -> None:
    """The explorer answers an ACTION invariant at step 1 SATISFIED without solving: never used."""
    spec = _counter_spec(tmp_path, "\nGrows == count' >= count\n",
                         "INVARIANT\n    Grows\nCONSTANT Limit = 10\n")  # fmt: skip
    result = replay(write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))]), spec)
    assert result.verdict == "error" and not result.undecided and result.failure is not None
    assert "invariant Grows is an action (it has primes)" in result.failure.reason
    assert "checkInvariant" not in fake.methods()


def test_a_step_checked_after_nextstep_is_an_error(fake: FakeApalache, tmp_path: Path) -> None:
    """The real server solves an ACTION invariant only between assumeTransition and nextStep
    (after nextStep: ``SubstRule: Variable x' is not assigned a value``); the fake says so."""
    assert replay(write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])).verdict == "conforms"
    loaded = fake.requests[[m for m, _ in fake.requests].index("loadSpec")][1]
    texts = tuple(base64.b64decode(s).decode() for s in loaded["sources"])
    client = Client(fake.url, 30)
    parameters = client.load(texts, loaded["invariants"])
    client.status("assumeTransition", "init", transitionId=0, checkEnabled=True)
    client.step("init")
    for label in ("TlaconfS0", "TlaconfS1"):
        index = next(t["index"] for t in parameters["nextTransitions"] if label in t["labels"])
        assert client.status("assumeTransition", label, transitionId=index,
                             checkEnabled=True) == "ENABLED"  # fmt: skip
        client.step(label)
    with pytest.raises(CheckerFailed, match="is not assigned a value"):
        client.status("checkInvariant", "too late", invariantId=0, kind="ACTION")


def test_a_left_out_definitions_annotation_goes_with_it(fake: FakeApalache, tmp_path: Path) -> None:
    """Snowcat gives every @type of a comment block to the declaration after it: an annotation
    above another comment line goes with its left-out definition, else Apalache refuses."""
    spec = _counter_spec(tmp_path, "\n\\* @type: (Int) => Int;\n\\* not used by any check\n"
                         "Twice(n) == 2 * n\n\\* @type: (Int) => Int;\nThrice(n) == 3 * n\n",
                         "INVARIANT\n    Bounded\nCONSTANT Limit = 10\n")  # fmt: skip
    result = replay(write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))]), spec)
    assert result.verdict == "conforms", result.failure
    sent = fake.sources[list(fake.sources)[-1]][1]
    assert "@type: (Int) => Int;" not in sent and "Twice" not in sent


def test_crowded_annotations_are_a_spec_error(fake: FakeApalache, tmp_path: Path) -> None:
    """Two @type before one declaration: the real server's message, exit 2 (not undecided)."""
    spec = _counter_spec(tmp_path, "\n\\* @type: Int;\n\\* @type: Int;\nCountAgain == count\n"
                         "Same == CountAgain = count\n",
                         "INVARIANT\n    Same\nCONSTANT Limit = 10\n")  # fmt: skip
    result = replay(write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))]), spec)
    assert result.verdict == "error" and not result.undecided and result.failure is not None
    assert "Found 2 @type annotations in front of some declaration" in result.failure.reason


def test_a_model_checker_refusal_is_undecided_naming_the_step(
    fake: FakeApalache, tmp_path: Path
) -> None:
    """What the real server answers for what its model checker cannot encode (an internal
    error, -32603): the trace is undecided, naming the step, the question and Apalache's words."""
    fake.errors[("assumeTransition", "TlaconfS2")] = (
        "Expected a constant integer expression. Found: Len(lists[src$1()])")
    path = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1)), inc(1, st(2, a=2))])
    result = replay(path)
    assert result.verdict == "error" and result.undecided and result.failure is not None
    assert result.failure.step == 2
    assert ("apalache could not decide: Apalache, assumeTransition while deciding step 2 (Inc): "
            "Internal error: Expected a constant integer expression. Found: Len(lists[src$1()])"
            ) in result.failure.reason  # fmt: skip
    fake.errors = {("checkInvariant", "TlaconfInv0"): "Trying to expand a set of functions. "
                   "This will blow up the solver."}  # fmt: skip
    result = replay(path)
    assert result.undecided and result.failure is not None
    assert "while checking invariant Bounded in the initial state" in result.failure.reason
    assert "Trying to expand a set of functions" in result.failure.reason


def test_the_docs_name_every_trace_apalache_cannot_decide() -> None:
    """tests/checkers/apalache-limits.json (what `make test-apalache` accepts instead of an
    agreement) and the docs' list of those traces are the same traces."""
    limits = json.loads((PROJECT / "tests" / "checkers" / "apalache-limits.json").read_text())
    docs = (PROJECT / "docs" / "checkers.md").read_text()
    missing = [t for t in limits if Path(t).name.removesuffix(".trace.jsonl") not in docs]
    assert missing == []
    traces = {relative_key(PROJECT / "traces", p) for p in golden_traces(PROJECT / "traces")}
    assert set(limits) <= traces  # no stale entries


def test_params_with_an_empty_collection_are_an_annotated_definition(
    fake: FakeApalache, tmp_path: Path
) -> None:
    """An action whose @type has a row variable, applied to params holding an empty set:
    the real server refuses the literal (its element type stays open, "Unexpected
    expressions in the specification"); tlaconf sends those params as an annotated
    definition, and the trace is decided."""
    spec = _spec_folder(tmp_path)
    (spec / "conformance" / "Tags.tla").write_text(
        "---- MODULE Tags ----\nEXTENDS Naturals, FiniteSets\n"
        "VARIABLE\n  \\* @type: Set(Str);\n  tags\n"
        "\\* @type: ({add: Set(Str), a}) => Bool;\nAdd(p) == tags' = tags \\cup p.add\n"
        "Small == Cardinality(tags) < 3\n====\n")  # fmt: skip
    (spec / "conformance" / "Tags.cfg").write_text("INVARIANT Small\n")
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Tags", "1", {}) as w:
        w.init({"tags": frozenset()})
        w.step("Add", {"add": frozenset(), "who": "a"}, "accepted", {"tags": frozenset()})
        w.step("Add", {"add": frozenset({"x"}), "who": "b"}, "accepted", {"tags": {"x"}})
    result = replay(path, spec)
    assert result.verdict == "conforms", result.failure
    assert '\\* @type: {add: Set(Str), who: Str};\nTlaconfP1 == [add |-> {}, who |-> "a"]' in (
        fake.root())  # fmt: skip
    assert "TlaconfA1Q == TlaconfA1:: (Add(TlaconfP1))" in fake.root()
    root = fake.root().replace("Add(TlaconfP1)", 'Add([add |-> {}, who |-> "a"])')
    with pytest.raises(CheckerFailed, match="Unexpected expressions in the specification"):
        Client(fake.url, 30).load((root, *fake.sources[list(fake.sources)[-1]][1:]), [])


def test_a_step_checked_against_next_pins_every_variable(
    fake: FakeApalache, tmp_path: Path
) -> None:
    """``Next`` assigns the next state first: an ``UNCHANGED`` after it is a second
    assignment to the real server ("Manual assignment is spurious"), so each variable is
    pinned with ``=``, a check there."""
    reset = (None, None, "accepted", st(0))  # a Reset; the second one changes nothing
    path = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1)), reset, reset])
    assert replay(path).verdict == "conforms"
    root = fake.root()
    assert ("TlaconfS3Q == tlaconf_k = 2 /\\ tlaconf_k' = 3 /\\ Next /\\ count' = 0 /\\ "
            'tally\' = SetAsFun({<<"a", 0>>, <<"b", 0>>})\n') in root  # fmt: skip
    old = root.replace("Next /\\ count' = 0 /\\ tally' = ", "Next /\\ count' = 0 /\\ "
                       "UNCHANGED <<tally>> /\\ tally' = ")  # fmt: skip
    with pytest.raises(CheckerFailed, match="Manual assignment is spurious, tally is already"):
        Client(fake.url, 30).load((old, *fake.sources[list(fake.sources)[-1]][1:]), [])


def test_a_step_pins_only_what_it_changes(fake: FakeApalache, tmp_path: Path) -> None:
    """The state before a step is pinned already: a variable the step leaves as it was is
    UNCHANGED (the same constraint, less to type and encode), a changed one pinned; a
    rejected step keeps every variable, and one that changed a variable is a violation."""
    path = write(tmp_path / "t.trace.jsonl", [("Reset", {"atLeast": 0}, "accepted", st(0)),
                                              inc(2, st(2, a=2))])  # fmt: skip
    assert replay(path).verdict == "conforms"
    root = fake.root()
    assert "TlaconfS1Q == tlaconf_k = 0 /\\ tlaconf_k' = 1 /\\ UNCHANGED <<count, tally>>\n" in root
    assert ("TlaconfS2Q == tlaconf_k = 1 /\\ tlaconf_k' = 2 /\\ count' = 2 /\\ "
            'tally\' = SetAsFun({<<"a", 2>>, <<"b", 0>>})\n') in root  # fmt: skip
    path = write(tmp_path / "r.trace.jsonl", [("Reset", {"atLeast": 5}, "rejected", st(0, b=1))])
    result = replay(path)
    assert result.verdict == "violation" and result.failure is not None
    assert result.failure.step == 1
    assert ("TlaconfS1Q == tlaconf_k = 0 /\\ tlaconf_k' = 1 /\\ UNCHANGED <<count, tally>> /\\ "
            'tally\' = SetAsFun({<<"a", 0>>, <<"b", 1>>})\n') in fake.root()  # fmt: skip
