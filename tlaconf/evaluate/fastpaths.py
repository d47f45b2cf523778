"""Inlined fast paths: where the types of values are known (or cheaply tested) at run
time, generated code does a dict lookup, an ``is`` test or a set operation inline and
calls the general runtime helper only otherwise."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tlaconf.evaluate.code import (
    NOCONST,
    PLAIN_TYPES,
    TYPE_NAMES,
    Code,
    Local,
    Scope,
    elem_type,
    is_ident,
)
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names

_SCALAR_TYPES = (str, int, bool)
"""Kinds whose Python ``==`` is TLA+'s between two values of the kind."""


class CodeHost(Protocol):
    """What the fast paths need of the code generator."""

    def fresh(self, prefix: str) -> str: ...
    def sid(self, node: A.Node) -> int: ...
    def expr(self, node: A.Node, sc: Scope) -> Code: ...
    def boolean(self, node: A.Node, sc: Scope) -> str: ...
    def bound_lambda(self, bounds: tuple[A.Bound, ...], sc: Scope,
                     body: Callable[[Scope], str]) -> str: ...


class FastPaths:
    """The inlined fast paths of one compiler: the code of an application, equality,
    membership or set operation that tests the kinds of its values inline and calls the
    general runtime helper only otherwise."""

    def __init__(self, c: CodeHost) -> None:
        self.c = c

    def application(self, f: Code, x: Code, sid: int, sc: Scope) -> Code:
        """``f[x]``: a dict lookup when ``f`` is an :class:`Fn` and ``x`` a string; an
        index when ``f`` is a sequence and ``x`` a positive integer literal."""
        tf, tx = self.tmp(f, sc), self.tmp(x, sc)
        k = x.const
        if type(k) is int and k >= 1 and tf is not None and f.const is NOCONST:
            return Code(f"({tf[1]}[{k - 1}] if type({tf[0]}) is tuple and len({tf[1]}) >= {k} "
                        f"else _ap({tf[1]}, {x.src}, {sid}))")
        look = self.entry_lookup(f, tx, x.ty, sc) if tx is not None else None
        if look is not None and tx is not None:
            test, value = look
            return Code(f"({value} if {test} else _ap({f.src}, {tx[1]}, {sid}))")
        if tf is not None and tx is not None and f.const is NOCONST:
            xcheck = "" if x.ty is str else f" & (type({tx[0]}) is str)"
            if x.ty is str and tx[0] != tx[1]:
                xcheck = f" & ({tx[0]} is not None)"
            return Code(f"({tf[1]}._d[{tx[1]}] if (type({tf[0]}) is _Fn){xcheck} and "
                        f"{tx[1]} in {tf[1]}._d else _ap({tf[1]}, {tx[1]}, {sid}))")
        return Code(f"_ap({f.src}, {x.src}, {sid})")

    def entry_lookup(self, f: Code, x: tuple[str, str], xty: Any, sc: Scope
                     ) -> tuple[str, str] | None:
        """``f[x]`` for ``f`` given at a quantifier's entry and ``x`` (binding, reference)
        a string: ``(test, value)`` sources, the value ``f[x]`` when the test holds (``f`` an
        :class:`Fn` with ``x`` in its domain); for ``x`` an outer loop's variable, the
        lookup is made once per iteration of that loop.  None when ``f`` is not such."""
        d = self.entry_dict(f, sc) if f.const is NOCONST else None
        if d is None:
            return None
        bind, ref = x
        xcheck = (f"type({bind}) is str and " if xty is not str
                  else "" if bind == ref else f"{bind} is not None and ")
        loop = sc.loops.get(ref) if sc.loops is not None and bind == ref else None
        if loop is None:
            return f"{xcheck}{bind} in {d}", f"{d}[{ref}]"
        u = f"_u_{f.src}_{ref}"
        loop.setdefault(u, f"({d}[{ref}] if {xcheck}{ref} in {d} else _MISS)")
        return f"{u} is not _MISS", u

    def entry_dict(self, f: Code, sc: Scope) -> str | None:
        """Inside a quantifier, for ``f`` given at its entry: a name computed once there,
        the dict of ``f`` when it is an :class:`Fn` (else an empty one); else None."""
        if sc.hoist is None or not f.src.isidentifier() or f.src not in sc.entry:
            return None
        key = f"_d_{f.src}"
        sc.hoist.setdefault(key, f"({f.src}._d if type({f.src}) is _Fn else _NOD)")
        return key

    def tmp(self, code: Code, sc: Scope) -> tuple[str, str] | None:
        """``(binding, reference)`` evaluating ``code`` once, or None where ``:=`` is not
        allowed."""
        if is_ident(code.src):
            return code.src, code.src
        if sc.iterable:
            return None
        t = self.c.fresh("t_")
        return f"({t} := {code.src})", t

    def equality(self, a: Code, b: Code, sid: int, sc: Scope, negate: bool) -> Code:
        """``a = b``: plain ``==`` when both kinds are known equal, else a type test first."""
        ne = "not " if negate else ""
        eqop = "!=" if negate else "=="
        if a.ty is not None and a.ty is b.ty and a.ty in (str, int):
            return Code(f"({a.src} {eqop} {b.src})", True)
        if a.ty is not None and a.ty is b.ty and a.ty in PLAIN_TYPES:
            return Code(f"({ne}_same({a.src}, {b.src}, {sid}))", True)
        if b.const == frozenset() and type(b.const) is frozenset:
            ta = self.tmp(a, sc)
            if ta is not None:
                test = f"len({ta[1]}) {'!=' if negate else '=='} 0"
                return Code(f"({test} if type({ta[0]}) is frozenset "
                            f"else {ne}_eqs({ta[1]}, _EMPTY, {sid}))", True)
        known = a.ty if a.ty in PLAIN_TYPES else b.ty if b.ty in PLAIN_TYPES else None
        if known is not None:
            other, fixed = (b, a) if known is a.ty else (a, b)
            to = self.tmp(other, sc)
            if to is not None and is_ident(fixed.src):
                tname = TYPE_NAMES[known]
                test = (f"{to[1]} {eqop} {fixed.src}" if known in _SCALAR_TYPES
                        else f"{ne}_same({to[1]}, {fixed.src}, {sid})")
                return Code(f"({test} if type({to[0]}) is {tname} "
                            f"else {ne}_eqs({to[1]}, {fixed.src}, {sid}))", True)
        ta, tb = self.tmp(a, sc), self.tmp(b, sc)
        if ta is not None and tb is not None:  # scalars of one kind: Python's == is TLA+'s
            return Code(f"(({ta[1]} {eqop} {tb[1]}) if type({ta[0]}) is type({tb[0]}) and "
                        f"type({ta[1]}) in _SCALARS else "
                        f"{ne}_same({ta[1]}, {tb[1]}, {sid}) if type({ta[1]}) is "
                        f"type({tb[1]}) and type({ta[1]}) in _PLAIN else "
                        f"{ne}_eqs({ta[1]}, {tb[1]}, {sid}))", True)
        return Code(f"({ne}_eq({a.src}, {b.src}, {sid}))", True)

    def membership(self, x: Code, s: Code, sid: int, sc: Scope, negate: bool) -> Code:
        ne = "not " if negate else ""
        ety = elem_type(s.const)
        if ety is str or ety is int:
            if x.ty is ety:
                return Code(f"({x.src} {'not in' if negate else 'in'} {s.src})", True)
            tx = self.tmp(x, sc)
            if tx is not None:
                return Code(f"({ne}({tx[1]} in {s.src}) if type({tx[0]}) is "
                            f"{TYPE_NAMES[ety]} else {ne}_in({tx[1]}, {s.src}, {sid}))", True)
        tx, ts = self.tmp(x, sc), self.tmp(s, sc)
        if tx is not None and ts is not None and x.ty in (str, None):
            return Code(f"({ne}True if (type({ts[0]}) is frozenset) & (type({tx[0]}) is str) "
                        f"and {tx[1]} in {ts[1]} else {ne}_in({tx[1]}, {ts[1]}, {sid}))", True)
        return Code(f"({ne}_in({x.src}, {s.src}, {sid}))", True)

    def disjointness(self, node: A.Node, args: tuple[A.Expr, ...], sc: Scope,
                     negate: bool) -> Code | None:
        """``S \\cap T = {}`` as ``S.isdisjoint(T)`` (no intersection is built)."""
        inter, empty = args
        if isinstance(inter, A.SetEnum) and not inter.elems:
            inter, empty = empty, inter
        if not (isinstance(empty, A.SetEnum) and not empty.elems and isinstance(inter, A.OpApp)
                and inter.name == "\\cap" and not inter.module and len(inter.args) == 2):
            return None
        if sc.iterable or (inter.name in sc.ns.entries
                           and sc.ns.entries[inter.name].kind != "builtin"):
            return None
        ca, cb = (self.c.expr(x, sc) for x in inter.args)
        a, b = self.tmp(ca, sc), self.tmp(cb, sc)
        if a is None or b is None or not a[1].isidentifier() or not b[1].isidentifier():
            return None
        sid = self.c.sid(node)
        ne = "not " if negate else ""
        known = self.same_kinds(inter.args, sc)
        # only "disjoint" is decided here (kinds checked): common elements may be <<1>> and
        # <<TRUE>>
        src = (f"(type({a[0]}) is frozenset) & "
               f"(type({b[0]}) is frozenset) and {a[1]}.isdisjoint({b[1]}) and "
               f"({known + ' or ' if known else ''}"
               f"not {a[1]} or not {b[1]} or next(iter({a[1]})).__class__ is "
               f"next(iter({b[1]})).__class__ is int or _disjoint({a[1]}, {b[1]}, {sid}))")
        fast = self.entry_disjoint(inter.args, known, sc) if known else None
        if fast is not None:  # f's values are sets of one kind: f[a], f[b] need no checks
            src = f"({fast}) or {src}"
        return Code(f"({not negate} if {src} else "
                    f"{ne}_eqs(_cap({a[1]}, {b[1]}, {sid}), _EMPTY, {sid}))", True)

    def same_kinds(self, sets: tuple[A.Expr, ...], sc: Scope) -> str | None:
        """For ``f[a] \\cap f[b]`` inside a quantifier, with ``f`` given at its entry: a
        name computed once there, TRUE when ``f``'s values are sets of one kind (so the
        pairs need no kind check); else None."""
        apps = [x for x in sets if isinstance(x, A.FnApp) and len(x.args) == 1]
        if sc.hoist is None or len(apps) != len(sets):
            return None
        fns = {self.c.expr(x.fn, sc).src for x in apps}
        if len(fns) != 1:
            return None
        f = fns.pop()
        if not f.isidentifier() or f not in sc.entry:
            return None
        key = f"_k_{f}"
        sc.hoist.setdefault(key, f"_fn_kinds({f})")
        return key

    def entry_disjoint(self, apps: tuple[A.Expr, ...], known: str, sc: Scope
                       ) -> str | None:
        """``f[a] \\cap f[b] = {}`` when ``known`` (``f``'s values are sets of one kind)
        and ``a``, ``b`` are names in ``DOMAIN f``: the test of :meth:`entry_lookup` for
        each, then ``isdisjoint``; None when an argument is not a name."""
        parts = [known]
        values = []
        for app in apps:
            assert isinstance(app, A.FnApp)
            f, x = self.c.expr(app.fn, sc), self.c.expr(app.args[0], sc)
            if not x.src.isidentifier():
                return None
            look = self.entry_lookup(f, (x.src, x.src), x.ty, sc)
            if look is None:
                return None
            parts.append(look[0])
            values.append(look[1])
        return " and ".join([*parts, f"{values[0]}.isdisjoint({values[1]})"])

    def pairwise_disjoint(self, node: A.Quant, sc: Scope) -> str | None:
        """For ``\\A a, b \\in S : a # b => f[a] \\cap f[b] = {}`` (``f`` a name, ``S`` a
        name or a constant): the source of a call deciding it in one pass,
        ``_pairwise(f, S)`` (TRUE, FALSE, or None when the general loop must decide), for
        the quantifier's function to try first.  None when ``node`` is no such idiom."""
        if node.kind != "A" or sc.iterable:
            return None
        names = [n for b in node.bounds for n in b.names]
        if (len(names) != 2 or len(set(names)) != 2
                or any(b.tuple_pattern or b.domain is None for b in node.bounds)):
            return None
        dom = node.bounds[0].domain
        assert dom is not None
        if len(node.bounds) == 2 and not (
                _name(dom) is not None and _name(dom) == _name(node.bounds[1].domain)):
            return None
        imp = self.builtin_app(node.body, "=>", sc)
        guard = self.builtin_app(imp[0], "/=", sc) if imp else None
        eq = self.builtin_app(imp[1], "=", sc) if imp else None
        if guard is None or eq is None or {_name(x) for x in guard} != set(names):
            return None
        inter, empty = eq if isinstance(eq[1], A.SetEnum) else (eq[1], eq[0])
        apps = self.builtin_app(inter, "\\cap", sc)
        if not (isinstance(empty, A.SetEnum) and not empty.elems and apps):
            return None
        fns: set[str | None] = set()
        for app in apps:
            if not (isinstance(app, A.FnApp) and len(app.args) == 1
                    and _name(app.args[0]) in names and _name(app.fn) not in names):
                return None
            fns.add(self.plain_value(app.fn, sc))
        if {_name(app.args[0]) for app in apps if isinstance(app, A.FnApp)} != set(names):
            return None
        f, d = fns.pop() if len(fns) == 1 else None, self.plain_value(dom, sc)
        if f is None or d is None:
            return None
        return f"_pairwise({f}, {d})"

    def plain_value(self, node: A.Expr, sc: Scope) -> str | None:
        """A Python name holding the value of ``node`` that can be read without raising (a
        parameter, possibly a deferred error, or a constant), else None."""
        loc = sc.locals.get(_name(node) or "")
        if loc is not None and loc.kind in ("val", "maybe"):
            return loc.py
        src = self.c.expr(node, sc).src
        return src if src.isidentifier() else None

    @staticmethod
    def builtin_app(node: A.Node, name: str, sc: Scope) -> tuple[A.Expr, ...] | None:
        """The two arguments of ``node`` when it applies the standard operator ``name``."""
        if (isinstance(node, A.OpApp) and node.name == name and not node.module
                and len(node.args) == 2
                and (name not in sc.ns.entries or sc.ns.entries[name].kind == "builtin")):
            return node.args
        return None

    def set_fold(self, entry: Any, sc: Scope, args: list[str], general: str) -> str | None:
        """For the recursive fold over a set, ``Op(.., S, ..) == IF S = {} THEN base ELSE
        LET x == CHOOSE y \\in S : TRUE IN E(x) (+) Op(.., S \\ {x}, ..)`` (or ``Op(..) (+)
        E(x)``), ``(+)`` a standard operator that evaluates both arguments, ``E`` using
        neither ``S`` nor ``Op``: the body of a function (of ``args``) doing it in a loop
        over ``S`` in CHOOSE's order (one sort, no set rebuilt per element, no recursion),
        in the recursion's order of evaluation and so with its errors.  ``general`` is the
        recursive function: it gives the base (called with ``S = {}``) and decides when
        ``S`` is not a finite set.  None when the definition is no such fold."""
        node = entry.node
        if not (isinstance(node, A.OpDef) and isinstance(node.body, A.If)
                and all(p.arity == 0 for p in node.params)):
            return None
        names = [p.name for p in node.params]
        test, let = self.builtin_app(node.body.cond, "=", sc), node.body.else_
        if test is None or not isinstance(let, A.Let) or len(let.defs) != 1:
            return None
        s_name = next((_name(a) for a in test if _name(a) in names), None)
        if s_name is None or not any(isinstance(a, A.SetEnum) and not a.elems for a in test):
            return None
        x = let.defs[0]
        if not (isinstance(x, A.OpDef) and not x.params and isinstance(x.body, A.Choose)
                and _name(x.body.bound.domain) == s_name and not x.body.bound.tuple_pattern
                and len(x.body.bound.names) == 1 and isinstance(x.body.body, A.Bool)
                and x.body.body.value is True and x.name not in names):
            return None
        op = let.body
        if not (isinstance(op, A.OpApp) and op.name in _STRICT_FOLDS
                and self.builtin_app(op, op.name, sc)):
            return None
        shapes = [(right, e) for right, (e, rec) in ((True, op.args), (False, op.args[::-1]))
                  if self._recursive_call(rec, node.name, names, s_name, x.name)
                  and not {n for n, _ in free_names(e, set())} & {s_name, node.name}]
        if not shapes:
            return None
        right, e = shapes[0]
        v, acc, ev, elems = (self.c.fresh(p) for p in ("v_", "acc_", "e_", "es_"))
        e_code = self.c.expr(e, sc.bind({x.name: Local(v)})).src
        combine = A.OpApp(op.name, (A.Name("\\e"), A.Name("\\acc")) if right
                          else (A.Name("\\acc"), A.Name("\\e")), span=op.span)
        step = self.c.expr(combine, sc.bind({"\\e": Local(ev), "\\acc": Local(acc)})).src
        s_py = sc.locals[s_name].py
        base = ", ".join("_EMPTY" if a == s_py else a for a in args)
        lines = [f"{elems} = _fold_elems({s_py})",
                 f"if {elems} is None:", f"    return {general}({', '.join(args)})"]
        if right:  # E(x1), E(x2), ... first, then base, then (+) from the innermost
            lines += [f"{elems} = [{e_code} for {v} in {elems}]", f"{acc} = {general}({base})",
                      f"for {ev} in {elems}[::-1]:"]
        else:  # base, then E(xn) (+), E(xn-1) (+), ...
            lines += [f"{acc} = {general}({base})", f"for {v} in {elems}[::-1]:",
                      f"    {ev} = {e_code}"]
        lines += [f"    {acc} = {step}", f"return {acc}"]
        return "".join(f"    {line}\n" for line in lines)

    @staticmethod
    def _recursive_call(rec: A.Node, op: str, names: list[str], s_name: str, x: str) -> bool:
        """Whether ``rec`` is ``op`` applied to its own parameters, ``S`` replaced by
        ``S \\ {x}``."""
        if not (isinstance(rec, A.OpApp) and rec.name == op and not rec.module
                and len(rec.args) == len(names)):
            return False
        for a, n in zip(rec.args, names, strict=True):
            if n != s_name:
                if _name(a) != n:
                    return False
            elif not (isinstance(a, A.OpApp) and a.name == "\\" and not a.module
                      and len(a.args) == 2 and _name(a.args[0]) == s_name
                      and isinstance(a.args[1], A.SetEnum) and len(a.args[1].elems) == 1
                      and _name(a.args[1].elems[0]) == x):
                return False
        return True

    def filter_membership(self, x: A.Expr, flt: A.SetFilter, sc: Scope,
                          negate: bool) -> Code:
        """``x \\in {y \\in S : P}`` without building the filter where TLC does not build it
        (``S`` neither an enumerated set nor an interval: ``x \\in S /\\ P(x)``)."""
        b = flt.bound
        if b.domain is None:
            return Code(f"_unbounded({self.c.sid(flt)})", True)
        lam = self.c.bound_lambda((b,), sc, lambda s: self.c.boolean(flt.pred, s))
        k = len(b.names) if b.tuple_pattern else 0
        src = (f"_in_filter({self.c.expr(x, sc).src}, {self.c.expr(b.domain, sc).src}, {lam}, {k}, "
               f"{self.c.sid(flt)})")
        return Code(f"(not {src})" if negate else src, True)

    def set_binop(self, op: str, a: Code, b: Code, sid: int, sc: Scope) -> Code:
        """``S \\cup T``, ``S \\cap T``, ``S \\ T``: always through the runtime helper, which
        refuses sets that mix ``<<1>>`` and ``<<TRUE>>`` (Python's ``|`` would merge them)."""
        ty = frozenset if a.ty is frozenset and b.ty is frozenset else None
        return Code(f"_{op}({a.src}, {b.src}, {sid})", ty=ty)


_STRICT_FOLDS = frozenset({"+", "-", "*", "\\cup", "\\cap", "\\", "\\o"})
"""Standard operators that evaluate both arguments (a fold of ``/\\`` may stop early)."""


def _name(node: A.Node | None) -> str | None:
    return node.name if isinstance(node, A.Name) and not node.module else None
