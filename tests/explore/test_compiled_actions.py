"""Compiled actions find exactly the tree walk's successors (labels, order, errors): on
the explorer's test models, on modules written to reach each construct and each error,
and (with ``TLACONF_EXAMPLES``) on every tlaplus/Examples model TLC checks in 10 s."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.explore.differential import first_difference
from tlaconf.errors import UserError
from tlaconf.evaluate import EvalError
from tlaconf.explore import load_model

MODELS = Path(__file__).parent / "models"


@pytest.mark.parametrize("cfg", sorted(p.name for p in MODELS.glob("*.cfg")))
def test_the_test_models_have_the_tree_walks_successors(cfg: str) -> None:
    tla = MODELS / (cfg.split("_")[0].removesuffix(".cfg").removesuffix("Deadlock") + ".tla")
    assert first_difference(load_model(tla, MODELS / cfg), 3000) is None


EXAMPLES = os.environ.get("TLACONF_EXAMPLES", "")


@pytest.mark.skipif(not EXAMPLES, reason="set TLACONF_EXAMPLES to a tlaplus/Examples "
                                         "checkout (docs/explore.md)")
def test_the_examples_models_have_the_tree_walks_successors() -> None:
    from tests.examples.test_explore_examples import manifest_models

    root = Path(EXAMPLES)
    differ, checked = [], 0
    for module, cfg, _ in manifest_models(root):
        try:
            model = load_model(root / module, root / cfg, check_properties=False,
                               postconditions=True)
        except UserError:  # refused (exit 2): nothing is explored
            continue
        checked += 1
        why = first_difference(model, 200)
        if why is not None:
            differ.append(f"{cfg}: {why}")
    assert checked > 50
    assert not differ, "\n".join(differ)


CONSTRUCTS = r"""---- MODULE Constructs ----
EXTENDS Naturals, Sequences, FiniteSets
VARIABLES x, y, z
vars == <<x, y, z>>
Init == x = 0 /\ y = <<>> /\ z = {}
Set(v, e) == v = e
Bump(n) == x < 3 /\ x' = x + n
Push(i) == Len(y) < 2 /\ y' = Append(y, i)
Both(i) == Bump(1) /\ Push(i) /\ z' = z \cup {i}
Pairs == {<<1, "a">>, <<2, "b">>}
A1 == \E i \in 1..2 : Both(i)
A2 == \E <<n, s>> \in Pairs : /\ Bump(n) /\ Set(y', <<s>>) /\ UNCHANGED z
A3 == IF x > 1 THEN x' = 0 /\ UNCHANGED <<y, z>> ELSE FALSE
A4 == CASE x = 0 -> UNCHANGED vars [] x = 1 -> x' = 2 /\ y' = y /\ z' \in SUBSET {1, 2}
A5 == LET d == x + 1
          F(a) == a * 2
          g[k \in 0..2] == k + d
      IN /\ d < 3 /\ x' = F(x) + g[1] - g[1] /\ y' = y /\ z' = z
A6 == (x' = 1 \/ x' = 2) /\ (x' = 1 \/ y' = <<9>>) /\ y' \in {y, <<>>} /\ z' = z
A7 == [x' = x + 1 /\ x < 2 /\ UNCHANGED <<y, z>>]_vars
A8 == <<x' = x /\ y' = y /\ z' = z \cup {x}>>_vars
Next == A1 \/ A2 \/ A3 \/ A4 \/ A5 \/ A6 \/ (A7 /\ x < 1) \/ A8
===="""


def _differ(tmp_path: Path, text: str, cfg: str = "INIT Init\nNEXT Next\n",
            limit: int = 500) -> str | None:
    name = text.split("MODULE ")[1].split()[0]
    (tmp_path / f"{name}.tla").write_text(text)
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return first_difference(load_model(tmp_path / f"{name}.tla"), limit)


def test_each_construct_gives_the_tree_walks_successors(tmp_path: Path) -> None:
    assert _differ(tmp_path, CONSTRUCTS) is None


@pytest.mark.parametrize("action", [
    "x' = y' /\\ y' = 1",                     # a primed variable read before assigned
    "x' = 1",                                  # y left unassigned
    "x + 1 /\\ x' = 1 /\\ y' = 1",            # a guard that is not a boolean
    "CASE x = 5 -> x' = 1 /\\ y' = 1",        # no CASE arm
    "\\E i \\in Nat : x' = i /\\ y' = 1",     # an infinite domain
    "\\E <<a, b>> \\in {1} : x' = a /\\ y' = b",  # an element that is not a pair
])
def test_errors_are_the_tree_walks(tmp_path: Path, action: str) -> None:
    text = ("---- MODULE Bad ----\nEXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            f"Ok == x' = x /\\ y' = y\nA == {action}\nNext == Ok \\/ A\n====")
    (tmp_path / "Bad.tla").write_text(text)
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Next\n")
    model = load_model(tmp_path / "Bad.tla")
    assert first_difference(model, 5) is None
    with pytest.raises(EvalError) as err:
        model.successors({"x": 0, "y": 0})
    assert "Bad.tla:" in str(err.value)


def test_a_recursive_action_is_walked(tmp_path: Path) -> None:
    text = ("---- MODULE Rec ----\nEXTENDS Naturals\nVARIABLES x\nInit == x = 0\n"
            "RECURSIVE Down(_)\nDown(n) == IF n = 0 THEN x' = x + 1 ELSE Down(n - 1)\n"
            "Next == x < 3 /\\ Down(2)\n====")
    assert _differ(tmp_path, text) is None
    model = load_model(tmp_path / "Rec.tla")
    assert [t.state for t in model.successors({"x": 0})] == [{"x": 1}]
    assert [why for _, why in model._succ.fallbacks] == ["a recursive action"]


def test_an_action_called_with_arguments_has_the_tree_walks_successors() -> None:
    from tlaconf.explore.adapter import Successors
    from tlaconf.values import ModelValue

    model = load_model(MODELS / "Tokens.tla", MODELS / "Tokens.cfg")
    fast, walk = Successors(model.ctx), Successors(model.ctx, compiled=False)
    procs = [ModelValue(p) for p in ("p1", "p2", "p3")]
    states = [t.state for s in model.initial_states() for t in model.successors(s)]
    assert states
    found = 0
    for state in states:
        for p in procs:
            for q in procs:
                got = fast.action("Pass", (p, q), state)
                assert got == walk.action("Pass", (p, q), state)
                found += len(got)
        assert fast.action("Drop", (), state) == walk.action("Drop", (), state)
    assert found > 0
    with pytest.raises(EvalError) as err:  # the same error: a guard that is not a boolean
        fast.action("Pass", (1, 2), {**states[0], "holder": {1}})
    with pytest.raises(EvalError) as err2:
        walk.action("Pass", (1, 2), {**states[0], "holder": {1}})
    assert str(err.value) == str(err2.value)


def test_a_leaf_that_does_not_compile_fails_only_where_it_is_reached(tmp_path: Path) -> None:
    text = ("---- MODULE Lazy ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
            "Next == \\/ x > 1 /\\ x' = (x')' + 1\n        \\/ x < 2 /\\ x' = x + 1\n====")
    assert _differ(tmp_path, text) is None
    model = load_model(tmp_path / "Lazy.tla")
    assert [t.state for t in model.successors({"x": 0})] == [{"x": 1}]
    with pytest.raises(EvalError, match="primed again"):
        model.successors({"x": 2})
