"""Differential test of constant expressions against an oracle of TLC's rules.

Random expressions, well- and ill-typed on purpose (membership in ``Nat``, ``Int``,
``STRING`` and intervals, sets mixing kinds, comparisons of different kinds at any
depth, EXCEPT and application with keys of any kind, the Bags and TLC operators,
``ToString``, operator arguments TLC never evaluates, functions whose body fails
somewhere), are evaluated by tlaconf and by :func:`oracle`, a direct interpreter
following TLC's implementation (``tlc2/value/impl``, ``tlc2/module``; the comparison
rules are in :mod:`tlc_rules`).  Both must give the same value, or both an error.

``make test`` runs a few hundred examples; ``make fuzz`` runs thousands
(``TLACONF_TLC_DIFF_EXAMPLES``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tests.evaluate.tlc_rules as tlc
from tests.evaluate.tlahelp import context
from tests.evaluate.tlc_rules import Indeterminate, OracleError
from tlaconf.evaluate import EvalError
from tlaconf.tla.errors import ParseError
from tlaconf.values import Fn, make_fn, to_tla

context()  # loads the evaluator (and sets its recursion limit) before Hypothesis runs

Node = tuple[Any, ...]

# --------------------------------------------------------------------------- generator

LEAVES: list[Node] = [("int", n) for n in (-2, 0, 1, 2, 3)] + [
    ("str", "a"), ("str", "b"), ("bool", True), ("bool", False), ("set",), ("tuple",)]
SETS = ("Nat", "Int", "STRING", "BOOLEAN")


TYPES = ("int", "str", "bool", "set", "seq", "rec", "fn")
LEAF_OF = {
    "int": [("int", n) for n in (-2, 0, 1, 2, 3)], "str": [("str", "a"), ("str", "b")],
    "bool": [("bool", True), ("bool", False)], "set": [("set",)], "seq": [("tuple",)],
    "rec": [("record", ("int", 1), ("str", "a"))], "fn": [("bin", ":>", ("int", 1), ("int", 1))],
}


@st.composite
def exprs(draw: st.DrawFn, ty: str | None = None, depth: int = 3) -> Node:
    """An expression of type ``ty`` (of any type when None); one argument in six is of a
    random type, so that ill-typed expressions are frequent but not the rule."""
    if ty is None or draw(st.integers(0, 5)) == 0:
        ty = draw(st.sampled_from(TYPES))
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(LEAF_OF[ty]))

    def sub(t: str | None = None) -> Node:
        return draw(exprs(t, depth - 1))

    def elem() -> str:
        return draw(st.sampled_from(("int", "int", "str", "set", "seq")))

    choices: dict[str, list[Callable[[], Node]]] = {
        "int": [lambda: ("bin", draw(st.sampled_from(("+", "\\div"))), sub("int"), sub("int")),
                lambda: ("card", sub("set")), lambda: ("seqop", "Len", sub("seq")),
                lambda: ("app", sub("seq"), sub("int")), lambda: ("dot", sub("rec")),
                lambda: ("fnapp", sub("set"), draw(st.sampled_from(("div", "id", "other"))),
                         sub("int"), sub("int")),
                lambda: ("bag", "CopiesIn", sub(), sub("fn")),
                lambda: ("bag", "BagCardinality", sub("fn")),
                lambda: ("app", sub("fn"), sub("int"))],
        "str": [lambda: ("tostring", draw(printable(depth - 1))),
                lambda: ("seqop", "Tail", sub("str"))],
        "bool": [lambda: (lambda t: ("bin", draw(st.sampled_from(("=", "#"))), sub(t),
                                     sub(t)))(elem()),
                 lambda: ("bin", draw(st.sampled_from(("\\in", "\\notin"))), sub(elem()),
                          draw(st.one_of(st.just(sub("set")),
                                         st.sampled_from(SETS).map(lambda n: ("name", n)),
                                         st.just(("seqnat",))))),
                 lambda: ("bag", "BagIn", sub(), sub("fn")), lambda: ("bag", "IsABag", sub()),
                 lambda: ("bin", "=", sub("set"), ("set",))],
        "set": [lambda: (lambda t: ("set", *(sub(t) for _ in range(draw(st.integers(0, 3))))))(
                    elem()),
                lambda: ("bin", "..", sub("int"), sub("int")),
                lambda: ("bin", draw(st.sampled_from(("\\cup", "\\cap", "\\"))), sub("set"),
                         sub("set")),
                lambda: ("domain", sub("fn")), lambda: ("bag", "BagToSet", sub("fn"))],
        "seq": [lambda: ("tuple", *(sub("int") for _ in range(draw(st.integers(0, 3))))),
                lambda: ("seqop", "Tail", sub("seq")),
                lambda: ("except", sub("seq"), sub("int"), sub("int"))],
        "rec": [lambda: ("record", sub(), sub()),
                lambda: ("except", sub("rec"), ("str", "a"), sub())],
        "fn": [lambda: ("bin", ":>", sub(elem()), sub("int")),
               lambda: ("bin", "@@", sub("fn"), sub("fn")),
               lambda: ("except", sub("fn"), sub("int"), sub("int")),
               lambda: ("bag", "SetToBag", sub("set")),
               lambda: ("bag", draw(st.sampled_from(("(+)", "(-)"))), sub("fn"), sub("fn"))],
    }
    def common() -> Node:
        return (draw(st.sampled_from(("if", "lazyarg"))), sub("bool"), sub(ty), sub(ty))

    return draw(st.sampled_from([*choices[ty], common]))()


@st.composite
def printable(draw: st.DrawFn, depth: int) -> Node:
    """Values whose TLC printing the oracle knows from their form (intervals included)."""
    if depth <= 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from([*LEAVES, ("bin", "..", ("int", 1), ("int", 3)),
                                     ("bin", "..", ("int", 2), ("int", 1))]))
    sub = printable(depth - 1)
    kind = draw(st.sampled_from(("set", "tuple", "record", "colon", "interval")))
    if kind in ("set", "tuple"):
        return (kind, *draw(st.lists(sub, max_size=3)))
    if kind == "record":
        return ("record", draw(sub), draw(sub))
    if kind == "colon":
        return ("bin", ":>", draw(st.sampled_from(LEAVES[:7])), draw(sub))
    return ("bin", "..", ("int", draw(st.integers(-1, 2))), ("int", draw(st.integers(-1, 3))))


def render(e: Node) -> str:
    k = e[0]
    r = render
    if k == "int":
        return str(e[1]) if e[1] >= 0 else f"(-{-e[1]})"
    if k == "str":
        return f'"{e[1]}"'
    if k == "bool":
        return "TRUE" if e[1] else "FALSE"
    if k == "set":
        return "{" + ", ".join(r(x) for x in e[1:]) + "}"
    if k == "tuple":
        return "<<" + ", ".join(r(x) for x in e[1:]) + ">>"
    if k == "record":
        return f"[a |-> {r(e[1])}, b |-> {r(e[2])}]"
    if k == "bin":
        return f"({r(e[2])} {e[1]} {r(e[3])})"
    if k == "name":
        return e[1]
    if k == "seqnat":
        return "Seq(Nat)"
    if k == "card":
        return f"Cardinality({r(e[1])})"
    if k == "domain":
        return f"(DOMAIN {r(e[1])})"
    if k == "app":
        return f"{r(e[1])}[{r(e[2])}]"
    if k == "except":
        return f"[{r(e[1])} EXCEPT ![{r(e[2])}] = {r(e[3])}]"
    if k == "bag":
        if e[1] in ("(+)", "(-)"):
            return f"({r(e[2])} {e[1]} {r(e[3])})"
        return f"{e[1]}({', '.join(r(x) for x in e[2:])})"
    if k == "tostring":
        return f"ToString({r(e[1])})"
    if k == "lazyarg":
        return f"(LET F(x, y) == IF {r(e[1])} THEN x ELSE y IN F({r(e[2])}, {r(e[3])}))"
    if k == "fnapp":
        body = {"div": "(10 \\div n)", "id": "n", "other": f"(IF n = 0 THEN {r(e[3])} ELSE n)"}
        return f"[n \\in {r(e[1])} |-> {body[e[2]]}][{r(e[4])}]"
    if k == "if":
        return f"(IF {r(e[1])} THEN {r(e[2])} ELSE {r(e[3])})"
    if k == "seqop":
        return f"{e[1]}({r(e[2])})"
    assert k == "dot"
    return f"{r(e[1])}.a"


# --------------------------------------------------------------------------- oracle


def fail(why: str) -> Any:
    raise OracleError(why)


def is_fn(v: Any) -> bool:
    return type(v) in (tuple, Fn)


def items(f: Any) -> list[tuple[Any, Any]]:
    return list(enumerate(f, 1)) if type(f) is tuple else list(f.items())


def lookup(f: Any, k: Any) -> tuple[Any] | None:
    """``f[k]`` as TLC looks it up (by equality with the domain's elements)."""
    if type(f) is tuple:
        if type(k) is not int:
            return fail("a sequence applied to a non-integer") if f else None
        return (f[k - 1],) if 1 <= k <= len(f) else None
    keys = [key for key, _ in items(f)]
    found = [key for key in keys if tlc.comparable(k, key) and tlc.compare(k, key) == 0]
    bad = [key for key in keys if not tlc.comparable(k, key)]
    if bad and (found or len(bad) < len(keys)):
        raise Indeterminate("TLC's search order decides")
    if bad:
        fail("a key of another kind than the domain")
    return (f[found[0]],) if found else None


def want_int(v: Any) -> int:
    return v if type(v) is int else fail("not an integer")


def want_bool(v: Any) -> bool:
    return v if type(v) is bool else fail("not a boolean")


def want_set(v: Any) -> frozenset[Any]:
    return v if type(v) is frozenset else fail("not a set")


def want_fn(v: Any) -> Any:
    return v if is_fn(v) else fail("not a function")


def set_op(op: str, s: frozenset[Any], t: frozenset[Any]) -> frozenset[Any]:
    if op == "\\cup":
        return tlc.build([*s, *t])
    pairs = [(m, n) for m in s for n in t]
    bad = [p for p in pairs if not tlc.comparable(*p)]
    if bad:
        if len(bad) == len(pairs):
            fail("sets of different kinds")
        raise Indeterminate("which elements TLC compares")
    inside = [m for m in s if any(tlc.compare(m, n) == 0 for n in t)]
    return frozenset(inside) if op == "\\cap" else frozenset(m for m in s if m not in inside)


def member(x: Any, s: Node, env: Callable[[Node], Any]) -> bool:
    if s[0] == "name":
        if s[1] == "BOOLEAN":
            return tlc.member(x, frozenset({False, True}))
        want = {"Nat": int, "Int": int, "STRING": str}[s[1]]
        if type(x) is not want:
            fail(f"\\in {s[1]} of another kind")
        return s[1] != "Nat" or x >= 0
    if s[0] == "seqnat":
        if type(x) is tuple:
            return all(member(v, ("name", "Nat"), env) for v in x)
        if type(x) is Fn:
            raise Indeterminate("a function that is not a sequence")
        return fail("\\in Seq of a non-function")
    if s[0] == "bin" and s[1] == "..":
        lo, hi = want_int(env(s[2])), want_int(env(s[3]))
        if type(x) is int:
            return lo <= x <= hi
        return False if lo > hi else fail("\\in an interval of a non-integer")
    return tlc.member(x, want_set(env(s)))


def bag(op: str, args: list[Any]) -> Any:
    if op == "IsABag":
        return is_fn(args[0]) and all(type(c) is int and c > 0 for _, c in items(args[0]))
    if op == "SetToBag":
        return make_fn(dict.fromkeys(want_set(args[0]), 1))
    if op == "BagToSet":
        return frozenset(k for k, _ in items(want_fn(args[0])))
    if op == "BagCardinality":
        counts = [c for _, c in items(want_fn(args[0]))]
        if any(type(c) is not int or c <= 0 for c in counts):
            fail("not a bag")
        return sum(counts)
    if op in ("BagIn", "CopiesIn"):
        found = lookup(want_fn(args[1]), args[0])
        if found is None:
            return False if op == "BagIn" else 0
        c = want_int(found[0])
        return c > 0 if op == "BagIn" else c
    a, b = (want_fn(x) for x in args)
    if op == "(+)":
        if not (bag("IsABag", [a]) and bag("IsABag", [b])):
            fail("(+) of a non-bag")
        merged = items(a)
        for k, c in items(b):
            i = next((i for i, (x, _) in enumerate(merged) if tlc.equal(x, k)), None)
            if i is None:
                merged.append((k, c))
            else:
                merged[i] = (merged[i][0], merged[i][1] + c)
        return make_fn(dict(merged))
    out = {}
    for k, c in items(a):
        n = want_int(c)
        found = lookup(b, k) if items(b) else None
        n -= want_int(found[0]) if found else 0
        if n > 0:
            out[k] = n
    return make_fn(out)


def print_tlc(e: Node, env: Callable[[Node], Any]) -> str:
    """ToString of a printable expression, from its form (TLC keeps intervals)."""
    k = e[0]
    if k == "bin" and e[1] == "..":
        lo, hi = want_int(env(e[2])), want_int(env(e[3]))
        return f"{lo}..{hi}" if lo <= hi else "{}"
    if k == "set":
        elems: dict[Any, str] = {}
        for x in e[1:]:
            v, text = env(x), print_tlc(x, env)
            same = [u for u in elems if tlc.comparable(u, v) and tlc.equal(u, v)]
            if same and elems[same[0]] != text:
                raise Indeterminate("equal elements printed differently")
            if not same:
                elems[v] = text
        tlc.build(list(elems))
        return "{" + ", ".join(elems[v] for v in sorted(elems, key=tlc.key)) + "}"
    if k == "tuple":
        return "<<" + ", ".join(print_tlc(x, env) for x in e[1:]) + ">>"
    if k == "record":
        return f"[a |-> {print_tlc(e[1], env)}, b |-> {print_tlc(e[2], env)}]"
    if k == "bin" and e[1] == ":>":
        key = env(e[2])
        if type(key) is int and key == 1 and type(key) is not bool:
            return f"<<{print_tlc(e[3], env)}>>"
        if type(key) is str:
            return f"[{key} |-> {print_tlc(e[3], env)}]"
        return f"({print_tlc(e[2], env)} :> {print_tlc(e[3], env)})"
    v = env(e)
    return to_tla(v) if type(v) in (int, str, bool) or v in ((), frozenset()) else fail("?")


def oracle(e: Node) -> Any:
    k = e[0]
    ev = oracle
    if k in ("int", "str", "bool"):
        return e[1]
    if k == "set":
        return tlc.build([ev(x) for x in e[1:]])
    if k == "tuple":
        return tuple(ev(x) for x in e[1:])
    if k == "record":
        return Fn({"a": ev(e[1]), "b": ev(e[2])})
    if k == "bin":
        op = e[1]
        if op in ("\\in", "\\notin"):
            found = member(ev(e[2]), e[3], ev)
            return found if op == "\\in" else not found
        if op == "..":
            lo, hi = want_int(ev(e[2])), want_int(ev(e[3]))
            if hi - lo > 50:
                raise Indeterminate("big interval")
            return frozenset(range(lo, hi + 1))
        a, b = ev(e[2]), ev(e[3])
        if op in ("=", "#"):
            return tlc.equal(a, b) is (op == "=")
        if op == ":>":
            return make_fn({a: b})
        if op == "@@":
            f, g = want_fn(a), want_fn(b)
            if f and g:
                set_op("\\cap", frozenset(k for k, _ in items(f)),
                       frozenset(k for k, _ in items(g)))
                tlc.build([k for k, _ in items(f)] + [k for k, _ in items(g)])
            merged = dict(items(g))
            for key, v in items(f):
                merged = {x: y for x, y in merged.items() if not tlc.equal(x, key)}
                merged[key] = v
            return make_fn(merged)
        if op in ("\\cup", "\\cap", "\\"):
            lazy = op == "\\cup" and any(x[0] == "domain" or x[:2] == ("bin", "..")
                                          for x in (e[2], e[3]))
            try:
                return set_op(op, want_set(a), want_set(b))
            except OracleError:
                if lazy:  # TLC keeps S \cup (a..b) lazy: an error only if it is enumerated
                    raise Indeterminate("a lazy union") from None
                raise
        m, n = want_int(a), want_int(b)
        if op == "+":
            return m + n
        return m // n if n else fail("division by zero")
    if k == "card":
        return len(want_set(ev(e[1])))
    if k == "domain":
        return frozenset(key for key, _ in items(want_fn(ev(e[1]))))
    if k == "app":
        f, x = want_fn(ev(e[1])), ev(e[2])
        got = lookup(f, x)
        return got[0] if got is not None else fail("outside the domain")
    if k == "except":
        f, x = want_fn(ev(e[1])), ev(e[2])
        got = lookup(f, x)
        if got is None:
            return f
        new = ev(e[3])
        return make_fn({key: (new if tlc.equal(key, x) else v) for key, v in items(f)})
    if k == "bag":
        return bag(e[1], [ev(x) for x in e[2:]])
    if k == "tostring":
        return print_tlc(e[1], ev)
    if k == "lazyarg":
        return ev(e[2]) if want_bool(ev(e[1])) else ev(e[3])
    if k == "fnapp":
        dom, body, other, x = e[1:]
        s = want_set(ev(dom))
        found = [n for n in s if tlc.comparable(n, (v := ev(x))) and tlc.compare(n, v) == 0]
        if not found:
            tlc.member(ev(x), s)  # an error when no element compares
            return fail("outside the domain")
        n = found[0]
        if body == "div":
            return 10 // want_int(n) if want_int(n) else fail("division by zero")
        if body == "id":
            return n
        return ev(other) if tlc.equal(n, 0) else n
    if k == "if":
        return ev(e[2]) if want_bool(ev(e[1])) else ev(e[3])
    if k == "seqop":
        v = ev(e[2])
        if e[1] == "Len":
            return len(v) if type(v) in (tuple, str) else fail("Len")
        if type(v) is not tuple and not (e[1] == "Tail" and type(v) is str):
            return fail(e[1])
        return (v[0] if e[1] == "Head" else v[1:]) if v else fail("empty")
    assert k == "dot"
    r = ev(e[1])
    return r["a"] if type(r) is Fn and "a" in r else fail("no field a")


# --------------------------------------------------------------------------- the test


def tag(v: Any) -> Any:
    """A hashable image of ``v`` in which TRUE and 1 differ."""
    t = type(v)
    if t is frozenset:
        return ("set", frozenset(tag(x) for x in v))
    if t is tuple:
        return ("fn", frozenset((("int", i), tag(x)) for i, x in enumerate(v, 1)))
    if t is Fn:
        return ("fn", frozenset((tag(key), tag(x)) for key, x in v.items()))
    return (t.__name__, v)


def check(e: Node) -> None:
    text = render(e)
    try:
        expected, error = oracle(e), False
    except OracleError:
        expected, error = None, True
    except Indeterminate:
        assume(False)
        return
    except RecursionError:  # pragma: no cover - the generator's depth is bounded
        assume(False)
        return
    try:
        got = context().evaluate(text)
    except ParseError as err:  # text SANY rejects is not generated
        pytest.fail(f"{text}: {err}")
    except EvalError as err:
        assert "internal evaluator error" not in str(err), f"{text}: {err}"
        assert error, f"{text}: expected {to_tla(expected)}, got the error {err}"
        return
    assert not error, f"{text}: expected an error (as TLC), got {to_tla(got)}"
    assert tag(got) == tag(expected), f"{text}: expected {to_tla(expected)}, got {to_tla(got)}"


@settings(max_examples=int(os.environ.get("TLACONF_TLC_DIFF_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(exprs())
def test_constant_expressions_agree_with_tlcs_rules(e: Node) -> None:
    check(e)


@pytest.mark.parametrize("e", [
    ("bin", "\\in", ("set",), ("name", "Nat")),
    ("set", ("tuple",), ("int", 0)),
    ("bin", "=", ("set", ("int", 1)), ("set", ("str", "a"))),
    ("bag", "BagIn", ("int", 1), ("bin", ":>", ("int", 1), ("int", 0))),
    ("except", ("bin", ":>", ("int", 0), ("int", 0)), ("set",), ("int", 0)),
    ("lazyarg", ("bool", False), ("app", ("tuple",), ("int", 1)), ("int", 2)),
    ("fnapp", ("bin", "..", ("int", 0), ("int", 3)), "div", ("int", 0), ("int", 2)),
    ("tostring", ("bin", "..", ("int", 1), ("int", 3))),
    ("seqop", "Tail", ("str", "a")),
])
def test_the_issues_examples(e: Node) -> None:
    check(e)


def test_a_disagreement_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check`` rejects an answer where TLC raises, and a wrong value."""

    class Wrong:
        def __init__(self, answer: Any) -> None:
            self.answer = answer

        def evaluate(self, text: str) -> Any:
            return self.answer

    monkeypatch.setattr(sys.modules[__name__], "context", lambda: Wrong(False))
    with pytest.raises(AssertionError, match="expected an error"):
        check(("bin", "\\in", ("set",), ("name", "Nat")))  # TLC: an error, not FALSE
    monkeypatch.setattr(sys.modules[__name__], "context", lambda: Wrong(1))
    with pytest.raises(AssertionError, match="expected TRUE"):
        check(("bin", "=", ("int", 1), ("int", 1)))  # TRUE, not 1
