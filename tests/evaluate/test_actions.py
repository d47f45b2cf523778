"""Action level: primes, UNCHANGED, [A]_v, ENABLED (TLC-style), and the public API."""

from pathlib import Path

import pytest

from tests.evaluate.tlahelp import module
from tlaconf.evaluate import EvalError, load_module
from tlaconf.values import Fn, record

ACT = r"""---- MODULE Act ----
EXTENDS Naturals
VARIABLES x, y
Inc == x' = x + 1 /\ UNCHANGED y
Guarded == x < 3 /\ x' = x + 1 /\ y' = y
Pick == x' \in {1, 2, 3} /\ x' > 2 /\ UNCHANGED y
Either == \/ x' = 0 /\ y = 5 /\ UNCHANGED y
          \/ \E v \in {7, 8} : x' = v /\ y' = v
Box == [x' = x + 1 /\ UNCHANGED y]_<<x, y>>
Angle == <<x' = x /\ y' = y>>_<<x, y>>
ReadsFirst == x' > 2 /\ x' = 3 /\ UNCHANGED y
Partial == x' = 1
Call(d) == Inc /\ d > 0
IfAct == IF x > 0 THEN Inc ELSE x' = 0 /\ y' = 0
LetAct == LET n == x + 1 IN x' = n /\ y' = y
CaseAct == CASE x = 1 -> Inc [] OTHER -> FALSE
CanInc == ENABLED Guarded
Next == Guarded \/ Pick
NotInt == x + 1
====
"""


@pytest.fixture(scope="module")
def ctx():  # type: ignore[no-untyped-def]
    return module(ACT)


S = {"x": 1, "y": 2}


def test_primed_variables_come_from_the_next_state(ctx) -> None:  # type: ignore[no-untyped-def]
    assert ctx.variables == ("x", "y")
    assert ctx.holds("Inc", (), S, {"x": 2, "y": 2}) is True
    assert ctx.holds("Inc", (), S, {"x": 3, "y": 2}) is False
    assert ctx.holds("Inc", (), S, {"x": 2, "y": 5}) is False


def test_action_box(ctx) -> None:  # type: ignore[no-untyped-def]
    assert ctx.holds("Box", (), S, S) is True  # stuttering
    assert ctx.holds("Box", (), S, {"x": 2, "y": 2}) is True
    assert ctx.holds("Box", (), S, {"x": 1, "y": 9}) is False
    assert ctx.holds("Angle", (), S, S) is False


def test_enabled(ctx) -> None:  # type: ignore[no-untyped-def]
    for op in ("Inc", "Guarded", "Pick", "Either", "Box", "IfAct", "LetAct", "CaseAct"):
        assert ctx.enabled(op, (), S) is True, op
    assert ctx.enabled("Guarded", (), {"x": 5, "y": 0}) is False
    assert ctx.enabled("Either", (), {"x": 5, "y": 5}) is True
    assert ctx.enabled("Angle", (), S) is False
    assert ctx.enabled("Next", (), {"x": 5, "y": 0}) is True  # through Pick
    assert ctx.enabled("Call", (1,), S) is True
    assert ctx.enabled("Call", (0,), S) is False
    assert ctx.enabled("CaseAct", (), {"x": 2, "y": 0}) is False
    assert ctx.holds("CanInc", (), S) is True
    assert ctx.holds("CanInc", (), {"x": 3, "y": 0}) is False


def test_enabled_errors_name_the_primed_variable(ctx) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvalError, match="x' is read before the action assigns it"):
        ctx.enabled("ReadsFirst", (), S)
    with pytest.raises(EvalError, match="leaves y' unassigned"):
        ctx.enabled("Partial", (), S)


def test_api_errors(ctx) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvalError, match="no next state"):
        ctx.holds("Inc", (), S)
    with pytest.raises(EvalError, match="variable y is missing"):
        ctx.holds("Inc", (), {"x": 1}, {"x": 2})
    with pytest.raises(EvalError, match="not a boolean"):
        ctx.holds("NotInt", (), S)
    with pytest.raises(Exception, match="no operator Nope"):
        ctx.holds("Nope", (), S)
    assert ctx.operators["Call"].arity == 1
    assert ctx.operators["Call"].span.line == 13


def test_return_ability_seed() -> None:
    """ReturnAbility9 (seed 003) inside a conformance-style Return action."""
    m = load_module(Path(__file__).parent / "data" / "AbilityLifecycle.tla", [], {})
    s = {"instances": Fn({7: record(caller="SideA", complete=True, returned=False)})}
    n = {"instances": Fn({7: record(caller="SideA", complete=True, returned=True)})}
    ok = record(instance=7, actualFinalCheckpointAndChainsComplete=True, caller="SideA")
    wrong = record(instance=7, actualFinalCheckpointAndChainsComplete=True, caller="SideB")
    assert m.holds("Return", (ok,), s, n) is True
    assert m.enabled("Return", (ok,), s) is True
    assert m.holds("Return", (wrong,), s, n) is False
    assert m.enabled("Return", (wrong,), s) is False
    assert m.enabled("Return", (ok,), n) is False  # already returned
    blame = m.explain("Return", (wrong,), s, n).innermost()
    assert blame.text == "caller = before.caller"
    assert ("caller", '"SideB"') in blame.bindings


def test_enabled_passes_primed_arguments_by_name() -> None:
    """TLC substitutes operator arguments: ``Rel(x, x')`` with ``Rel(b, a) == a = b + 1``
    assigns ``x'``; ``Keep(v) == UNCHANGED v`` applied to ``y`` assigns ``y'``."""
    m = module("EXTENDS Naturals\nVARIABLES x, y\nRel(b, a) == a = b + 1 /\\ a < 5\n"
               "Keep(v) == UNCHANGED v\nStep == Rel(x, x') /\\ Keep(y)")
    assert m.enabled("Step", (), {"x": 1, "y": 0}) is True
    assert m.enabled("Step", (), {"x": 4, "y": 0}) is False
    assert m.holds("Step", (), {"x": 1, "y": 0}, {"x": 2, "y": 0}) is True


def test_repeated_enabled_and_explain_compile_nothing_new() -> None:
    """ENABLED and blame reuse their compiled snippets: memory stays flat over many steps."""
    m = module("EXTENDS Naturals\nVARIABLE x\n"
               "A(k) == LET F(v) == v + k  g[i \\in 1..2] == i IN x' = F(x) /\\ x' > g[2]")
    counts = []
    for i in range(30):
        m.enabled("A", (i % 3,), {"x": i})
        if not m.holds("A", (1,), {"x": 0}, {"x": 5}):
            m.explain("A", (1,), {"x": 0}, {"x": 5})
        counts.append((len(m.compiler.sources), len(m.compiler.spans)))
    assert counts[5] == counts[-1]
