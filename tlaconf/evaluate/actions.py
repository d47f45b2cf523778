"""Actions compiled into successor functions: the explorer's hot path.

The tree walk of :class:`~tlaconf.evaluate.enabled.Enabler` decides, at every step of
every state, what each node of the action is (an assignment, a test, a branch, a call
to follow) and evaluates each leaf through a snippet looked up by its bound names.
Here those decisions are taken once per action: the action becomes a chain of Python
closures in continuation-passing style, each calling the next (its continuation) for
every assignment it allows, with the leaves (guards, right-hand sides, domains) as
compiled snippets called with the bound values straight from a flat tuple.

What it computes is the tree walk's, in the same order and with the same errors: a
conjunct ``x' = e`` assigns when ``x'`` is still unassigned (a dynamic test, as a
disjunction before it may have assigned it), else it is a guard; ``x' \\in S`` tries
the elements of ``S`` in TLC's order; ``\\/``, ``\\E``, ``IF``, ``CASE``, ``LET``,
``UNCHANGED``, ``[A]_v``/``<<A>>_v`` and calls of actions (or of operators passed an
unassigned ``x'``, whose parameter then stands for the expression, by name) are
followed as the walk follows them; every other conjunct is a guard evaluated where it
is written, pruning before later conjuncts are computed.  What is not compiled raises
:class:`Uncompiled` when the action is compiled (a recursive action), and the caller
walks that action instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from tlaconf.evaluate.actionwalk import no_case_arm
from tlaconf.evaluate.assigned import unchanged_sites
from tlaconf.evaluate.compiler import Compiler, flatten_tuple
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import enum_set
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.runtime import NextState, _Deferred
from tlaconf.evaluate.semantics import as_bool, equal
from tlaconf.evaluate.walk import Binding, Env, Walker
from tlaconf.tla import ast as A
from tlaconf.tla.visit import iter_nodes
from tlaconf.values import canonical

Run = Callable[[Any, NextState, tuple[Any, ...]], None]
"""A compiled piece of an action: called with the state, the primed variables assigned so
far and the bound values; calls its continuation once per assignment it allows."""
Leaf = Callable[[Any, Any, tuple[Any, ...]], Any]
"""A compiled expression: called with the state, the next state and the bound values."""


Bind = Callable[[Any, NextState, tuple[Any, ...]], tuple[Any, ...]]
"""Binds a call's parameters: the runtime tuple of the called body."""
Target = tuple[Bind, "Scope", A.Node, Any]


class Uncompiled(Exception):
    """An action the compiler does not turn into code (the tree walk takes it)."""


class Cursor:
    """What the compiled code of one action shares during one call: the assignment the
    leaves are evaluated in (read by arguments passed by name and LET definitions when
    they are forced), and the label of the successors being found."""

    __slots__ = ("N", "label")

    def __init__(self) -> None:
        self.N: Any = None
        self.label: Any = None


@dataclass(frozen=True)
class Scope:
    """The names bound where code is compiled: ``env`` as the tree walk has it (values
    unknown), ``slots[i]`` the position of ``env.bindings[i]``'s value in the runtime
    tuple, which is ``depth`` long here."""

    ns: Namespace
    env: Env
    slots: tuple[int, ...]
    depth: int

    def extend(self, *items: Binding) -> Scope:
        n = len(items)
        return Scope(self.ns, self.env.extend(*items),
                     self.slots + tuple(range(self.depth, self.depth + n)), self.depth + n)


class ActionCompiler:
    """Compiles actions of one loaded module (``comp``), sharing ``cur`` with the code."""

    def __init__(self, comp: Compiler) -> None:
        self.comp = comp
        self.walker: Walker[Any, Any] = Walker(comp)
        self.cur = Cursor()
        self._scopes: dict[int, Scope] = {}
        self._open: list[int] = []

    # ------------------------------------------------------------------ scopes

    def scope(self, ns: Namespace, env: Env, slots: tuple[int, ...], depth: int) -> Scope:
        sc = Scope(ns, env, slots, depth)
        self._scopes[id(env)] = sc
        return sc

    def extend(self, sc: Scope, *items: Binding) -> Scope:
        new = sc.extend(*items)
        self._scopes[id(new.env)] = new
        return new

    def scope_of(self, ns: Namespace, env: Env, depth: int) -> Scope:
        """The scope of an environment the tree walk's helpers hand back."""
        if not env.bindings:
            return Scope(ns, env, (), depth)
        known = self._scopes.get(id(env))
        if known is None or known.env is not env:
            raise Uncompiled("an environment the compiler did not make")
        return Scope(ns, env, known.slots, depth)

    # ------------------------------------------------------------------ leaves

    def snippet(self, node: A.Node, sc: Scope, primed: bool = False
                ) -> tuple[Callable[..., Any], str]:
        """``node`` compiled in ``sc`` (a snippet of the compiler), and the source of its
        arguments after the state and next state (``_e[i]``: the bound values)."""
        try:
            fn = self.comp.snippet(node, sc.ns, _sig(sc), primed)
        except (Fail, RecursionError) as err:  # raised where it is evaluated, as the walk's
            fn = _raising(err)
        return fn, _args(sc)

    def generate(self, src: str, **names: Any) -> Any:
        """The function ``src`` defines (named ``_f``), with ``names`` as its globals."""
        g = {"_as_bool": as_bool, "_NextState": NextState, **names}
        exec(src, g)
        return g["_f"]

    def leaf(self, node: A.Node, sc: Scope, primed: bool = False) -> Leaf:
        """``node`` compiled in ``sc``: a function of the state, the next state and the
        bound values."""
        fn, args = self.snippet(node, sc, primed)
        return cast(Leaf, self.generate(
            f"def _f(_S, _N, _e):\n    return _fn(_S, _N{args})\n", _fn=fn))

    def test(self, node: A.Node, sc: Scope) -> Callable[[Any, Any, tuple[Any, ...]], bool]:
        fn, args = self.snippet(node, sc)
        return cast(Callable[[Any, Any, tuple[Any, ...]], bool], self.generate(
            f"def _f(_S, _N, _e):\n    _v = _fn(_S, _N{args})\n"
            "    return _v if _v is True or _v is False else _as_bool(_v, _sid)\n",
            _fn=fn, _sid=self.comp.sid(node)))

    def arg_value(self, arg: A.Expr, arity: int, sc: Scope) -> Leaf:
        """An operator argument as a value (a callable when ``arity`` > 0)."""
        if not arity:
            return self.leaf(arg, sc)
        try:
            fn = self.comp.arg_snippet(arg, arity, sc.ns, _sig(sc))
        except (Fail, RecursionError) as err:
            fn = _raising(err)
        args = _args(sc)
        return cast(Leaf, self.generate(
            f"def _f(_S, _N, _e):\n    return _fn(_S, _N{args})\n", _fn=fn))

    # ------------------------------------------------------------------ actions

    def action(self, node: A.Node, sc: Scope, k: Run) -> Run:
        """``node`` as an action in ``sc``, continued by ``k``."""
        while isinstance(node, A.Label):
            node = node.expr
        if isinstance(node, A.Junction):
            if node.op == "/\\":
                for item in reversed(node.items):
                    k = self.action(item, sc, k)
                return k
            return self.disj([self.action(i, sc, k) for i in node.items])
        if isinstance(node, A.OpApp):
            if not node.module and node.name in ("=", "\\in"):
                return self.relation(node, sc, k)
            return self.call(node, sc, k)
        if isinstance(node, A.Name):
            return self.call(node, sc, k)
        if isinstance(node, A.Quant) and node.kind == "E":
            return self.exists(node, sc, k)
        if isinstance(node, A.If):
            return self.if_(node, sc, k)
        if isinstance(node, A.Case):
            return self.case(node, sc, k)
        if isinstance(node, A.Let):
            return self.let(node, sc, lambda inner: self.action(node.body, inner,
                                                                _restore(k, sc.depth)))
        if isinstance(node, A.Unchanged):
            return self.unchanged(node.expr, sc, k)
        if isinstance(node, A.ActionBox):
            return self.box(node, sc, k)
        return self.guard(node, sc, k)

    def guard(self, node: A.Node, sc: Scope, k: Run) -> Run:
        fn, args = self.snippet(node, sc)
        return cast(Run, self.generate(
            "def _f(_S, _a, _e):\n"
            "    _cur.N = _a\n"
            f"    _v = _fn(_S, _a{args})\n"
            "    if _v is True:\n"
            "        _k(_S, _a, _e)\n"
            f"    elif _v is not False and _as_bool(_v, {self.comp.sid(node)}):\n"
            "        _k(_S, _a, _e)\n", _fn=fn, _k=k, _cur=self.cur))

    @staticmethod
    def disj(runs: list[Run]) -> Run:
        if len(runs) == 1:
            return runs[0]

        def run(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            for r in runs:
                r(S, a, e)

        return run

    def relation(self, node: A.OpApp, sc: Scope, k: Run) -> Run:
        var = self.walker.primed_var(node.args[0], sc.ns, sc.env)
        if var is None:
            return self.call(node, sc, k)
        otherwise, cur = self.call(node, sc, k), self.cur
        if node.name == "=":
            fn, args = self.snippet(node.args[1], sc)
            return cast(Run, self.generate(
                "def _f(_S, _a, _e):\n"
                "    if _var in _a:\n"
                "        _otherwise(_S, _a, _e)\n"
                "        return\n"
                "    _cur.N = _a\n"
                "    _n = _NextState(_a)\n"
                f"    _n[_var] = _fn(_S, _a{args})\n"
                "    _k(_S, _n, _e)\n",
                _fn=fn, _k=k, _cur=cur, _var=var, _otherwise=otherwise))

        rhs, sid, ordered = self.leaf(node.args[1], sc), self.comp.sid(node), _Ordered()

        def choose(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            if var in a:
                otherwise(S, a, e)
                return
            cur.N = a
            for v in ordered(rhs(S, a, e), sid):
                n = NextState(a)
                n[var] = v
                k(S, n, e)

        return choose

    def exists(self, node: A.Quant, sc: Scope, k: Run) -> Run:
        domains, inner = self.bounds(node, sc)
        body = self.action(node.body, inner, _restore(k, sc.depth))
        cur = self.cur

        def run(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            cur.N = a
            for values in domains(S, a, e):
                body(S, a, e + values)

        return run

    def bounds(self, node: A.Quant, sc: Scope
               ) -> tuple[Callable[[Any, Any, tuple[Any, ...]], Iterable[tuple[Any, ...]]],
                          Scope]:
        """The bindings of ``\\E``'s names (the product of their domains, each in TLC's
        order) as a function of the state, and the scope of its body."""
        sid = self.comp.sid(node)
        groups: list[tuple[Leaf | None, int, bool]] = []
        names: list[str] = []
        for b in node.bounds:
            dom = None if b.domain is None else self.leaf(b.domain, sc)
            groups.append((dom, len(b.names), b.tuple_pattern))
            names.extend(b.names)
        inner = self.extend(sc, *(Binding(n, "val", 0, None) for n in names))

        ordered = _Ordered()

        def bindings(S: Any, N: Any, e: tuple[Any, ...]) -> Iterable[tuple[Any, ...]]:
            opts: list[list[tuple[Any, ...]]] = []
            for dom, n, pattern in groups:
                if dom is None:
                    raise Fail("an unbounded quantifier cannot be evaluated", (), sid)
                elems = ordered(dom(S, N, e), sid)
                if pattern:
                    for t in elems:
                        if type(t) is not tuple or len(t) != n:
                            raise Fail("an element does not match the tuple pattern", (), sid)
                    opts.append(elems)
                else:
                    opts.extend([[(v,) for v in elems]] * n)
            if len(opts) == 1:
                return opts[0]
            return [sum(combo, ()) for combo in itertools.product(*opts)]

        return bindings, inner

    def if_(self, node: A.If, sc: Scope, k: Run) -> Run:
        cond, cur = self.test(node.cond, sc), self.cur
        then, else_ = self.action(node.then, sc, k), self.action(node.else_, sc, k)

        def run(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            cur.N = a
            (then if cond(S, a, e) else else_)(S, a, e)

        return run

    def case(self, node: A.Case, sc: Scope, k: Run) -> Run:
        arms = [(self.test(g, sc), self.action(arm, sc, k)) for g, arm in node.arms]
        other = None if node.other is None else self.action(node.other, sc, k)
        cur, sid = self.cur, self.comp.sid(node)

        def run(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            cur.N = a
            for guard, arm in arms:
                if guard(S, a, e):
                    arm(S, a, e)
                    return
            if other is None:
                raise no_case_arm(sid)
            other(S, a, e)

        return run

    def let(self, node: A.Let, sc: Scope, body: Callable[[Scope], Any]) -> Any:
        """``LET`` binding its definitions (a zero-arity one as a value computed when
        first needed, one with parameters as an operator), then ``body`` of the scope
        inside (a :data:`Run`, or a split's function of the same first three
        arguments)."""
        makers: list[Callable[[Any, tuple[Any, ...]], Any]] = []
        inner = sc
        for d in node.defs:
            if isinstance(d, A.OpDef) and not d.params:
                makers.append(self._lazy(d.body, inner))
                inner = self.extend(inner, Binding(d.name, "lazy", 0, None,
                                                   (d, inner.ns, inner.env)))
            elif isinstance(d, A.OpDef):
                makers.append(self._eager(self.walker.wrapper(d), inner))
                inner = self.extend(inner, Binding(d.name, "op", len(d.params), None,
                                                   (d, inner.ns, inner.env)))
            elif isinstance(d, A.FnDef):
                makers.append(self._lazy(self.walker.wrapper(d), inner))
                inner = self.extend(inner, Binding(d.name, "lazy", 0, None))
        run_body = body(inner)
        cur = self.cur

        def run(S: Any, a: NextState, e: tuple[Any, ...], *rest: Any) -> None:
            cur.N = a
            for make in makers:
                e = (*e, make(S, e))
            run_body(S, a, e, *rest)

        return run

    def _lazy(self, body: A.Node, sc: Scope) -> Callable[[Any, tuple[Any, ...]], Any]:
        leaf, cur = self.leaf(body, sc), self.cur

        def make(S: Any, e: tuple[Any, ...]) -> Callable[[], Any]:
            cell: list[Any] = []

            def get() -> Any:
                if not cell:
                    cell.append(leaf(S, cur.N, e))
                return cell[0]

            return get

        return make

    def _eager(self, node: A.Node, sc: Scope) -> Callable[[Any, tuple[Any, ...]], Any]:
        leaf, cur = self.leaf(node, sc), self.cur
        return lambda S, e: leaf(S, cur.N, e)

    def unchanged(self, target: A.Expr, sc: Scope, k: Run) -> Run:
        sites: list[tuple[str | None, Leaf | None, Leaf | None, int]] = []
        for it, ins, ienv in unchanged_sites(self.walker, target, sc.ns, sc.env):
            var = self.walker.var_name(it, ins, ienv)
            isc = self.scope_of(ins, ienv, sc.depth)
            sites.append((var, self.leaf(it, isc, primed=True), self.leaf(it, isc),
                          self.comp.sid(it)))
        cur = self.cur

        def run(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            out = NextState(a)
            for var, after, before, sid in sites:
                if var is not None and var not in out:
                    out[var] = S[var]
                    continue
                n = NextState(out)
                cur.N = n
                assert after is not None and before is not None
                if not equal(after(S, n, e), before(S, n, e), sid):
                    return
            k(S, out, e)

        return run

    def box(self, node: A.ActionBox, sc: Scope, k: Run) -> Run:
        if not node.angle:
            return self.disj([self.action(node.action, sc, k), self.unchanged(node.sub, sc, k)])
        items = [(self.leaf(it, sc, primed=True), self.leaf(it, sc), self.comp.sid(it))
                 for it in flatten_tuple(node.sub)]
        cur = self.cur

        def changed(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            for after, before, sid in items:
                n = NextState(a)
                cur.N = n
                if not equal(after(S, n, e), before(S, n, e), sid):
                    k(S, a, e)
                    return

        return self.action(node.action, sc, changed)

    # ------------------------------------------------------------------ calls

    def call(self, node: A.Name | A.OpApp, sc: Scope, k: Run) -> Run:
        """A call: followed into the operator's body when it is an action or is passed a
        still unassigned ``x'`` (as the tree walk decides), else a guard."""
        guard = self.guard(node, sc, k)
        always, primed = self.may_assign(node, sc)
        if not always and not primed:
            return guard
        target = self.target(node, sc)
        if target is None:
            return guard
        bind, inner, body_node, _ = target
        back = _restore(k, sc.depth)
        body = self.enter(target, lambda: self.action(body_node, inner, back))
        cur = self.cur

        def follow(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            cur.N = a
            body(S, a, bind(S, a, e))

        if always:
            return follow

        def maybe(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            for v in primed:
                if v not in a:
                    follow(S, a, e)
                    return
            guard(S, a, e)

        return maybe

    def may_assign(self, node: A.Name | A.OpApp, sc: Scope) -> tuple[bool, list[str]]:
        """Whether a call is always followed (its body is an action), and the variables
        whose ``x'`` it is passed (followed when one of them is still unassigned)."""
        primed = [v for a in getattr(node, "args", ())
                  if (v := self.walker.primed_var(a, sc.ns, sc.env)) is not None]
        if any(self._is_action(d) for a in getattr(node, "args", ())
               if (d := self.walker.stands_for(a, sc.ns, sc.env)) is not None):
            return True, primed  # passed an action (a LAMBDA that assigns): followed
        if not node.module:
            b = sc.env.get(node.name)
            if b is not None:
                if b.defn is None:
                    return False, primed
                return self._is_action(b.defn), primed
        entry = self.comp.resolve_entry(sc.ns, node.name, node.module)
        return entry is not None and self.comp.entry_is_action(entry), primed

    def enter(self, target: Target, build: Callable[[], Any]) -> Any:
        """``build()`` (the code of a called body), refusing a call of an action inside its
        own body (a recursive action is walked)."""
        key = id(target[3])
        if key in self._open:
            raise Uncompiled("a recursive action")
        self._open.append(key)
        try:
            return build()
        finally:
            self._open.pop()

    def target(self, node: A.Name | A.OpApp, sc: Scope) -> Target | None:
        """For a call of a user-defined operator (the tree walk's ``call_target`` with
        arguments by name): a function binding its parameters (it returns the runtime
        tuple of the body), the body's scope, the body, and the definition."""
        args = getattr(node, "args", ())
        if not node.module:
            b = sc.env.get(node.name)
            if b is not None:
                if b.defn is None:
                    return None
                d, dns, denv = b.defn
                bind, inner = self.params(d.params, args, sc, self.scope_of(dns, denv, sc.depth))
                return bind, inner, d.body, d
        entry = self.comp.resolve_entry(sc.ns, node.name, node.module)
        if entry is None:
            return None
        if entry.kind == "subst":
            assert entry.ns is not None
            return _same_values, Scope(entry.ns, Env(), (), sc.depth), entry.node, entry
        if entry.ns is not None and entry.ns.inst_params:
            return None
        if entry.kind == "op" and len(entry.node.params) == len(args):
            assert entry.ns is not None
            bind, inner = self.params(entry.node.params, args, sc,
                                      Scope(entry.ns, Env(), (), sc.depth))
            return bind, inner, entry.node.body, entry
        return None

    def params(self, params: tuple[A.Param, ...], args: tuple[A.Expr, ...], sc: Scope,
               outer: Scope) -> tuple[Bind, Scope]:
        """The parameters bound as the tree walk binds them (by name when the argument
        depends on the state or on bound names, an operator for a higher-order one, else
        its value, an error in it deferred to where it is used)."""
        makers: list[Callable[[Any, NextState, tuple[Any, ...]], Any]] = []
        binds: list[Binding] = []
        for p, a in zip(params, args, strict=True):
            slot = None if p.arity else _bound_value(a, sc)
            if slot is not None:  # a bound value: the same whether passed by name or not
                makers.append(_SlotReader(slot))
                binds.append(Binding(p.name, "val", 0, None))
            elif not p.arity and self.walker._passed_by_name(a, sc.ns, sc.env):
                makers.append(self._by_name(a, sc))
                binds.append(Binding(p.name, "lazy", 0, None, expr=(a, sc.ns, sc.env)))
            elif p.arity:
                leaf = self.arg_value(a, p.arity, sc)
                makers.append(leaf)
                binds.append(Binding(p.name, "op", p.arity, None,
                                     self.walker.stands_for(a, sc.ns, sc.env)))
            else:
                makers.append(self._strict(self.leaf(a, sc)))
                binds.append(Binding(p.name, cast(Any, "maybe"), 0, None))
        inner = Scope(outer.ns, outer.env, outer.slots, sc.depth)
        inner = self.extend(inner, *binds)
        cur = self.cur
        if all(type(m) is _SlotReader for m in makers):  # values bound already: no code
            slots = "".join(f"_e[{cast(_SlotReader, m).slot}], " for m in makers)
            return cast(Bind, self.generate(f"def _f(_S, _a, _e):\n    return _e + ({slots})\n")
                        ), inner

        def bind(S: Any, a: NextState, e: tuple[Any, ...]) -> tuple[Any, ...]:
            cur.N = a
            return (*e, *(m(S, a, e) for m in makers))

        return bind, inner

    def _is_action(self, defn: tuple[A.OpDef, Namespace, Env], seen: frozenset[int] = frozenset()
                   ) -> bool:
        """Whether a definition's body is an action, also through the operators its
        environment binds (a ``LAMBDA`` that applies the action it was passed)."""
        d, dns, denv = defn
        if self.comp.node_is_action(d.body, dns, {p.name for p in d.params}):
            return True
        for n in iter_nodes(d.body):
            if isinstance(n, A.Name | A.OpApp) and not n.module:
                b = denv.get(n.name)
                if (b is not None and b.defn is not None and id(b.defn) not in seen
                        and self._is_action(b.defn, seen | {id(defn)})):
                    return True
        return False

    @staticmethod
    def _strict(leaf: Leaf) -> Leaf:
        def value(S: Any, N: Any, e: tuple[Any, ...]) -> Any:
            try:
                return leaf(S, N, e)
            except Fail as err:  # raised only where the operator uses it, as TLC
                return _Deferred(err)

        return value

    def _by_name(self, a: A.Expr, sc: Scope) -> Leaf:
        leaf, cur = self.leaf(a, sc), self.cur

        def make(S: Any, N: Any, e: tuple[Any, ...]) -> Callable[[], Any]:
            cell: list[Any] = [None, None]

            def get() -> Any:
                nxt = cur.N
                if cell[0] is not nxt:
                    cell[1] = leaf(S, nxt, e)
                    cell[0] = nxt
                return cell[1]

            return get

        return make


def _args(sc: Scope) -> str:
    """The source of the bound values visible in ``sc`` as a snippet's arguments."""
    last: dict[str, int] = {}
    for i, b in enumerate(sc.env.bindings):
        last[b.name] = i
    return "".join(f", _e[{sc.slots[i]}]" for i in last.values())


def _sig(sc: Scope) -> tuple[tuple[str, Any, int], ...]:
    vis = sc.env.visible()
    return tuple((n, b.kind, b.arity) for n, b in vis.items())


class _Ordered:
    """The elements of a set in TLC's order, kept for the last set ordered: a domain
    that is a constant (the same object at every state) is sorted once."""

    __slots__ = ("elems", "last")

    def __init__(self) -> None:
        self.last: Any = None
        self.elems: list[Any] = []

    def __call__(self, s: Any, sid: int) -> list[Any]:
        if s is not self.last or type(s) is not frozenset:
            self.elems = canonical(enum_set(s, sid))
            self.last = s
        return self.elems


def _bound_value(a: A.Expr, sc: Scope) -> int | None:
    """The slot of the value ``a`` names, when it is a name bound to a value (by ``\\E``
    or a parameter passed a value)."""
    if not isinstance(a, A.Name | A.OpApp) or a.module or getattr(a, "args", ()):
        return None
    for i in range(len(sc.env.bindings) - 1, -1, -1):
        b = sc.env.bindings[i]
        if b.name == a.name:
            return sc.slots[i] if b.kind == "val" else None
    return None


class _SlotReader:
    """A parameter bound to a value already bound (its slot in the runtime tuple)."""

    __slots__ = ("slot",)

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def __call__(self, S: Any, N: Any, e: tuple[Any, ...]) -> Any:
        return e[self.slot]


def _raising(err: BaseException) -> Callable[..., Any]:
    """A leaf whose compilation failed: it raises the error when evaluated."""

    def fail(*_: Any) -> Any:
        raise err.with_traceback(None)

    return fail


def _restore(k: Run, depth: int) -> Run:
    """``k`` given the bound values of its own scope (``depth`` of them) back, when the
    code before it bound more."""

    def back(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
        k(S, a, e[:depth])

    return back


def _same_values(S: Any, a: NextState, e: tuple[Any, ...]) -> tuple[Any, ...]:
    return e


Split = Callable[[Any, NextState, tuple[Any, ...], Any], None]
"""A compiled piece of the next-state relation above its actions: also given the label
of the successors found below it, as a plain ``(name, args, bound)`` triple (made into a
label by ``make_label`` only for a successor found: most branches fail a guard)."""
Emit = Callable[[Any, NextState], None]
"""Takes one successor (its label, the primed variables assigned)."""
Walk = Callable[[A.Node, Namespace, Any, Any], None]
"""The tree walk of a part of the next-state relation that is not compiled (given the
part, its namespace, the label so far and the state)."""
MakeLabel = Callable[..., Any]


class SplitCompiler(ActionCompiler):
    """Compiles a next-state relation split into its actions as TLC splits ``Next``:
    ``\\/``, ``\\E`` (its values go into the label), ``LET`` and calls of actions (the
    innermost one names the label, with its arguments) are split; below them each
    action is compiled by :class:`ActionCompiler`.  A part that does not compile is
    walked (``walk``), at the outermost split where no name is bound."""

    def __init__(self, comp: Compiler, make_label: MakeLabel, emit: Emit, walk: Walk) -> None:
        super().__init__(comp)
        self.make_label = make_label
        self.emit = emit
        self.walk = walk
        self.fallbacks: list[tuple[A.Node, str]] = []
        """Each part walked instead of compiled, with the reason."""

    def compile(self, node: A.Node, ns: Namespace) -> Split:
        return self.split_or_walk(node, Scope(ns, Env(), (), 0))

    def compile_action(self, node: A.Node, ns: Namespace, params: Env) -> Split | None:
        """The action ``node`` (not split) in the scope of ``params`` (its values are the
        runtime tuple), or None when it does not compile (the tree walk takes it)."""
        bindings = tuple(Binding(b.name, b.kind, b.arity, None) for b in params.bindings)
        sc = self.scope(ns, Env(bindings), tuple(range(len(bindings))), len(bindings))
        try:
            return self.leaf_split(node, sc)
        except (Uncompiled, RecursionError) as why:
            self.fallbacks.append((node, str(why) if isinstance(why, Uncompiled)
                                   else "nested too deeply to compile"))
            return None

    def split_or_walk(self, node: A.Node, sc: Scope) -> Split:
        try:
            return self.split(node, sc)
        except (Uncompiled, RecursionError) as why:
            if sc.env.bindings:
                raise
            self.fallbacks.append((node, str(why) if isinstance(why, Uncompiled)
                                   else "nested too deeply to compile"))
            walk, ns = self.walk, sc.ns

            def walked(S: Any, a: NextState, e: tuple[Any, ...], lab: Any) -> None:
                walk(node, ns, lab, S)

            return walked

    def split(self, node: A.Node, sc: Scope) -> Split:
        while isinstance(node, A.Label):
            node = node.expr
        cur = self.cur
        items = disjuncts(node)
        if items is not None:
            runs = [self.split_or_walk(i, sc) for i in items]

            def each(S: Any, a: NextState, e: tuple[Any, ...], lab: Any) -> None:
                for r in runs:
                    r(S, a, e, lab)

            return each
        if isinstance(node, A.Quant) and node.kind == "E":
            return self.split_exists(node, sc)
        if isinstance(node, A.Let):
            return cast(Split, self.let(node, sc, lambda inner: self.split(node.body, inner)))
        if isinstance(node, A.Name | A.OpApp):
            always, primed = self.may_assign(node, sc)
            target = self.target(node, sc) if always or primed else None
            if target is not None:
                bind, inner, body_node, _ = target
                values = self.label_args(inner, len(getattr(node, "args", ())))
                if values is not None:
                    body = self.enter(target, lambda: self.split_or_walk(body_node, inner))
                    name = node.name

                    def call(S: Any, a: NextState, e: tuple[Any, ...], lab: Any) -> None:
                        cur.N = a
                        inner_e = bind(S, a, e)
                        body(S, a, inner_e, (name, values(inner_e), ()))

                    return call
        return self.leaf_split(node, sc)

    def leaf_split(self, node: A.Node, sc: Scope) -> Split:
        """``node`` as one action: its successors all have the label it is given."""
        emit, cur, make = self.emit, self.cur, self.make_label

        def final(S: Any, a: NextState, e: tuple[Any, ...]) -> None:
            lab = cur.label
            emit(make(lab[0], lab[1], lab[2]), a)

        act = self.action(node, sc, final)

        def leaf(S: Any, a: NextState, e: tuple[Any, ...], lab: Any) -> None:
            cur.label = lab
            act(S, a, e)

        return leaf

    def split_exists(self, node: A.Quant, sc: Scope) -> Split:
        domains, inner = self.bounds(node, sc)
        names = tuple(n for b in node.bounds for n in b.names)
        body = self.split(node.body, inner)
        cur = self.cur

        def run(S: Any, a: NextState, e: tuple[Any, ...], lab: Any) -> None:
            cur.N = a
            name, args, bound = lab
            for values in domains(S, a, e):
                body(S, a, e + values, (name, args, bound + tuple(zip(names, values, strict=True))))

        return run

    def label_args(self, inner: Scope, n: int
                   ) -> Callable[[tuple[Any, ...]], tuple[tuple[str, Any], ...]] | None:
        """The arguments of a call as the label has them (from the runtime tuple of the
        called body), or None when one is passed by name and reads the next state, or is
        an operator (the call is then not split)."""
        getters: list[tuple[str, int, str]] = []
        bindings = inner.env.bindings
        for i in range(len(bindings) - n, len(bindings)) if n else ():
            b = bindings[i]
            if b.kind == "lazy" and b.expr is not None and not has_stateful(b.expr[0]):
                getters.append((b.name, inner.slots[i], "lazy"))
            elif b.kind == "val":
                getters.append((b.name, inner.slots[i], "val"))
            elif cast(str, b.kind) == "maybe":
                getters.append((b.name, inner.slots[i], "maybe"))
            else:
                return None

        if all(kind == "val" for _, _, kind in getters):  # plain reads: no code
            pairs = "".join(f"({name!r}, _e[{slot}]), " for name, slot, _ in getters)
            return cast(Callable[[tuple[Any, ...]], tuple[tuple[str, Any], ...]],
                        self.generate(f"def _f(_e):\n    return ({pairs})\n"))

        def values(e: tuple[Any, ...]) -> tuple[tuple[str, Any], ...]:
            out = []
            for name, slot, kind in getters:
                v = e[slot]
                if kind == "lazy":
                    v = v()
                elif type(v) is _Deferred:
                    v = v.fail()
                out.append((name, v))
            return tuple(out)

        return values


def disjuncts(node: A.Node) -> tuple[A.Expr, ...] | None:
    """The items of ``node`` when it is a disjunction, else None."""
    if isinstance(node, A.Junction) and node.op == "\\/":
        return node.items
    if isinstance(node, A.OpApp) and node.name == "\\/" and not node.module:
        return node.args
    return None
