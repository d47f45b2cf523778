"""Differential testing of the evaluator against a small independent oracle.

Random well-typed (and, now and then, deliberately ill-typed) expressions over the
free variables ``x`` (integer), ``y`` (set of integers), ``z`` (sequence of integers),
``w`` (record ``[a : Int, b : STRING]``) and ``f`` (function from integers to integers)
are evaluated on every path of the evaluator:

- constant-folded: the values substituted as literals (``ctx.evaluate``);
- an operator with run-time arguments (``ctx.value("Op", args)``), and the same
  operator applied to literals inside ``ctx.evaluate`` (folded at compile time);
- the values bound as the module's CONSTANTS;
- the variables read from a state, and read primed from a next state;
- for a boolean: ENABLED of ``/\\ e /\\ <every variable unchanged>`` (with the values
  as arguments, and as state variables), and ``explain`` when it is FALSE.

All must agree with :func:`oracle` (a direct interpreter over Python values), or all
must raise ``EvalError`` when the oracle says the expression is an error.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tests.evaluate.tlc_rules as tlc
from tests.evaluate.tlc_rules import Indeterminate, OracleError
from tlaconf.evaluate import Blame, Context, EvalError, load_text
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.semantics import materialize
from tlaconf.tla.ast import NO_SPAN
from tlaconf.values import Fn, make_fn, to_tla

# --------------------------------------------------------------------------- expressions

INT, BOOL, STR = "Int", "Bool", "Str"
SETINT, SETSTR, SETSET, SEQ, REC, FN = "SetInt", "SetStr", "SetSet", "Seq", "Rec", "Fn"
TYPES = (INT, BOOL, STR, SETINT, SETSTR, SETSET, SEQ, REC, FN)
VARS = {"x": INT, "y": SETINT, "z": SEQ, "w": REC, "f": FN}


@dataclass(frozen=True)
class E:
    """An expression tree: ``op`` names the construct, ``args`` are sub-trees or names."""

    op: str
    args: tuple[Any, ...] = ()

    def tla(self, names: dict[str, str]) -> str:
        return render(self, names)


def render(e: E, nm: dict[str, str]) -> str:
    op, a = e.op, e.args
    r: Callable[[Any], str] = lambda t: render(t, nm)  # noqa: E731
    if op == "lit":
        return to_tla(a[0]) if not (type(a[0]) is int and a[0] < 0) else f"(-{-a[0]})"
    if op == "var":
        return nm.get(a[0], a[0])
    if op == "bin":
        return f"({r(a[1])} {a[0]} {r(a[2])})"
    if op == "neg":
        return f"(-{r(a[0])})"
    if op == "not":
        return f"(~{r(a[0])})"
    if op == "call":
        return f"{a[0]}({', '.join(r(x) for x in a[1:])})"
    if op == "prefix":
        return f"({a[0]} {r(a[1])})"
    if op == "setenum":
        return "{" + ", ".join(r(x) for x in a) + "}"
    if op == "tuple":
        return "<<" + ", ".join(r(x) for x in a) + ">>"
    if op == "record":
        return "[" + ", ".join(f"{k} |-> {r(v)}" for k, v in a) + "]"
    if op == "app":
        return f"{r(a[0])}[{r(a[1])}]"
    if op == "dot":
        return f"{r(a[0])}.{a[1]}"
    if op == "if":
        return f"(IF {r(a[0])} THEN {r(a[1])} ELSE {r(a[2])})"
    if op == "case":
        arms, other = a
        text = " [] ".join(f"{r(c)} -> {r(v)}" for c, v in arms)
        return f"(CASE {text}{' [] OTHER -> ' + r(other) if other is not None else ''})"
    if op == "let":
        return f"(LET {a[0]} == {r(a[1])} IN {r(a[2])})"
    if op == "quant":
        return f"(\\{a[0]} {a[1]} \\in {r(a[2])} : {r(a[3])})"
    if op == "choose":
        return f"(CHOOSE {a[0]} \\in {r(a[1])} : {r(a[2])})"
    if op == "filter":
        return f"{{{a[0]} \\in {r(a[1])} : {r(a[2])}}}"
    if op == "map":
        return f"{{{r(a[2])} : {a[0]} \\in {r(a[1])}}}"
    if op == "fncons":
        return f"[{a[0]} \\in {r(a[1])} |-> {r(a[2])}]"
    if op == "except":
        key = f".{a[1]}" if isinstance(a[1], str) else f"[{r(a[1])}]"
        return f"[{r(a[0])} EXCEPT !{key} = {r(a[2])}]"
    if op == "at":
        return "@"
    if op in ("quant2", "quantpat"):
        (n1, n2), doms, body = a[1], a[2], a[3]
        binds = (f"<<{n1}, {n2}>> \\in {r(doms)}" if op == "quantpat"
                 else f"{n1} \\in {r(doms[0])}, {n2} \\in {r(doms[1])}")
        return f"(\\{a[0]} {binds} : {r(body)})"
    if op == "map2":
        (n1, n2), (d1, d2), body = a
        return f"{{{r(body)} : {n1} \\in {r(d1)}, {n2} \\in {r(d2)}}}"
    if op == "fncons2":
        (n1, n2), (d1, d2), body = a
        return f"[{n1} \\in {r(d1)}, {n2} \\in {r(d2)} |-> {r(body)}]"
    if op == "app2":
        return f"{r(a[0])}[{r(a[1])}, {r(a[2])}]"
    if op == "fnset":
        return f"[{r(a[0])} -> {r(a[1])}]"
    if op == "recset":
        return f"[a : {r(a[0])}, b : {r(a[1])}]"
    if op == "name":
        return str(a[0])
    if op == "select":
        return f"SelectSeq({r(a[0])}, LAMBDA {a[1]} : {r(a[2])})"
    if op == "raw":
        return a[0].format(**{n: nm.get(n, n) for n in VARS})
    raise AssertionError(op)


def lit(v: Any) -> E:
    return E("lit", (v,))


SMALL_INT = st.integers(-3, 3)
SMALL_STR = st.sampled_from(["a", "b", "c"])


def values_of(ty: str) -> st.SearchStrategy[Any]:
    if ty == INT:
        return SMALL_INT
    if ty == BOOL:
        return st.booleans()
    if ty == STR:
        return SMALL_STR
    if ty == SETINT:
        return st.frozensets(SMALL_INT, max_size=4)
    if ty == SETSTR:
        return st.frozensets(SMALL_STR, max_size=3)
    if ty == SETSET:
        return st.frozensets(st.frozensets(SMALL_INT, max_size=2), max_size=3)
    if ty == SEQ:
        return st.lists(SMALL_INT, max_size=4).map(tuple)
    if ty == REC:
        return st.builds(lambda a, b: Fn({"a": a, "b": b}), SMALL_INT, SMALL_STR)
    assert ty == FN
    return st.dictionaries(SMALL_INT, SMALL_INT, max_size=4).map(make_fn)


@dataclass(frozen=True)
class Scope:
    """Bound names visible here (name -> type); ``at`` is the type of ``@`` if any."""

    names: tuple[tuple[str, str], ...] = ()
    at: str | None = None

    def bind(self, name: str, ty: str) -> Scope:
        return Scope((*self.names, (name, ty)), self.at)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{len(self.names)}"

    def of(self, ty: str) -> list[str]:
        return [n for n, t in self.names if t == ty]


def gen(draw: Any, ty: str, depth: int, sc: Scope) -> E:
    """A random expression of type ``ty``."""
    leaves = leaf_options(ty, sc)
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))(draw)
    d = depth - 1
    kind = draw(st.sampled_from(compound_options(ty)))
    return kind(draw, d, sc)


def leaf_options(ty: str, sc: Scope) -> list[Callable[[Any], E]]:
    out: list[Callable[[Any], E]] = [lambda draw: lit(draw(values_of(ty)))]
    names = [n for n, t in VARS.items() if t == ty] + sc.of(ty)
    out += [_var(n) for n in names]
    if sc.at == ty:
        out.append(lambda draw: E("at"))
    return out


def _var(name: str) -> Callable[[Any], E]:
    return lambda draw: E("var", (name,))


def any_type(draw: Any) -> str:
    return str(draw(st.sampled_from(TYPES)))


def _binop(ops: list[str], lt: str, rt: str) -> Callable[[Any, int, Scope], E]:
    def make(draw: Any, d: int, sc: Scope) -> E:
        return E("bin", (draw(st.sampled_from(ops)), gen(draw, lt, d, sc), gen(draw, rt, d, sc)))
    return make


def _call(name: str, *tys: str) -> Callable[[Any, int, Scope], E]:
    return lambda draw, d, sc: E("call", (name, *(gen(draw, t, d, sc) for t in tys)))


def _if(ty: str) -> Callable[[Any, int, Scope], E]:
    return lambda draw, d, sc: E("if", (gen(draw, BOOL, d, sc), gen(draw, ty, d, sc),
                                       gen(draw, ty, d, sc)))


def _case(ty: str) -> Callable[[Any, int, Scope], E]:
    def make(draw: Any, d: int, sc: Scope) -> E:
        arms = tuple((gen(draw, BOOL, d, sc), gen(draw, ty, d, sc))
                     for _ in range(draw(st.integers(1, 2))))
        other = gen(draw, ty, d, sc) if draw(st.booleans()) else None
        return E("case", (arms, other))
    return make


def _let(ty: str) -> Callable[[Any, int, Scope], E]:
    def make(draw: Any, d: int, sc: Scope) -> E:
        bty = draw(st.sampled_from((INT, SETINT, BOOL)))
        name = sc.fresh("n")
        return E("let", (name, gen(draw, bty, d, sc), gen(draw, ty, d, sc.bind(name, bty))))
    return make


def _binder(op: str, ty: str, body_ty: str | None) -> Callable[[Any, int, Scope], E]:
    """A construct binding one name over a set: quantifiers, CHOOSE, filter, map, [x \\in S |->]."""
    def make(draw: Any, d: int, sc: Scope) -> E:
        elem = draw(st.sampled_from((INT, INT, STR, SETINT) if op != "fncons" else (INT,)))
        if op == "choose":
            elem = ty
        if op == "filter":
            elem = {SETINT: INT, SETSTR: STR, SETSET: SETINT}[ty]
        set_ty = {INT: SETINT, STR: SETSTR, SETINT: SETSET}[elem]
        name = sc.fresh({INT: "i", STR: "s", SETINT: "t"}[elem])
        dom = gen(draw, set_ty, d, sc)
        inner = sc.bind(name, elem)
        if op == "quant":
            return E("quant", (draw(st.sampled_from("AE")), name, dom, gen(draw, BOOL, d, inner)))
        if op == "map":
            return E("map", (name, dom, gen(draw, body_ty or INT, d, inner)))
        if op == "fncons":
            return E("fncons", (name, dom, gen(draw, INT, d, inner)))
        return E(op, (name, dom, gen(draw, BOOL, d, inner)))
    return make


def _cmp_any(draw: Any, d: int, sc: Scope) -> E:
    """``a = b`` / ``a # b`` of one random type (two types, now and then)."""
    t1 = any_type(draw)
    t2 = any_type(draw) if draw(st.integers(0, 5)) == 0 else t1
    return E("bin", (draw(st.sampled_from(["=", "#"])), gen(draw, t1, d, sc), gen(draw, t2, d, sc)))


def _member(draw: Any, d: int, sc: Scope) -> E:
    st_ = draw(st.sampled_from((SETINT, SETSTR, SETSET)))
    et = {SETINT: INT, SETSTR: STR, SETSET: SETINT}[st_]
    if draw(st.integers(0, 5)) == 0:
        et = any_type(draw)
    return E("bin", (draw(st.sampled_from(["\\in", "\\notin"])), gen(draw, et, d, sc),
                     gen(draw, st_, d, sc)))


def _wrapped_cmp(draw: Any, d: int, sc: Scope) -> E:
    """Values of (maybe) different kinds inside equal containers: ``<<1>> = <<TRUE>>``."""
    wrap = draw(st.sampled_from(["tuple", "setenum", "record", "colon"]))
    kinds = (INT, BOOL) if draw(st.booleans()) else TYPES
    a, b = (gen(draw, draw(st.sampled_from(kinds)), d, sc) for _ in range(2))

    def w(e: E) -> E:
        if wrap == "record":
            return E("record", (("k", e),))
        if wrap == "colon":
            return E("bin", (":>", lit("k"), e))
        return E(wrap, (e,))

    op = draw(st.sampled_from(["=", "#", "\\in"]))
    if op == "\\in":
        return E("bin", (op, w(a), E("setenum", (w(b),))))
    return E("bin", (op, w(a), w(b)))


def _mixed_setop(draw: Any, d: int, sc: Scope) -> E:
    """A set operation on sets of integers and booleans: ``{1} \\cap {TRUE}``."""
    a, b = (gen(draw, draw(st.sampled_from((INT, BOOL))), d, sc) for _ in range(2))
    wrap = draw(st.sampled_from([lambda e: e, lambda e: E("tuple", (e,))]))
    op = draw(st.sampled_from(["\\cup", "\\cap", "\\"]))
    s = E("bin", (op, E("setenum", (wrap(a),)), E("setenum", (wrap(b),))))
    if draw(st.booleans()):
        return E("bin", (draw(st.sampled_from(["=", "#"])), s, E("setenum", ())))
    return E("bin", (">", E("call", ("Cardinality", s)), lit(1)))


def _two_bounds(draw: Any, d: int, sc: Scope) -> tuple[tuple[str, str], Scope]:
    n1, n2 = sc.fresh("i"), f"{sc.fresh('i')}b"
    return (n1, n2), sc.bind(n1, INT).bind(n2, INT)


def _quant2(draw: Any, d: int, sc: Scope) -> E:
    """``\\A i \\in S, j \\in T : P`` or ``\\E <<i, j>> \\in S \\X T : P``."""
    names, inner = _two_bounds(draw, d, sc)
    s1, s2 = gen(draw, SETINT, d, sc), gen(draw, SETINT, d, sc)
    body = gen(draw, BOOL, d, inner)
    kind = draw(st.sampled_from("AE"))
    if draw(st.booleans()):
        return E("quantpat", (kind, names, E("bin", ("\\X", s1, s2)), body))
    return E("quant2", (kind, names, (s1, s2), body))


def _map2(draw: Any, d: int, sc: Scope) -> E:
    names, inner = _two_bounds(draw, d, sc)
    return E("map2", (names, (gen(draw, SETINT, d, sc), gen(draw, SETINT, d, sc)),
                      gen(draw, INT, d, inner)))


def _app2(draw: Any, d: int, sc: Scope) -> E:
    """``[i \\in S, j \\in T |-> e][a, b]``."""
    names, inner = _two_bounds(draw, d, sc)
    g = E("fncons2", (names, (gen(draw, SETINT, d, sc), gen(draw, SETINT, d, sc)),
                      gen(draw, INT, d, inner)))
    return E("app2", (g, gen(draw, INT, d, sc), gen(draw, INT, d, sc)))


def _lazy_member(draw: Any, d: int, sc: Scope) -> E:
    """Membership in a set TLC does not enumerate: SUBSET, [S -> T], [a : S, b : T], Seq,
    Nat, Int, and the cardinality of the finite ones."""
    form = draw(st.sampled_from(["subset", "fnset", "recset", "seq", "nat", "int"]))
    s1 = gen(draw, SETINT, d, sc)
    if form == "subset":
        x, lazy = gen(draw, SETINT, d, sc), E("prefix", ("SUBSET", s1))
    elif form == "fnset":
        x, lazy = (gen(draw, draw(st.sampled_from((FN, SEQ))), d, sc),
                   E("fnset", (s1, gen(draw, SETINT, d, sc))))
    elif form == "recset":
        x, lazy = gen(draw, REC, d, sc), E("recset", (s1, gen(draw, SETSTR, d, sc)))
    elif form == "seq":
        x, lazy = gen(draw, SEQ, d, sc), E("call", ("Seq", s1))
    else:
        x, lazy = gen(draw, INT, d, sc), E("name", ("Nat" if form == "nat" else "Int",))
    if form in ("fnset", "recset", "subset") and draw(st.integers(0, 2)) == 0:
        return E("bin", ("<", E("call", ("Cardinality", lazy)), gen(draw, INT, d, sc)))
    return E("bin", (draw(st.sampled_from(["\\in", "\\notin"])), x, lazy))


def _select(draw: Any, d: int, sc: Scope) -> E:
    name = sc.fresh("e")
    return E("select", (gen(draw, SEQ, d, sc), name, gen(draw, BOOL, d, sc.bind(name, INT))))


def _str_fn_app(draw: Any, d: int, sc: Scope) -> E:
    """``[s \\in S |-> e][k]`` with strings for keys (the dict fast path of application)."""
    name = sc.fresh("s")
    g = E("fncons", (name, gen(draw, SETSTR, d, sc), gen(draw, INT, d, sc.bind(name, STR))))
    return E("app", (g, gen(draw, STR, d, sc)))


def _illtyped_bool(draw: Any, d: int, sc: Scope) -> E:
    """A boolean operator given an operand of a random type (usually an error)."""
    t = any_type(draw)
    e = gen(draw, t, d, sc)
    b = gen(draw, BOOL, d, sc)
    form = draw(st.integers(0, 3))
    if form == 0:
        return E("not", (e,))
    if form == 1:
        return E("if", (e, b, gen(draw, BOOL, d, sc)))
    op = draw(st.sampled_from(["/\\", "\\/", "=>", "<=>"]))
    return E("bin", (op, e, b) if form == 2 else (op, b, e))


def compound_options(ty: str) -> list[Callable[[Any, int, Scope], E]]:
    common = [_if(ty), _case(ty), _let(ty), _binder("choose", ty, None)] \
        if ty in (INT, STR, SETINT) else [_if(ty), _let(ty)]
    if ty == INT:
        return [*common,
            _binop(["+", "-", "*", "\\div", "%"], INT, INT), _binop(["^"], INT, INT),
            lambda draw, d, sc: E("neg", (gen(draw, INT, d, sc),)),
            _call("Len", SEQ), _call("Cardinality", SETINT), _call("Cardinality", SETSET),
            _call("Head", SEQ),
            lambda draw, d, sc: E("app", (gen(draw, SEQ, d, sc), gen(draw, INT, d, sc))),
            lambda draw, d, sc: E("app", (gen(draw, FN, d, sc), gen(draw, INT, d, sc))),
            lambda draw, d, sc: E("dot", (gen(draw, REC, d, sc), "a")), _app2, _str_fn_app,
            lambda draw, d, sc: E("app", (gen(draw, REC, d, sc), lit("a"))),
            lambda draw, d, sc: E("bin", ("+", gen(draw, INT, d, sc),
                                          gen(draw, any_type(draw), d, sc))),
        ]
    if ty == BOOL:
        return [
            _if(BOOL), _case(BOOL), _let(BOOL), _cmp_any, _cmp_any, _member, _member,
            _binop(["<", "<=", ">", ">="], INT, INT),
            _binop(["\\subseteq"], SETINT, SETINT), _binop(["\\subseteq"], SETSTR, SETSTR),
            _binop(["/\\", "\\/", "=>", "<=>"], BOOL, BOOL),
            _binop(["/\\", "\\/"], BOOL, BOOL),
            lambda draw, d, sc: E("not", (gen(draw, BOOL, d, sc),)),
            _binder("quant", BOOL, None), _binder("quant", BOOL, None),
            _call("IsFiniteSet", SETINT), _wrapped_cmp, _illtyped_bool, _mixed_setop,
            _quant2, _lazy_member, _lazy_member,
            lambda draw, d, sc: E("bin", ("=", gen(draw, SETINT, d, sc), E("setenum", ()))),
            lambda draw, d, sc: E("bin", ("#", gen(draw, SETINT, d, sc), E("setenum", ()))),
            lambda draw, d, sc: E("bin", (draw(st.sampled_from(["=", "#"])), E("bin", (
                "\\cap", gen(draw, SETINT, d, sc), gen(draw, SETINT, d, sc))),
                E("setenum", ()))),
        ]
    if ty == STR:
        return [*common,lambda draw, d, sc: E("dot", (gen(draw, REC, d, sc), "b"))]
    if ty == SETINT:
        return [*common,
            _binop(["\\cup", "\\cap", "\\"], SETINT, SETINT), _binop([".."], INT, INT),
            lambda draw, d, sc: E("setenum", tuple(gen(draw, INT, d, sc)
                                                    for _ in range(draw(st.integers(0, 3))))),
            _binder("filter", SETINT, None), _binder("map", SETINT, INT), _map2,
            lambda draw, d, sc: E("prefix", ("DOMAIN", gen(draw, draw(st.sampled_from(
                (SEQ, FN))), d, sc))),
            lambda draw, d, sc: E("prefix", ("UNION", gen(draw, SETSET, d, sc))),
        ]
    if ty == SETSTR:
        return [*common,
            _binop(["\\cup", "\\cap", "\\"], SETSTR, SETSTR), _binder("map", SETSTR, STR),
            lambda draw, d, sc: E("prefix", ("DOMAIN", gen(draw, REC, d, sc))),
            lambda draw, d, sc: E("setenum", (gen(draw, STR, d, sc),)),
        ]
    if ty == SETSET:
        return [*common,
            _binop(["\\cup", "\\cap", "\\"], SETSET, SETSET),
            lambda draw, d, sc: E("prefix", ("SUBSET", gen(draw, SETINT, d, sc))),
            _binder("filter", SETSET, None), _binder("map", SETSET, SETINT),
            lambda draw, d, sc: E("setenum", (gen(draw, SETINT, d, sc),)),
        ]
    if ty == SEQ:
        return [*common,
            _call("Tail", SEQ), _call("Append", SEQ, INT), _binop(["\\o"], SEQ, SEQ), _select,
            _call("SubSeq", SEQ, INT, INT),
            lambda draw, d, sc: E("tuple", tuple(gen(draw, INT, d, sc)
                                                 for _ in range(draw(st.integers(0, 3))))),
            lambda draw, d, sc: E("except", (gen(draw, SEQ, d, sc), gen(draw, INT, d, sc),
                                             gen(draw, INT, d, Scope(sc.names, INT)))),
            lambda draw, d, sc: E("fncons", (sc.fresh("q"), E("bin", ("..", lit(1), gen(
                draw, INT, d, sc))), gen(draw, INT, d, sc.bind(sc.fresh("q"), INT)))),
        ]
    if ty == REC:
        return [*common,
            lambda draw, d, sc: E("record", (("a", gen(draw, INT, d, sc)),
                                             ("b", gen(draw, STR, d, sc)))),
            lambda draw, d, sc: E("except", (gen(draw, REC, d, sc), "a",
                                             gen(draw, INT, d, Scope(sc.names, INT)))),
            lambda draw, d, sc: E("except", (gen(draw, REC, d, sc), "b",
                                             gen(draw, STR, d, Scope(sc.names, STR)))),
        ]
    assert ty == FN
    return [*common,
        _binder("fncons", FN, INT), _binop([":>"], INT, INT), _binop(["@@"], FN, FN),
        lambda draw, d, sc: E("except", (gen(draw, FN, d, sc), gen(draw, INT, d, sc),
                                         gen(draw, INT, d, Scope(sc.names, INT)))),
    ]


# --------------------------------------------------------------------------- oracle


LIMIT = 300


def family(v: Any) -> str:
    t = type(v)
    if t is frozenset:
        return "set"
    if t is tuple or t is Fn:
        return "function"
    return t.__name__


def tag(v: Any) -> Any:
    """A hashable image of ``v`` in which TRUE and 1 differ (Python's == confuses them)."""
    t = type(v)
    if t is frozenset:
        return ("set", frozenset(tag(e) for e in v))
    if t is tuple:
        return ("fn", frozenset((("int", i), tag(e)) for i, e in enumerate(v, 1)))
    if t is Fn:
        return ("fn", frozenset((tag(k), tag(e)) for k, e in v.items()))
    return (t.__name__, v)


def o_eq(a: Any, b: Any) -> bool:
    return tlc.equal(a, b)


@dataclass(frozen=True)
class Lazy:
    """A set the evaluator keeps lazy: ``fnset``/``recset`` (of two sets), ``seq``, Nat, Int."""

    kind: str
    args: tuple[Any, ...]

    def contains(self, x: Any) -> bool:
        if self.kind in ("Nat", "Int"):
            return type(x) is int and (x >= 0 or self.kind == "Int")
        if type(x) not in (tuple, Fn):
            raise OracleError("not a function")
        if self.kind == "seq":
            return type(x) is tuple and all(o_in(v, self.args[0]) for v in x)
        values = list(x) if type(x) is tuple else list(x.values())
        if self.kind == "fnset":
            return o_eq(domain(x), self.args[0]) and all(o_in(v, self.args[1]) for v in values)
        return (type(x) is Fn and set(x.keys()) == {"a", "b"} and o_in(x["a"], self.args[0])
                and o_in(x["b"], self.args[1]))

    def size(self) -> int:
        if self.kind == "fnset":
            return len(self.args[1]) ** len(self.args[0])
        if self.kind == "recset":
            return len(self.args[0]) * len(self.args[1])
        raise OracleError("infinite set")


def o_in(x: Any, s: Any) -> bool:
    if type(s) is Lazy:
        return s.contains(x)
    if type(s) is not frozenset:
        raise OracleError("\\in a non-set")
    return tlc.member(x, s)


def want(v: Any, *types: type) -> Any:
    if type(v) not in types:
        raise OracleError(f"expected {types}, got {v!r}")
    if type(v) is frozenset and len(v) > LIMIT:
        raise Indeterminate("too large")
    return v


def domain(f: Any) -> frozenset[Any]:
    if type(f) is tuple:
        return frozenset(range(1, len(f) + 1))
    if type(f) is Fn:
        return frozenset(f.keys())
    raise OracleError("DOMAIN of a non-function")


def lookup(f: Any, k: Any) -> Any | None:
    """``f[k]`` as a 1-tuple, or None outside the domain."""
    if type(f) is tuple:
        return (f[k - 1],) if type(k) is int and 1 <= k <= len(f) else None
    for key, v in f.items():
        if tag(key) == tag(k):
            return (v,)
    return None


def mkset(items: list[Any]) -> frozenset[Any]:
    return tlc.build(items)


def oracle(e: E, env: dict[str, Any]) -> Any:
    op, a = e.op, e.args
    ev = lambda t, en=env: oracle(t, en)  # noqa: E731
    if op == "lit":
        return a[0]
    if op == "var":
        v = env[a[0]]
        return v() if callable(v) else v
    if op == "at":
        return env["@"]
    if op == "not":
        return not want(ev(a[0]), bool)
    if op == "neg":
        return -want(ev(a[0]), int)
    if op == "if":
        return ev(a[1]) if want(ev(a[0]), bool) else ev(a[2])
    if op == "case":
        for cond, val in a[0]:
            if want(ev(cond), bool):
                return ev(val)
        if a[1] is None:
            raise OracleError("no CASE arm")
        return ev(a[1])
    if op == "let":
        cell: list[Any] = []

        def thunk() -> Any:
            if not cell:
                cell.append(ev(a[1]))
            return cell[0]
        return ev(a[2], {**env, a[0]: thunk})
    if op == "bin":
        return o_bin(a[0], a[1], a[2], env)
    if op == "prefix":
        v = ev(a[1])
        if a[0] == "DOMAIN":
            return domain(v)
        s = want(v, frozenset)
        if a[0] == "SUBSET":
            if len(s) > 6:
                raise Indeterminate("big SUBSET")
            items = list(s)
            return frozenset(frozenset(c) for r in range(len(items) + 1)
                             for c in itertools.combinations(items, r))
        out: set[Any] = set()
        for m in s:
            out |= want(m, frozenset)
        return mkset(list(out))
    if op == "call":
        return o_call(a[0], [ev(x) for x in a[1:]])
    if op == "setenum":
        return mkset([ev(x) for x in a])
    if op == "tuple":
        return tuple(ev(x) for x in a)
    if op == "record":
        return Fn({k: ev(v) for k, v in a})
    if op == "app":
        f, k = ev(a[0]), ev(a[1])
        if type(f) not in (tuple, Fn):
            raise OracleError("application of a non-function")
        got = lookup(f, k)
        if got is None:
            raise OracleError("outside the domain")
        return got[0]
    if op == "dot":
        r = ev(a[0])
        if type(r) is not Fn or a[1] not in r:
            raise OracleError("no such field")
        return r[a[1]]
    if op == "except":
        f = ev(a[0])
        if type(f) not in (tuple, Fn):
            raise OracleError("EXCEPT on a non-function")
        k = a[1] if isinstance(a[1], str) else ev(a[1])
        got = lookup(f, k)
        if got is None:
            return f
        new = ev(a[2], {**env, "@": got[0]})
        if type(f) is tuple:
            return (*f[: k - 1], new, *f[k:])
        return Fn({key: (new if tag(key) == tag(k) else v) for key, v in f.items()})
    if op == "select":
        out = []
        for v in want(ev(a[0]), tuple):
            if want(ev(a[2], {**env, a[1]: v}), bool):
                out.append(v)
        return tuple(out)
    if op in ("quant", "choose", "filter", "map", "fncons", "quant2", "quantpat", "map2",
              "fncons2"):
        return o_binder(e, env)
    if op == "app2":
        f = oracle(a[0], env)
        got = lookup(f, (oracle(a[1], env), oracle(a[2], env)))
        if got is None:
            raise OracleError("outside the domain")
        return got[0]
    if op == "fnset":
        return Lazy("fnset", (want(ev(a[0]), frozenset), want(ev(a[1]), frozenset)))
    if op == "recset":
        return Lazy("recset", (want(ev(a[0]), frozenset), want(ev(a[1]), frozenset)))
    if op == "name":
        return Lazy(a[0], ())
    raise AssertionError(op)


def o_binder(e: E, env: dict[str, Any]) -> Any:
    op, a = e.op, e.args
    names, dom_e, body = (a[1], a[2], a[3]) if op.startswith("quant") else a
    elems: list[tuple[Any, dict[str, Any] | None]] = []  # element, bindings (None: error)
    if op in ("quant2", "map2", "fncons2"):
        d1, d2 = (want(oracle(x, env), frozenset) for x in dom_e)
        elems = [((x1, x2), {names[0]: x1, names[1]: x2}) for x1 in d1 for x2 in d2]
    elif op == "quantpat":
        elems = [(t, {names[0]: t[0], names[1]: t[1]} if type(t) is tuple and len(t) == 2
                  else None) for t in want(oracle(dom_e, env), frozenset)]
    else:
        elems = [(x, {names: x}) for x in want(oracle(dom_e, env), frozenset)]
    if len(elems) > LIMIT:
        raise Indeterminate("too many")
    results: list[tuple[Any, Any, bool]] = []  # element, value, is_error
    for x, binding in elems:
        try:
            if binding is None:
                raise OracleError("not a pair")
            v = oracle(body, {**env, **binding})
            if op in ("quant", "quant2", "quantpat", "choose", "filter"):
                want(v, bool)
            results.append((x, v, False))
        except OracleError:
            results.append((x, None, True))
    errors = any(err for _, _, err in results)
    op = {"quant2": "quant", "quantpat": "quant", "map2": "map", "fncons2": "fncons"}.get(op, op)
    if op == "quant":
        decisive = a[0] != "A"  # \A stops at FALSE, \E at TRUE
        if any(not err and v is decisive for _, v, err in results):
            if errors:
                raise Indeterminate("order-dependent error")
            return decisive
        if errors:
            raise OracleError("quantifier body error")
        return not decisive
    if op == "choose":
        hits = [x for x, v, err in results if not err and v]
        if len(hits) > 1 or (hits and errors):
            raise Indeterminate("CHOOSE is not unique")
        if errors or not hits:
            raise OracleError("CHOOSE has no witness")
        return hits[0]
    if errors and op == "fncons":
        # TLC evaluates a function's body only where it is applied (its DOMAIN needs none):
        # whether the error shows depends on the use (test_tlc_differential covers that)
        raise Indeterminate("a lazy function whose body fails somewhere")
    if errors:
        raise OracleError("error in a binder body")
    if op == "filter":
        return frozenset(x for x, v, _ in results if v)
    if op == "map":
        return mkset([v for _, v, _ in results])
    return make_fn({x: v for x, v, _ in results})


def o_bin(op: str, le: E, re: E, env: dict[str, Any]) -> Any:
    if op in ("/\\", "\\/", "=>"):
        left = want(oracle(le, env), bool)
        if (op == "/\\" and not left) or (op == "\\/" and left):
            return left
        if op == "=>" and not left:
            return True
        return want(oracle(re, env), bool)
    if op in ("\\in", "\\notin") and re.op == "filter":
        # TLC does not build the filter: x \in {i \in S : P} is x \in S /\ P(x)
        name, dom, pred = re.args
        x = oracle(le, env)
        found = o_in(x, want(oracle(dom, env), frozenset)) and want(
            oracle(pred, {**env, name: x}), bool)
        return found if op == "\\in" else not found
    x, y = oracle(le, env), oracle(re, env)
    if op == "<=>":
        return want(x, bool) is want(y, bool)
    if op == "=":
        return o_eq(x, y)
    if op == "#":
        return not o_eq(x, y)
    if op == "\\in":
        return o_in(x, y)
    if op == "\\notin":
        return not o_in(x, y)
    if op == "\\X":
        return frozenset(itertools.product(want(x, frozenset), want(y, frozenset)))
    if op in ("\\cup", "\\cap", "\\", "\\subseteq"):
        s, t = want(x, frozenset), want(y, frozenset)
        if op == "\\subseteq":
            return all(o_in(m, t) for m in s)
        if op == "\\cup":
            return mkset([*s, *t])
        if s and t:
            for m in s:
                tlc.member(m, t)
        tt = {tag(m) for m in t}
        return frozenset(m for m in s if (tag(m) in tt) == (op == "\\cap"))
    if op == "\\o":
        return want(x, tuple) + want(y, tuple)
    if op == ":>":
        return make_fn({x: y})
    if op == "@@":
        f, h = want(x, tuple, Fn), want(y, tuple, Fn)
        d = dict(enumerate(h, 1)) if type(h) is tuple else dict(h.items())
        d.update(enumerate(f, 1) if type(f) is tuple else f.items())
        if len({type(k) for k in d} & {bool, int}) > 1:
            raise Indeterminate("mixed domain")
        return make_fn(d)
    m, n = want(x, int), want(y, int)
    if op == "+":
        return m + n
    if op == "-":
        return m - n
    if op == "*":
        return m * n
    if op == "\\div":
        if n == 0:
            raise OracleError("division by zero")
        return m // n
    if op == "%":
        if n <= 0:
            raise OracleError("% needs a positive divisor")
        return m % n
    if op == "^":
        if n < 0 or (m == 0 and n == 0):
            raise OracleError("bad exponent")
        if n > 12:
            raise Indeterminate("big power")
        return m**n
    if op == "..":
        if n - m > LIMIT:
            raise Indeterminate("big interval")
        return frozenset(range(m, n + 1))
    cmp = {"<": m < n, "<=": m <= n, ">": m > n, ">=": m >= n}
    return cmp[op]


def o_call(name: str, args: list[Any]) -> Any:
    if name == "Len":
        return len(want(args[0], tuple))
    if name == "Cardinality":
        return args[0].size() if type(args[0]) is Lazy else len(want(args[0], frozenset))
    if name == "Seq":
        return Lazy("seq", (want(args[0], frozenset),))
    if name == "IsFiniteSet":
        return want(args[0], frozenset) is not None
    s = want(args[0], tuple)
    if name in ("Head", "Tail"):
        if not s:
            raise OracleError(f"{name} of <<>>")
        return s[0] if name == "Head" else s[1:]
    if name == "Append":
        return (*s, args[1])
    assert name == "SubSeq"
    m, n = want(args[1], int), want(args[2], int)
    if m > n:
        return ()
    if m < 1 or n > len(s):
        raise OracleError("SubSeq out of range")
    return s[m - 1 : n]


# --------------------------------------------------------------------------- the paths

MODULE = """---- MODULE Diff ----
EXTENDS Integers, Sequences, FiniteSets, TLC
VARIABLES x, y, z, w, f, v
Op(px, py, pz, pw, pf) == {param}
Act(px, py, pz, pw, pf) == /\\ ({param})
                           /\\ UNCHANGED <<x, y, z, w, f, v>>
St == {state}
ActSt == /\\ ({state})
         /\\ UNCHANGED <<x, y, z, w, f, v>>
Pr == {primed}
Asg(px, py, pz, pw, pf) == /\\ v' = ({param})
                           /\\ v' \\in {{({param})}}
                           /\\ UNCHANGED <<x, y, z, w, f>>
Pick(px, py, pz, pw, pf) == /\\ \\E e \\in ({param}) : v' = e
                            /\\ UNCHANGED <<x, y, z, w, f>>
PickIn(px, py, pz, pw, pf) == /\\ v' \\in ({param})
                              /\\ UNCHANGED <<x, y, z, w, f>>
====
"""

ORDER = ("x", "y", "z", "w", "f")
CONSTANTS_MODULE = """---- MODULE DiffConst ----
EXTENDS Integers, Sequences, FiniteSets, TLC
CONSTANTS x, y, z, w, f
Cst == {expr}
====
"""


def settle(thunk: Callable[[], Any]) -> Any:
    """``thunk()`` with its lazy parts enumerated (``ctx.value`` may return a lazy set whose
    enumeration fails, as ``ctx.evaluate`` would report)."""
    value = thunk()
    try:
        return materialize(value)
    except Fail as err:
        raise EvalError(err.message, NO_SPAN) from None


def paths(e: E, env: dict[str, Any], value: Any = None) -> dict[str, Callable[[], Any]]:
    """Every way of evaluating ``e`` on ``env``, each a thunk returning the value (or, for
    :data:`ASSIGN`, whether ``v' = e`` holds when ``v'`` is ``value``)."""
    params = e.tla({n: f"p{n}" for n in ORDER})
    text = MODULE.format(param=params, state=e.tla({}),
                         primed=e.tla({n: f"{n}'" for n in ORDER}))
    ctx: Context = load_text(text, filename="Diff.tla")
    args = tuple(env[n] for n in ORDER)
    literals = e.tla({n: f"({to_tla(env[n])})" for n in ORDER})
    call = f"Op({', '.join(to_tla(env[n]) for n in ORDER)})"
    junk = {n: frozenset({"junk"}) for n in ORDER}
    consts = load_text(CONSTANTS_MODULE.format(expr=e.tla({})), constants=env,
                       filename="DiffConst.tla")
    env = {**env, "v": 0}
    return {
        "constant": lambda: ctx.evaluate(literals),
        "operator": lambda: settle(lambda: ctx.value("Op", args)),
        "CONSTANTS": lambda: settle(lambda: consts.value("Cst")),
        "operator applied to literals": lambda: ctx.evaluate(call),
        "state": lambda: settle(lambda: ctx.value("St", (), env)),
        "primed": lambda: settle(lambda: ctx.value("Pr", (), junk, env)),
        "ENABLED with arguments": lambda: ctx.enabled("Act", args, env),
        "ENABLED in the state": lambda: ctx.enabled("ActSt", (), env),
        "holds": lambda: ctx.holds("Op", args, {}),
        "explain": lambda: ctx.explain("Op", args, {}),
        "explain in the state": lambda: ctx.explain("St", (), env),
        "explain primed": lambda: ctx.explain("Pr", (), junk, env),
        "ENABLED assigning v' = e": lambda: ctx.enabled("Asg", args, env),
        "ENABLED \\E i \\in e : v' = i": lambda: ctx.enabled("Pick", args, env),
        "ENABLED v' \\in e": lambda: ctx.enabled("PickIn", args, env),
        "v' = e with the expected v'": lambda: ctx.holds("Asg", args, env, {**env, "v": value}),
    }


NOT_INTERNAL = r"^(?![\s\S]*internal evaluator error)"
"""Matches an EvalError message unless it reports a Python exception inside the evaluator."""
BOOLEAN_ONLY = ("ENABLED with arguments", "ENABLED in the state", "holds")
EXPLAIN = ("explain", "explain in the state", "explain primed")
ASSIGN = ("ENABLED assigning v' = e", "v' = e with the expected v'")
PICK = ("ENABLED \\E i \\in e : v' = i", "ENABLED v' \\in e")


def check(e: E, env: dict[str, Any]) -> None:
    try:
        expected: Any = oracle(e, dict(env))
        error = False
    except OracleError:
        expected, error = None, True
    except Indeterminate:
        assume(False)
        return
    for name, run in paths(e, env, expected).items():
        if name in EXPLAIN and (error or expected is not False):
            continue
        if name in ASSIGN and not error:
            assert run() is True, f"{name}: {e.tla({})} with {env}"
            continue
        if name in PICK:
            if error or type(expected) is not frozenset:
                with pytest.raises(EvalError, match=NOT_INTERNAL):
                    run()
            else:
                assert run() is bool(expected), f"{name}: {e.tla({})} with {env}"
            continue
        if name in BOOLEAN_ONLY and not error and type(expected) is not bool:
            with pytest.raises(EvalError, match=NOT_INTERNAL):
                run()
            continue
        where = f"{name}: {e.tla({})} with {', '.join(f'{n} = {to_tla(env[n])}' for n in ORDER)}"
        if error:
            with pytest.raises(EvalError, match=NOT_INTERNAL):
                got = run()
                pytest.fail(f"{where}: expected an error, got {to_tla(got)}")
            continue
        try:
            got = run()
        except EvalError as err:
            pytest.fail(f"{where}: expected {to_tla(expected)}, got the error {err}")
        if name in EXPLAIN:
            assert isinstance(got, Blame), where
            assert got.innermost().text, where
            continue
        assert "internal evaluator error" not in to_tla(got), where
        assert tag(got) == tag(expected), f"{where}: expected {to_tla(expected)}, got {to_tla(got)}"


@st.composite
def cases(draw: Any) -> tuple[E, dict[str, Any]]:
    ty = draw(st.sampled_from((BOOL, BOOL, BOOL, INT, SETINT, SEQ, FN, REC, SETSET, STR)))
    e = gen(draw, ty, draw(st.integers(1, 4)), Scope())
    env = {n: draw(values_of(t)) for n, t in VARS.items()}
    return e, env


@settings(max_examples=int(os.environ.get("TLACONF_DIFF_EXAMPLES", "400")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(cases())
def test_every_path_agrees_with_the_oracle(case: tuple[E, dict[str, Any]]) -> None:
    check(*case)
