"""The strict ``conjunct`` rule: an expectation equals one innermost failing leaf, or it fails.

Checked on the project's golden traces (real evaluator, real blame) and on a small
module with a disjunction and a CASE, for ``expected.json``/``verdicts.json`` (the gate's
:func:`~tlaconf.gate.golden.matches`) and, through it, the pytest fixture's ``conjunct=``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.gate.conjunct import conjunct_problem, leaves, normalize
from tlaconf.gate.golden import Expectation, matches
from tlaconf.replay import TraceResult, get_backend, replay_trace
from tlaconf.trace import TraceWriter

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "traces"


def _replay(path: Path, spec: Path = ROOT / "spec") -> TraceResult:
    return replay_trace(path, spec, get_backend("embedded"))


@pytest.fixture(scope="module")
def not_complete() -> TraceResult:
    """Return of an instance that is not complete: ReturnAbility9's ``before.complete``."""
    return _replay(TRACES / "abilities" / "return-not-complete.trace.jsonl")


def _expect(result: TraceResult, conjunct: str) -> str | None:
    assert result.failure is not None
    return matches(result, Expectation("violation", result.failure.step, conjunct))


def test_the_blamed_leaf_matches_whitespace_normalised(not_complete: TraceResult) -> None:
    assert _expect(not_complete, "before.complete") is None
    assert _expect(not_complete, "  before.complete\n") is None


@pytest.mark.parametrize(
    "conjunct",
    [
        "before . complete",  # spacing between tokens
        "/\\ before.complete",  # the line as it reads in the module, bullet included
        "before.complete  \\* a comment",
    ],
)
def test_the_blamed_leaf_matches_as_tokens(not_complete: TraceResult, conjunct: str) -> None:
    assert _expect(not_complete, conjunct) is None


def test_spelling_and_spacing_do_not_matter_but_tokens_do(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "conformance" / "Acct.tla").write_text(
        "---- MODULE Acct ----\nEXTENDS Integers\nVARIABLE bal\n"
        "Take(p) == /\\ p.n > 0\n           /\\ p.n <= bal\n           /\\ bal' = bal - p.n\n"
        "====\n"
    )
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Acct", "1") as w:
        w.init({"bal": 5})
        w.step("Take", {"n": 9}, "accepted", {"bal": -4})
    result = _replay(path, spec)
    for same in ["p.n<=bal", "p.n =< bal", "p.n \u2264 bal", "/\\ p.n <= bal"]:
        assert _expect(result, same) is None, same
    for other in ["p.n < bal", "p.n <= bal'", "p.n > 0", "bal >= p.n"]:
        problem = _expect(result, other)
        assert problem is not None and "'p.n <= bal'" in problem, other


@pytest.mark.parametrize(
    "conjunct",
    [
        "~before.returned",  # another conjunct of the same operator (TRUE here)
        "caller = before.caller",  # another conjunct of the same operator
        "ReturnAbility9(instances[p.instance], instances'[p.instance], "
        "p.actualFinalCheckpointAndChainsComplete, p.caller)",  # an ancestor: the call
        "Return(p)",  # the action itself
        "before",  # a part of the leaf's text
        "p",
        "nonsense that is not in the spec",
    ],
)
def test_anything_but_a_failing_leaf_fails(not_complete: TraceResult, conjunct: str) -> None:
    problem = _expect(not_complete, conjunct)
    assert problem is not None and "does not blame" in problem
    assert "'before.complete'" in problem  # the message lists what was blamed


def test_a_true_unchanged_conjunct_fails() -> None:
    result = _replay(TRACES / "zones" / "leaves-11-in-hand.trace.jsonl")
    problem = _expect(result, "UNCHANGED inGameIds")
    assert problem is not None and "does not blame 'UNCHANGED inGameIds'" in problem


@pytest.mark.parametrize(
    "name", ["zones/rejected-but-enabled", "zones/rejected-changed-state",
             "abilities/return-legal-refused"],
)  # fmt: skip
def test_a_failure_without_blame_fails_any_conjunct(name: str) -> None:
    result = _replay(TRACES / f"{name}.trace.jsonl")
    assert result.verdict == "violation" and result.failure is not None
    assert result.failure.blame is None
    assert matches(result, Expectation("violation", result.failure.step)) is None
    problem = _expect(result, "ENABLED Move(p)")
    assert problem is not None and "has no blame" in problem


def test_a_conforming_expectation_cannot_name_a_conjunct() -> None:
    from tlaconf.errors import UserError

    with pytest.raises(UserError, match="blames no conjunct"):
        Expectation.from_json({"verdict": "conforms", "conjunct": "x"}, "t")


MODULE = """---- MODULE Branches ----
EXTENDS Naturals
VARIABLE x
Either(p) ==
    /\\ p.go
    /\\ \\/ x' = x + 1
       \\/ x' = x + 2
Pick(p) ==
    CASE p.k = 1 -> x' = x + 10
      [] OTHER   -> x' = x + 20
====
"""


def _branch_result(tmp_path: Path, action: str, params: dict[str, object]) -> TraceResult:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    (spec / "conformance" / "Branches.tla").write_text(MODULE)
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Branches", "1", {}, {}) as w:
        w.init({"x": 0})
        w.step(action, params, "accepted", {"x": 7})
    return _replay(path, spec)


def test_each_failing_disjunct_is_a_leaf_the_disjunction_is_not(tmp_path: Path) -> None:
    result = _branch_result(tmp_path, "Either", {"go": True})
    assert result.verdict == "violation"
    assert _expect(result, "x' = x + 1") is None
    assert _expect(result, "x' = x + 2") is None
    assert _expect(result, "\\/ x' = x + 1 \\/ x' = x + 2") is not None
    assert _expect(result, "p.go") is not None  # TRUE conjunct


def test_the_case_arm_taken_is_the_leaf(tmp_path: Path) -> None:
    result = _branch_result(tmp_path, "Pick", {"k": 1})
    assert _expect(result, "x' = x + 10") is None
    assert _expect(result, "x' = x + 20") is not None  # the arm not taken
    assert _expect(result, "p.k = 1") is not None  # the guard (TRUE)


def test_leaves_are_in_tree_order(tmp_path: Path) -> None:
    result = _branch_result(tmp_path, "Either", {"go": True})
    assert result.failure is not None and result.failure.blame is not None
    assert [normalize(n.text) for n in leaves(result.failure.blame)] == [
        "x' = x + 1", "x' = x + 2"]  # fmt: skip
    assert conjunct_problem(None, "x") is not None
