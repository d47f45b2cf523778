"""The one generic traversal (tla/visit.py) and the one action dispatch (ActionVisitor)."""

from __future__ import annotations

import pytest

from tlaconf.evaluate.actionwalk import NO_CASE_ARM, ActionVisitor, taken_arm
from tlaconf.evaluate.fail import Fail
from tlaconf.tla import ast as A
from tlaconf.tla.parser import parse_expression
from tlaconf.tla.visit import children, free_names, iter_nodes, used_names


def names(e: A.Node) -> set[str]:
    return {n for n, m in free_names(e) if not m}


def test_children_in_field_order_without_span() -> None:
    e = parse_expression("IF a THEN b ELSE c")
    assert [n.name for n in children(e)] == ["a", "b", "c"]  # type: ignore[attr-defined]
    assert list(children(A.Num(1))) == []


def test_iter_nodes_is_preorder_and_prunes() -> None:
    e = parse_expression("f[x] + {y, z}")
    order = [n.name for n in iter_nodes(e) if isinstance(n, A.Name)]
    assert order == ["f", "x", "y", "z"]
    pruned = [n for n in iter_nodes(e, prune=lambda n: isinstance(n, A.SetEnum))]
    assert not any(isinstance(n, A.Name) and n.name in ("y", "z") for n in pruned)
    assert any(isinstance(n, A.SetEnum) for n in pruned)


def test_used_names_covers_operators_and_skips_qualified() -> None:
    e = parse_expression("Len(s) + M!x + y")
    assert set(used_names(e)) == {"Len", "s", "y", "+"}


@pytest.mark.parametrize(("text", "free"), [
    ("\\E x \\in S : x + y", {"S", "y", "+"}),
    ("{x \\in S : x > z}", {"S", "z", ">"}),
    ("{f(x) : x \\in S}", {"S", "f"}),
    ("[x \\in S |-> x]", {"S"}),
    ("CHOOSE x \\in S : x = w", {"S", "w", "="}),
    ("LET g(a) == a + b  h[i \\in D] == h[i] IN g(c) + h[1]", {"b", "c", "D", "+"}),
    ("\\A x \\in x : x", {"x"}),  # the domain is outside the binder
])
def test_free_names_respect_binders(text: str, free: set[str]) -> None:
    assert names(parse_expression(text)) == free


def test_free_names_extra_bound_and_qualified() -> None:
    e = parse_expression("M!x + x + y")
    assert free_names(e, {"x", "y"}) == {("x", ("M",)), ("+", ())}


@pytest.mark.parametrize("text", ["a /\\ b /\\ c", "a \\land b \\land c",
                                  "/\\ a\n/\\ b\n/\\ c"])
def test_conjunction_is_one_node_kind(text: str) -> None:
    e = parse_expression(text)
    assert isinstance(e, A.Junction) and e.op == "/\\" and len(e.items) == 3
    assert not any(isinstance(n, A.OpApp) and n.name in ("/\\", "\\/") for n in iter_nodes(e))


class _Forms(ActionVisitor[None, str]):
    """Names the hook each form reaches, overriding only a few."""

    def other(self, node: A.Node, c: None) -> str:
        return f"other:{type(node).__name__}"

    def call(self, node: A.Name | A.OpApp, c: None) -> str:
        return f"call:{node.name}"

    def conj(self, node: A.Junction, c: None) -> str:
        return "conj"


@pytest.mark.parametrize(("text", "hook"), [
    ("L :: (a /\\ b)", "conj"),
    ("a \\/ b", "other:Junction"),
    ("x' = 1", "call:="),
    ("a => b", "call:=>"),
    ("~a", "call:~"),
    ("M!Op(1)", "call:Op"),
    ("\\A x \\in S : x", "other:Quant"),
    ("UNCHANGED x", "other:Unchanged"),
    ("[A]_x", "other:ActionBox"),
    ("{1}", "other:SetEnum"),
])
def test_action_visitor_dispatch_and_defaults(text: str, hook: str) -> None:
    assert _Forms().visit(parse_expression(text), None) == hook


def test_taken_arm_and_the_one_no_arm_error() -> None:
    case = parse_expression("CASE a -> 1 [] b -> 2")
    assert isinstance(case, A.Case)
    truth = {"a": False, "b": True}
    arm = taken_arm(case, lambda g: truth[g.name], 0)  # type: ignore[attr-defined]
    assert arm == A.Num(2)
    with pytest.raises(Fail, match="no CASE arm is TRUE") as err:
        taken_arm(case, lambda g: False, 7)
    assert err.value.message == NO_CASE_ARM
