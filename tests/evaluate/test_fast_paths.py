"""The compiler's inlined fast paths (typed equality, membership, disjointness, filter
membership, set operations, junctions, quantifiers) on every evaluation path: each
negated or typed variant gives a boolean or the error TLC gives, never a Python truthiness
answer.  The paths are those of :mod:`test_differential` (constant-folded, operator
arguments, state, primed, ENABLED, explain)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from tests.evaluate.test_differential import (
    ASSIGN,
    BOOLEAN_ONLY,
    EXPLAIN,
    NOT_INTERNAL,
    ORDER,
    PICK,
    E,
    paths,
)
from tlaconf.evaluate import Blame, EvalError
from tlaconf.values import Fn, to_tla

ERROR = object()
BASE: dict[str, Any] = {"x": 1, "y": frozenset({1, 2}), "z": (1, 2),
                        "w": Fn({"a": 1, "b": "a"}), "f": Fn({1: 1, 5: 2})}

CASES: list[tuple[str, dict[str, Any], Any]] = [
    # junctions never use Python truthiness on a non-boolean
    ("{x} /\\ TRUE", {}, ERROR),
    ("TRUE /\\ {x}", {}, ERROR),
    ("FALSE /\\ {x}", {}, False),
    ("{x} \\/ FALSE", {}, ERROR),
    ("FALSE \\/ {x}", {}, ERROR),
    ("TRUE \\/ {x}", {}, True),
    ("~{x}", {}, ERROR),
    ("{x} => TRUE", {}, ERROR),
    ("TRUE => {x}", {}, ERROR),
    ("FALSE => {x}", {}, True),
    ("{x} <=> TRUE", {}, ERROR),
    ("IF {x} THEN 1 ELSE 2", {}, ERROR),
    ("CASE {x} -> 1 [] OTHER -> 2", {}, ERROR),
    ("{y} /\\ TRUE", {}, ERROR),
    ("{z} \\/ FALSE", {}, ERROR),
    ("{x} /\\ TRUE", {"x": 0}, ERROR),
    ("{x} /\\ TRUE", {"x": True}, True),
    # quantifier bodies must be booleans
    ("\\A i \\in {y} : i", {}, ERROR),
    ("\\E i \\in {y} : i", {}, ERROR),
    ("\\E i \\in {y} : {x}", {}, ERROR),
    ("\\A i \\in {y} : i \\in {y}", {}, True),
    ("\\E i \\in {{}} : {x}", {"y": frozenset()}, False),
    ("{{i \\in {y} : i}}", {}, ERROR),
    ("CHOOSE i \\in {y} : i", {}, ERROR),
    # typed equality and its negation; cross-kind is an error, at any depth (as TLC)
    ("{x} = \"a\"", {}, ERROR),
    ("{x} # \"a\"", {}, ERROR),
    ("{x} # {{}}", {}, ERROR),
    ("{y} # {{}}", {}, True),
    ("{y} = {{}}", {"y": frozenset()}, True),
    ("{z} # <<>>", {}, True),
    ("{z} = <<1, 2>>", {}, True),
    ("{z} # <<1, TRUE>>", {}, ERROR),
    ("{w} = [a |-> 1, b |-> \"a\"]", {}, True),
    ("{w} # [a |-> TRUE, b |-> \"a\"]", {}, ERROR),
    ("{y} = {{1, 2}}", {}, True),
    ("{y} = {{TRUE}}", {"y": frozenset({1})}, ERROR),
    ("{x} = 1 /\\ {x} # 2", {}, True),
    ("{x} = TRUE", {}, ERROR),
    # membership: constant sets, run-time sets, negated
    ("{x} \\in {{1, 2}}", {}, True),
    ("{x} \\notin {{1, 2}}", {}, False),
    ("{x} \\in {{1, 2}}", {"x": True}, ERROR),
    ("{x} \\notin {{1, 2}}", {"x": "a"}, ERROR),
    ("{x} \\in {{\"a\", \"b\"}}", {}, ERROR),
    ("{x} \\notin {y}", {"x": "a"}, ERROR),
    ("{x} \\in {y}", {"x": True}, ERROR),
    ("{x} \\in {x}", {}, ERROR),
    ("{z} \\in {{<<1, 2>>}}", {}, True),
    ("{z} \\notin {{<<TRUE, 2>>}}", {}, ERROR),
    ("<<{x}>> \\in {{<<TRUE>>}}", {}, ERROR),
    # filter membership (not enumerated): the base set's kind check and the predicate
    ("{x} \\in {{i \\in {y} : i > 1}}", {}, False),
    ("{x} \\notin {{i \\in {y} : i > 1}}", {}, True),
    ("{x} \\notin {{i \\in {y} : i}}", {}, ERROR),
    ("{x} \\in {{i \\in {y} : i > 1}}", {"x": "a"}, ERROR),
    # disjointness
    ("{y} \\cap {{3}} = {{}}", {}, True),
    ("{y} \\cap {{2}} # {{}}", {}, True),
    ("{y} \\cap {{TRUE}} = {{}}", {}, ERROR),
    ("{y} \\cap {x} = {{}}", {}, ERROR),
    ("{{<<1>>}} \\cap {{<<{x}>>}} = {{}}", {"x": True}, ERROR),
    # set operations keep their kind checks
    ("{y} \\cup {x}", {}, ERROR),
    ("{y} \\ {{TRUE}}", {}, ERROR),
    ("{y} \\cup {{TRUE}}", {}, ERROR),
    ("Cardinality({y} \\cup {{3}})", {}, 3),
    # UNION of a set map: unioned at once only when the sets surely compare
    ("UNION {{{{i}} : i \\in {y}}}", {}, frozenset({1, 2})),
    ("UNION {{{y} : i \\in {y}}}", {}, frozenset({1, 2})),
    ("UNION {{{{}} : i \\in {y}}}", {}, frozenset()),
    ("UNION {{IF i = 1 THEN {{i}} ELSE {{\"a\"}} : i \\in {y}}}", {}, ERROR),
    ("UNION {{IF i = 1 THEN {{i}} ELSE {{TRUE}} : i \\in {y}}}", {}, ERROR),
    ("UNION {{IF i = 1 THEN {{}} ELSE {{TRUE}} : i \\in {y}}}", {}, frozenset({True})),
    ("UNION {{IF i = 1 THEN {{i}} ELSE i : i \\in {y}}}", {}, ERROR),
    ("UNION {{{{<<i>>}} : i \\in {y}}}", {}, frozenset({(1,), (2,)})),
    ("UNION {{IF i = 1 THEN {{<<i>>}} ELSE {{<<TRUE>>}} : i \\in {y}}}", {}, ERROR),
    ("UNION {{{w}[k] : k \\in DOMAIN {w}}}", {"w": Fn({"a": frozenset({1}),
                                                      "b": frozenset({"a"})})}, ERROR),
    ("UNION {{{w}[k] : k \\in DOMAIN {w}}}", {"w": Fn({"a": frozenset({1}),
                                                      "b": frozenset({2})})},
     frozenset({1, 2})),
    # equal functions of sets: the same kinds at every argument, else an error
    ("{w} = [k \\in {{\"a\", \"b\"}} |-> {{1}}]",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({1})})}, True),
    ("{w} = [k \\in {{\"a\", \"b\"}} |-> IF k = \"a\" THEN {{TRUE}} ELSE {{1}}]",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({1})})}, ERROR),
    ("{w} # [k \\in {{\"a\", \"b\"}} |-> IF k = \"a\" THEN {{<<TRUE>>}} ELSE {{}}]",
     {"w": Fn({"a": frozenset({(1,)}), "b": frozenset()})}, ERROR),
    ("{w} = [a |-> {{2}}, b |-> {{1}}]", {"w": Fn({"a": frozenset({1}), "b": frozenset({1})})},
     False),
    ("{w} = [a |-> {{\"x\"}}, b |-> {{1}}]",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({1})})}, ERROR),
    ("{w} = [a |-> {{}}, b |-> {{1}}]", {"w": Fn({"a": frozenset({"x"}), "b": frozenset({1})})},
     False),
    ("{w} = [a |-> 2, b |-> {{TRUE}}]", {"w": Fn({"a": 1, "b": frozenset({1})})}, False),
    ("{w} = [a |-> 1, b |-> {{TRUE}}]", {"w": Fn({"a": 1, "b": frozenset({1})})}, ERROR),
    ("{w} = [a |-> 1, b |-> TRUE]", {"w": Fn({"a": 1, "b": 1})}, ERROR),
    # a function applied to an outer quantifier's variable (looked up once per iteration)
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({2})})}, True),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({1, 2})})}, False),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({"x"})})}, ERROR),
    ("\\A i, j \\in {{\"a\", \"c\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({2})})}, ERROR),
    # pairwise disjointness decided in one pass (sizes against the union's), or by the loop
    ("\\A i, j \\in {{\"a\", \"b\", \"c\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1, 2}), "b": frozenset(), "c": frozenset({3})})}, True),
    ("\\A i, j \\in {{\"a\", \"b\", \"c\"}} : i # j => {w}[j] \\cap {w}[i] = {{}}",
     {"w": Fn({"a": frozenset({1, 2}), "b": frozenset({4}), "c": frozenset({2})})}, False),
    ("\\A i \\in {{1, 5}}, j \\in {{1, 5}} : j /= i => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({1: frozenset({"p"}), 5: frozenset({"q"})})}, True),
    ("\\A i, j \\in {{1, 5}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({1: frozenset({"p"}), 5: frozenset({"p", "q"})})}, False),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({True}), "b": frozenset({False})})}, True),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": frozenset({True})})}, ERROR),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": Fn({"a": frozenset({1}), "b": 2})}, ERROR),
    ("\\A i, j \\in {{\"a\", \"b\"}} : i # j => {w}[i] \\cap {w}[j] = {{}}",
     {"w": (frozenset({1}), frozenset({2}))}, ERROR),
    ("\\A i, j \\in {{\"c\"}} : i # j => {w}[i] = {{}}", {}, True),
    ("\\A i \\in {{\"c\"}}, j \\in {{\"a\"}} : j = \"b\" /\\ {w}[i] = {{}}", {}, False),
    ("\\A i \\in {{\"c\"}}, j \\in {{\"a\"}} : j = \"a\" /\\ {w}[i] = {{}}", {}, ERROR),
    ("\\A i \\in {{\"a\"}}, j \\in {{\"c\"}} : {w}[i] = 1 /\\ {w}[j] = 1", {}, ERROR),
    ("\\A i \\in {{1, 5}}, j \\in {{\"a\"}} : {f}[i] > 0 /\\ {w}[j] = 1", {}, True),
    ("\\E i \\in {{\"a\", 3}}, j \\in {{\"b\"}} : {w}[i] = \"a\"", {}, ERROR),
    ("\\E i \\in {{\"a\"}}, j \\in {{\"b\"}} : {f}[i] = 1", {}, ERROR),
    # application and record access
    ("{w}.a", {}, 1),
    ("{w}.c", {}, ERROR),
    ("{x}.a", {}, ERROR),
    ("{w}[\"b\"]", {}, "a"),
    ("{w}[1]", {}, ERROR),
    ("{f}[TRUE]", {}, ERROR),
    ("{f}[5]", {}, 2),
    ("{z}[TRUE]", {}, ERROR),
]


@pytest.mark.parametrize(("template", "override", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_every_path(template: str, override: dict[str, Any], expected: Any) -> None:
    env = {**BASE, **override}
    for name, run in paths(E("raw", (template,)), env, expected).items():
        where = f"{name}: {template} with " + ", ".join(f"{n} = {to_tla(env[n])}" for n in ORDER)
        if name in ASSIGN and expected is not ERROR:
            assert run() is True, where
            continue
        if name in PICK:
            if type(expected) is not frozenset:
                with pytest.raises(EvalError, match=NOT_INTERNAL):
                    run()
            continue
        if name in EXPLAIN:
            if expected is False:
                assert isinstance(run(), Blame), where
            elif expected is ERROR:  # explaining a failing formula: a Blame or an EvalError
                with contextlib.suppress(EvalError):
                    assert isinstance(run(), Blame), where
            continue
        if expected is ERROR or (name in BOOLEAN_ONLY and type(expected) is not bool):
            with pytest.raises(EvalError, match=NOT_INTERNAL):
                got = run()
                pytest.fail(f"{where}: expected an error, got {to_tla(got)}")
            continue
        got = run()
        assert type(got) is type(expected) and got == expected, f"{where}: got {to_tla(got)}"


def test_a_constant_inside_a_comprehension_iterable_compiles() -> None:
    """A hoisted constant in the iterable of a comprehension may not use ``:=`` (found by the
    differential test: it was a SyntaxError in the generated code)."""
    from tlaconf.evaluate import EvalError
    from tlaconf.evaluate.context import default_context

    ctx = default_context()
    assert ctx.evaluate("{1 : i \\in IF {0} \\cup {2} = {} THEN {} ELSE {3}}") == frozenset({1})
    with pytest.raises(EvalError, match="no CASE arm is TRUE"):
        ctx.evaluate("{{} : i \\in IF {0} \\cup {CASE FALSE -> 1} = {} THEN {} ELSE {}}")


def test_a_call_with_a_deferred_argument_inside_a_quantifier_sees_its_lookups() -> None:
    """``f[a]`` inside a quantifier is looked up in ``f``'s dict, computed at the
    quantifier's entry (and once per outer iteration); a call whose other argument is
    deferred goes into a helper function, which receives those values."""
    from tests.evaluate.tlahelp import module

    m = module("EXTENDS Naturals\n"
               "G(x, y) == x = {} \\/ y = 1\n"
               "One(f) == DOMAIN f # {} /\\ \\A a \\in DOMAIN f : G(f[a], 1 \\div 0)\n"
               "Two(f) == DOMAIN f # {} /\\\n"
               "    \\A a, b \\in DOMAIN f : G(f[a] \\cap f[b], 1 \\div 0)\n")
    empty = Fn({"a": frozenset(), "b": frozenset()})
    full = Fn({"a": frozenset({1}), "b": frozenset({2})})
    assert m.holds("One", (empty,), {}) is True
    assert m.holds("Two", (empty,), {}) is True
    for op in ("One", "Two"):
        with pytest.raises(EvalError, match="division by zero"):
            m.holds(op, (full,), {})


def test_the_level_analysis_knows_every_inlined_operator() -> None:
    from tlaconf.evaluate.compiler import _SPECIAL
    from tlaconf.evaluate.levels import SPECIAL_NAMES

    assert set(_SPECIAL) == SPECIAL_NAMES
