"""Compile TLA+ expressions to Python source, then to Python functions with ``compile()``.

Each operator definition becomes one Python function (one more for its primed
variant, when some ``(e)'`` needs it).  Names are resolved at compile time:
bound variables and parameters are Python locals, module definitions are
globals of the generated code.  The state is explicit: every generated function
takes it as its first two arguments, ``_S`` (unprimed variables) and ``_N``
(primed ones), and a state variable is ``_S["x"]`` (``_N["x"]`` when primed);
nothing about a state is kept between calls.  Zero-arity constant-level
definitions (``ZoneInstances4``) and constant sub-expressions are evaluated
once, at compile time, and become globals.  Every construct that can fail
passes a span id (``sid``) to the runtime helper, so an error names its file,
line and column.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tlaconf.evaluate import builtins as B
from tlaconf.evaluate import runtime as R
from tlaconf.evaluate.code import (
    BOOL_OPS,
    NOCONST,
    STATE,
    STATE_ARGS,
    Code,
    Local,
    LocalKind,
    Scope,
    as_value,
    elem_type,
    is_ident,
    pyname,
)
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.fastpaths import FastPaths
from tlaconf.evaluate.fold import Folding
from tlaconf.evaluate.guards import Guards
from tlaconf.evaluate.levels import Levels
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names

TOO_DEEP_TO_COMPILE = (
    "expression nested too deeply to compile (a chain such as a + a + ... of some "
    "thousands of terms; TLC's stack overflows sooner): split it into definitions")


_SPILL_DEPTH = 50
"""The deepest bracket nesting of a generated expression before it goes into a helper."""
_BRACKET = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[()\[\]{}]""")
"""A bracket, or a string literal (skipped)."""


def _nesting(src: str) -> int:
    """The deepest bracket nesting of ``src``, string literals apart."""
    depth = deepest = 0
    for m in _BRACKET.finditer(src):
        c = m.group()
        if c[0] in "'\"":
            continue
        if c in "([{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


_MAX_LOOPS = 12
"""The most ``for`` loops one quantifier nests (Python allows 20 nested blocks)."""


def _few_loops(clauses: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """``clauses`` (``for TARGET in ITERABLE``), the outer ones merged into one loop over
    their product when there are more than :data:`_MAX_LOOPS` (a quantifier binding 25
    names was an internal error, "too many statically nested blocks")."""
    if len(clauses) <= _MAX_LOOPS:
        return clauses
    merged = clauses[: len(clauses) - _MAX_LOOPS + 1]
    parts = [c.removeprefix("for ").split(" in ", 1) for c, _ in merged]
    targets = ", ".join(t for t, _ in parts)
    iterables = ", ".join(i for _, i in parts)
    return [(f"for ({targets},) in _product({iterables})", None),
            *clauses[len(merged):]]


_HOIST = (A.SetEnum, A.Tuple, A.Record, A.OpApp, A.SetMap, A.SetFilter, A.FnCons,
          A.RecordSet, A.FnSet, A.Quant, A.Choose, A.If, A.Case, A.Let)
"""Expressions worth folding when constant (a name or a literal is already cheap)."""


class Compiler:
    """Turns AST into Python functions living in one globals dict ``G``: code generation
    here; the level analyses (:attr:`levels`), constant folding (:attr:`folding`) and the
    inlined fast paths (:attr:`fast`) are parts of their own."""

    def __init__(self) -> None:
        self.G: dict[str, Any] = dict(R.GLOBALS)
        self.spans: list[A.Span] = []
        self.nodes: list[A.Node] = []
        self._fns: dict[tuple[int, bool], str] = {}
        self.levels = Levels()
        self.folding = Folding(self, self.levels)
        self.fast = FastPaths(self)
        self.guards = Guards(self)
        self._counter = itertools.count()
        self._snippets: dict[tuple[Any, ...], tuple[Any, Callable[..., Any]]] = {}
        self._builtin_names: dict[int, str] = {}
        self._bool_defs: dict[tuple[int, bool], bool] = {}
        self._sids: dict[int, int] = {}
        self.sources: list[str] = []
        """Every generated function's source, for inspection."""
        self.registers: dict[Any, Any] = {}
        """TLCSet/TLCGet registers: this context's own, emptied by :meth:`reset_registers`."""

    def resolve_entry(self, ns: Namespace, name: str, module: tuple[str, ...]
                      ) -> Entry | None:
        """What ``module!name`` refers to in ``ns`` (see :meth:`.Levels.resolve_entry`)."""
        return self.levels.resolve_entry(ns, name, module)

    def node_is_action(self, node: A.Node, ns: Namespace, bound: set[str]) -> bool:
        """See :meth:`.Levels.node_is_action`."""
        return self.levels.node_is_action(node, ns, bound)

    def entry_is_action(self, entry: Entry) -> bool:
        """See :meth:`.Levels.entry_is_action`."""
        return self.levels.entry_is_action(entry)

    def reset_registers(self) -> None:
        """Forget every TLCSet (a new, independent run: the next trace)."""
        self.registers.clear()

    # ----------------------------------------------------------------- plumbing

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self._counter)}"

    def sid(self, node: A.Node) -> int:
        """The span id of ``node`` (one per node object)."""
        got = self._sids.get(id(node))
        if got is not None and self.nodes[got] is node:
            return got
        self.spans.append(node.span)
        self.nodes.append(node)
        self._sids[id(node)] = len(self.spans) - 1
        return len(self.spans) - 1

    def exec(self, src: str, name: str) -> Any:
        self.sources.append(src)
        code = compile(src, f"<tla:{name}>", "exec")
        exec(code, self.G)
        return self.G[name]

    def glob(self, value: Any, prefix: str = "K") -> str:
        name = self.fresh(prefix)
        self.G[name] = value
        return name

    def builtin_ref(self, fn: Callable[..., Any]) -> str:
        key = id(fn)
        if key not in self._builtin_names:
            value = functools.partial(fn, self.registers) if fn in B.WITH_REGISTERS else fn
            self._builtin_names[key] = self.glob(value, f"B_{fn.__name__}_")
        return self._builtin_names[key]

    # ----------------------------------------------------------------- definitions

    def def_fn(self, entry: Entry, primed: bool = False) -> str:
        """The global name of the Python function computing an op/fn definition."""
        key = (id(entry), primed)
        if key in self._fns:
            return self._fns[key]
        assert entry.ns is not None
        node = entry.node
        name = self.fresh(f"O_{pyname(entry.name)}_")
        self._fns[key] = name
        sc = Scope(entry.ns, primed=primed)
        params = [(p.name, self.fresh("p_"), p.arity) for p in getattr(node, "params", ())]
        args = ", ".join([*STATE_ARGS, *entry.ns.inst_py, *(py for _, py, _ in params)])
        try:
            if entry.kind == "op":
                strict = self.levels.strict_params(entry)
                sc = sc.bind({n: Local(py, "op" if ar else "val" if i in strict else "maybe", ar)
                              for i, (n, py, ar) in enumerate(params)})
                body = self.expr(node.body, sc)
            else:
                body = self.fndef_value(node, sc)
        except (Fail, RecursionError) as exc:
            # a definition that cannot be compiled fails when (and only when) it is used
            err = exc if isinstance(exc, Fail) else Fail(TOO_DEEP_TO_COMPILE, (), self.sid(node))
            failure = self.glob(err, "F_")
            self.exec(f"def {name}({args}):\n    raise {failure}\n", name)
            return name
        self._bool_defs[key] = body.boolean
        general = f"G{name}"
        fold = (self.fast.set_fold(entry, sc, args.split(", "), general) if entry.kind == "op"
                else None)
        if fold is None:
            fold = self.memo(entry, args.split(", ")[len(STATE_ARGS):], general)
        if fold is None:
            self.exec(f"def {name}({args}):\n    return {body.src}\n", name)
            return name
        self.exec(f"def {general}({args}):\n    return {body.src}\n", general)
        self.exec(f"def {name}({args}):\n{fold}", name)
        return name

    def memo(self, entry: Entry, args: list[str], general: str) -> str | None:
        """For an operator whose value depends on its arguments only (no state, no
        registers, no printing) and is not recursive: the body of a function remembering
        its last two applications, found again when called with the very same argument
        objects (an
        ``is`` test: values are immutable, and ``1`` is never taken for ``TRUE``), as
        replay asks ``P(before)``, ``P(after)`` and, at the next step, ``P(before)`` again;
        ``general`` computes a new one.  None when the operator is not such."""
        node = entry.node
        if not (entry.kind == "op" and isinstance(node, A.OpDef) and node.params
                and all(p.arity == 0 for p in node.params)
                and self.levels.entry_is_const(entry, pure=True)
                and not any(n == node.name for n, _ in free_names(node.body, set()))):
            return None
        m, r = self.glob([None] * (2 * len(args) + 2), "M_"), self.fresh("r_")
        k = len(args) + 1
        hits = [" and ".join(f"{m}[{j + off}] is {a}" for j, a in enumerate(args))
                for off in (0, k)]
        return "".join(f"    {line}\n" for line in (
            f"if {hits[0]}:", f"    return {m}[{k - 1}]",
            f"if {hits[1]}:", f"    return {m}[{2 * k - 1}]",
            f"{r} = {general}({', '.join((*STATE_ARGS, *args))})",
            f"{m}[{k}:] = {m}[:{k}]", f"{m}[:{k}] = [{', '.join(args)}, {r}]",
            f"return {r}"))

    def fndef_value(self, node: A.FnDef, sc: Scope) -> Code:
        """``f[x \\in S] == e``: a (possibly recursive) function value."""
        recursive = any(n == node.name and not m for n, m in free_names(node.body, set()))
        if not recursive:
            return self.fncons(node.bounds, node.body, sc, node)
        self_py = self.fresh("f_")
        inner = sc.bind({node.name: Local(self_py)})
        dom = self.domain_of(node.bounds, sc, node)
        lam = self.bound_lambda(node.bounds, inner, lambda s2: self.expr(node.body, s2).src)
        return Code(f"_fixfn({dom}, lambda {self_py}: {lam})")

    # ----------------------------------------------------------------- expressions

    def expr(self, node: A.Node, sc: Scope) -> Code:
        if isinstance(node, _HOIST) and not sc.primed:
            hoisted = self.folding.hoist(node, sc)
            if hoisted is not None:
                return self.shallow(hoisted, sc)
        meth = getattr(self, f"x_{type(node).__name__}", None)
        if meth is None:
            raise Fail(f"cannot evaluate a {type(node).__name__}", (), self.sid(node))
        code: Code = meth(node, sc)
        return self.shallow(code, sc)

    def shallow(self, code: Code, sc: Scope) -> Code:
        """``code``, or a call of a helper function returning it when its source nests
        brackets deeper than :data:`_SPILL_DEPTH` (Python refuses a source nested 200
        deep: a chain such as ``x + 1 + ... + 1`` of some hundred terms would be)."""
        src = code.src
        if len(src) <= 2 * _SPILL_DEPTH or _nesting(src) <= _SPILL_DEPTH:
            return code
        return replace(code, src=self.helper("s_", [f"return {src}"], sc))

    def helper(self, prefix: str, body: list[str], sc: Scope) -> str:
        """A call of a new generated function of the statements ``body``, compiled in
        ``sc`` (it takes the names in scope: :meth:`helper_params`)."""
        params = ", ".join(self.helper_params(sc, hoisted=True))
        name = self.fresh(prefix)
        self.exec("".join(f"{line}\n" for line in [f"def {name}({params}):",
                                                   *(f"    {b}" for b in body)]), name)
        return f"{name}({params})"

    def expr_nohoist(self, node: A.Node, sc: Scope) -> Code:
        meth = getattr(self, f"x_{type(node).__name__}")
        code: Code = meth(node, sc)
        return code

    def boolean(self, node: A.Node, sc: Scope) -> str:
        c = self.expr(node, sc)
        if c.boolean:
            return c.src
        t = self.fast.tmp(c, sc) if c.const is NOCONST else None
        if t is None:
            return f"_B({c.src}, {self.sid(node)})"
        return f"({t[1]} if {t[0]} is True or {t[1]} is False else _B({t[1]}, {self.sid(node)}))"

    def x_Num(self, node: A.Num, sc: Scope) -> Code:
        if abs(node.value) >= _BIG_LITERAL:
            return Code(self.glob(node.value), const=node.value)
        return Code(repr(node.value), const=node.value)

    def x_Str(self, node: A.Str, sc: Scope) -> Code:
        return Code(repr(node.value), const=node.value)

    def x_Bool(self, node: A.Bool, sc: Scope) -> Code:
        return Code(repr(node.value), True, node.value)

    def x_Label(self, node: A.Label, sc: Scope) -> Code:
        return self.expr(node.expr, sc)

    def x_At(self, node: A.At, sc: Scope) -> Code:
        if sc.at is None:
            raise Fail("@ used outside an EXCEPT", (), self.sid(node))
        return Code(sc.at)

    def x_Name(self, node: A.Name, sc: Scope) -> Code:
        return self.apply_name(node, node.name, node.module, (), sc)

    def x_OpApp(self, node: A.OpApp, sc: Scope) -> Code:
        return self.apply_name(node, node.name, node.module, node.args, sc)

    def apply_name(
        self, node: A.Node, name: str, module: tuple[str, ...], args: tuple[A.Expr, ...],
        sc: Scope,
    ) -> Code:
        if not module:
            special = _SPECIAL.get(name)
            if special is not None and (sc.ns.lookup(name) is None
                                        or sc.ns.entries[name].kind == "builtin"):
                return special(self, node, args, sc)
            loc = sc.locals.get(name)
            if loc is not None:
                return self.call_local(node, loc, args, sc)
        entry = self.levels.resolve_entry(sc.ns, name, module)
        if entry is None:
            where = "!".join((*module, name))
            raise Fail(f"unknown operator or name {where}", (), self.sid(node))
        return self.call_entry(node, entry, args, sc)

    def call_local(self, node: A.Node, loc: Local, args: tuple[A.Expr, ...], sc: Scope) -> Code:
        if loc.kind == "val":
            if args:
                raise Fail("a value is applied to arguments", (), self.sid(node))
            return Code(loc.py, loc.ty is bool, ty=loc.ty)
        if loc.kind == "lazy":
            return Code(f"{loc.py}()")
        if loc.kind == "maybe":
            if args:
                raise Fail("a value is applied to arguments", (), self.sid(node))
            return Code(f"({loc.py} if type({loc.py}) is not _Deferred else {loc.py}.fail())")
        if not args and loc.arity:
            return Code(loc.py)
        if loc.strict is not None:
            return self.call_args(f"{loc.py}(", args, [0] * len(args), loc.strict, sc)
        return Code(f"{loc.py}({', '.join(self.expr(a, sc).src for a in args)})")

    def call_entry(self, node: A.Node, entry: Entry, args: tuple[A.Expr, ...], sc: Scope) -> Code:
        k = entry.kind
        if k == "const":
            if entry.arity and args:
                return Code(f"{self.glob(entry.value)}"
                            f"({', '.join(self.expr(a, sc).src for a in args)})")
            return Code(self.glob(entry.value, f"K_{pyname(entry.name)}_"),
                        type(entry.value) is bool, entry.value)
        if k == "value":
            return Code(self.glob(entry.value, f"V_{pyname(entry.name)}_"),
                        type(entry.value) is bool, entry.value)
        if k == "var":
            return Code(f'{"_N" if sc.primed else "_S"}[{entry.name!r}]')
        if k == "subst":
            assert entry.ns is not None
            inst = entry.child
            outer = Scope(entry.ns, {n: Local(py) for n, py in zip(
                inst.inst_params, inst.inst_py, strict=True)} if inst is not None else {},
                sc.primed)
            if args:
                fn = self.op_arg(entry.node, len(args), outer)
                return Code(f"{fn}({', '.join(self.expr(a, sc).src for a in args)})")
            return self.expr(entry.node, outer)
        if k == "builtin":
            fn, arity = entry.value
            if not args and arity > 0:
                return Code(f"(lambda *a: {self.builtin_ref(fn)}({self.sid(node)}, *a))")
            return self.call_builtin(node, entry.name, fn, args, sc)
        if k == "inst":
            raise Fail(f"instance {entry.name} used as a value", (), self.sid(node))
        assert entry.ns is not None
        lead = self.instance_args(node, entry.ns, sc)
        if k == "fn" or entry.arity == 0:
            if args:
                raise Fail(f"{entry.name} takes no arguments", (), self.sid(node))
            if not sc.primed and not lead:
                c = self.folding.const_ref(entry)
                if c is not None:
                    return c
            fname = self.def_fn(entry, sc.primed)
            return Code(f"{fname}({', '.join([*STATE_ARGS, *lead])})",
                        self._bool_defs.get((id(entry), sc.primed), False))
        fname = self.def_fn(entry, sc.primed)
        if not args:
            return Code(as_value(fname, lead))
        fname = f"{fname}({STATE}, {''.join(x + ', ' for x in lead)}"
        params = entry.node.params
        if len(args) != len(params):
            raise Fail(f"{entry.name} takes {len(params)} arguments, got {len(args)}", (),
                       self.sid(node))
        code = self.call_args(fname, args, [p.arity for p in params],
                              self.levels.strict_params(entry), sc)
        return Code(code.src, self._bool_defs.get((id(entry), sc.primed), False))

    def call_args(self, fname: str, args: tuple[A.Expr, ...], arities: list[int],
                  strict: frozenset[int], sc: Scope) -> Code:
        """``fname`` (a call up to its open parenthesis and leading arguments) with
        ``args``.  An argument for a parameter the operator may not evaluate is
        evaluated here, but an error it raises is deferred (a :class:`_Deferred` value,
        raised where the parameter is used): TLC passes arguments unevaluated.  Only
        arguments that can fail are wrapped, in a generated function with ``try``."""
        srcs: list[str] = []
        deferred: list[tuple[str, str]] = []
        for i, (a, ar) in enumerate(zip(args, arities, strict=True)):
            if ar or i in strict:
                srcs.append(self.op_arg(a, ar, sc))
                continue
            if isinstance(a, A.Name) and not a.module and a.name in sc.locals \
                    and sc.locals[a.name].kind in ("val", "maybe"):
                srcs.append(sc.locals[a.name].py)  # passed on as it is (maybe deferred)
                continue
            c = self.expr(a, sc.own())
            if c.const is not NOCONST or is_ident(c.src) or c.src.startswith(("_S[", "_N[")):
                srcs.append(c.src)
                continue
            t = self.fresh("a_")
            lazy = frozenset(n for n, loc in sc.locals.items() if loc.kind in ("maybe", "lazy"))
            if self.levels.may_print(a, sc.ns, set(sc.locals), lazy):  # evaluated where used
                c = Code(f"_Deferred(None, lambda: {c.src})")
            deferred.append((t, c.src))
            srcs.append(t)
        call = f"{fname}{', '.join(srcs)})"
        if not deferred:
            return Code(call)
        params = self.helper_params(sc, hoisted=True)
        name = self.fresh("call_")
        lines = [f"def {name}({', '.join(params)}):"]
        for t, src in deferred:
            lines += ["    try:", f"        {t} = {src}", "    except _Fail as _e:",
                      f"        {t} = _Deferred(_e)"]
        lines.append(f"    return {call}")
        self.exec("\n".join(lines) + "\n", name)
        return Code(f"{name}({', '.join(params)})")

    def helper_params(self, sc: Scope, hoisted: bool = False) -> list[str]:
        """The parameters of a generated helper function: the state, the instance
        arguments and the locals in scope (and ``@``); with ``hoisted``, also the values
        a quantifier computed so far at its entry and per iteration (for code compiled in
        ``sc`` that goes into the helper)."""
        params = [*sc.ns.inst_py, *(loc.py for loc in sc.locals.values())]
        if sc.at is not None:
            params.append(sc.at)
        if hoisted:
            params += sc.hoist or ()
            params += [k for loop in (sc.loops or {}).values() for k in loop]
        return [*STATE_ARGS, *dict.fromkeys(params)]

    def instance_args(self, node: A.Node, ns: Namespace, sc: Scope) -> list[str]:
        """The leading arguments of a definition of a parameterized instance: the
        ``I(a)!`` arguments at the call site, or the enclosing function's own."""
        if not ns.inst_params:
            return []
        if sc.ns is ns:
            return list(ns.inst_py)
        margs = getattr(node, "module_args", ())
        if not margs or len(margs[-1]) != len(ns.inst_params):
            raise Fail(f"instance {ns.name} takes {len(ns.inst_params)} arguments", (),
                       self.sid(node))
        return [self.expr(a, sc).src for a in margs[-1]]

    def op_arg(self, arg: A.Expr, arity: int, sc: Scope) -> str:
        """An argument: a value, or (for a higher-order parameter) a callable."""
        if arity == 0:
            return self.expr(arg, sc).src
        if isinstance(arg, A.Lambda):
            return self.x_Lambda(arg, sc).src
        if isinstance(arg, A.Name | A.OpApp) and not getattr(arg, "args", ()):
            loc = sc.locals.get(arg.name) if not arg.module else None
            if loc is not None:
                return loc.py
            entry = self.levels.resolve_entry(sc.ns, arg.name, arg.module)
            if entry is not None and entry.kind == "op":
                return as_value(self.def_fn(entry, sc.primed), [])
            if entry is not None and entry.kind == "builtin":
                fn, _ = entry.value
                return f"(lambda *a: {self.builtin_ref(fn)}({self.sid(arg)}, *a))"
        raise Fail("expected an operator argument", (), self.sid(arg))

    def call_builtin(
        self, node: A.Node, name: str, fn: Callable[..., Any], args: tuple[A.Expr, ...],
        sc: Scope,
    ) -> Code:
        if fn is B.union and len(args) == 1 and isinstance(args[0], A.SetMap):
            return self.setmap(args[0], sc, f"_union_of({{}}, {self.sid(args[0])}, "
                                            f"{self.sid(node)})")
        if fn is B.tlc_get and sc.primed:
            fn = B.tlc_get_next  # TLCGet("level")' is the next state's level
        ho = B.HIGHER_ORDER.get(name, ())
        srcs = [self.op_arg(a, 1, sc) if i in ho else self.expr(a, sc).src
                for i, a in enumerate(args)]
        sid = self.sid(node)
        return Code(f"{self.builtin_ref(fn)}({', '.join([str(sid), *srcs])})", name in BOOL_OPS)

    # ----------------------------------------------------------------- logic

    def x_Junction(self, node: A.Junction, sc: Scope) -> Code:
        op = " and " if node.op == "/\\" else " or "
        return Code("(" + op.join(self.boolean(i, sc) for i in node.items) + ")", True)

    def x_If(self, node: A.If, sc: Scope) -> Code:
        t, e = self.expr(node.then, sc), self.expr(node.else_, sc)
        return Code(f"({t.src} if {self.boolean(node.cond, sc)} else {e.src})",
                    t.boolean and e.boolean)

    def x_Case(self, node: A.Case, sc: Scope) -> Code:
        """The first arm whose guard holds (TLC's choice), as nested conditional
        expressions; a CASE of many arms as a helper function of ``if`` statements."""
        other = (self.expr(node.other, sc) if node.other is not None
                 else Code(f"_case_fail({self.sid(node)})", True))
        arms = [(self.boolean(cond, sc), self.expr(val, sc)) for cond, val in node.arms]
        boolean = other.boolean and all(v.boolean for _, v in arms)
        if len(arms) <= _SPILL_DEPTH // 2:
            out = other.src
            for cond_src, v in reversed(arms):
                out = f"({v.src} if {cond_src} else {out})"
            return Code(out, boolean)
        body = [line for cond_src, v in arms for line in (f"if {cond_src}:",
                                                          f"    return {v.src}")]
        return Code(self.helper("c_", [*body, f"return {other.src}"], sc), boolean)

    def x_Let(self, node: A.Let, sc: Scope) -> Code:
        opens: list[str] = []
        closes: list[str] = []
        inner = sc
        recursive = {p.name for d in node.defs if isinstance(d, A.Recursive) for p in d.params}
        for d in node.defs:
            if isinstance(d, A.Recursive):
                continue
            py = self.fresh("L_")
            if isinstance(d, A.OpDef) and d.params:
                params = [(p.name, self.fresh("p_"), p.arity) for p in d.params]
                strict = self.levels.strict_of(d.params, d.body, inner.ns)
                loc = Local(py, "op", len(params), strict=strict)
                body_sc = inner.bind({d.name: loc} if d.name in recursive else {}).bind(
                    {n: Local(p, "op" if ar else "val" if i in strict else "maybe", ar)
                     for i, (n, p, ar) in enumerate(params)})
                lam = f"(lambda {', '.join(p for _, p, _ in params)}: " \
                      f"{self.expr(d.body, body_sc).src})"
                val = f"_rec(lambda {py}: {lam})" if d.name in recursive else lam
            elif isinstance(d, A.OpDef):
                loc = Local(py, "lazy")
                val = f"_lazy(lambda: {self.expr(d.body, inner).src})"
            elif isinstance(d, A.FnDef):
                loc = Local(py, "lazy")
                val = f"_lazy(lambda: {self.fndef_value(d, inner).src})"
            else:
                raise Fail(f"a {type(d).__name__} cannot appear in LET", (), self.sid(d))
            opens.append(f"(lambda {py}: ")
            closes.append(f")({val})")
            inner = inner.bind({d.name: loc})
        body = self.expr(node.body, inner)
        return Code("".join(opens) + body.src + "".join(reversed(closes)), body.boolean)

    def x_Lambda(self, node: A.Lambda, sc: Scope) -> Code:
        params = [(p, self.fresh("p_")) for p in node.params]
        inner = sc.bind({n: Local(py) for n, py in params})
        return Code(f"(lambda {', '.join(py for _, py in params)}: "
                    f"{self.expr(node.body, inner).src})")

    # ----------------------------------------------------------------- binders

    def bind_bounds(
        self, bounds: tuple[A.Bound, ...], sc: Scope, node: A.Node
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str | None]], Scope]:
        """Python ``for`` clauses iterating the bounds (each with the Python name it binds,
        if one), and the scope inside them.  With several bounds, the domains are first
        bound to names (``(name, source)`` pairs, to evaluate before the loops): TLC
        evaluates every domain once, even when an earlier one is empty
        (``\\A x \\in {}, y \\in 1 \\div 0 : P`` is an error)."""
        clauses: list[tuple[str, str | None]] = []
        pre: list[tuple[str, str]] = []
        names: dict[str, Local] = {}
        several = len(bounds) > 1 or (len(bounds[0].names) > 1 and not bounds[0].tuple_pattern)
        for b in bounds:
            if b.domain is None:
                clauses.append((f"for _ in _unbounded({self.sid(node)})", None))
                for n in b.names:
                    names[n] = Local(self.fresh(f"v_{pyname(n)}_"))
                continue
            dom, ety = self.iter_src(b.domain, sc)
            if several:
                d = self.fresh("d_")
                pre.append((d, dom))
                dom = d
            if b.tuple_pattern:
                pys = [self.fresh(f"v_{pyname(n)}_") for n in b.names]
                clauses.append((f"for ({', '.join(pys)},) in _tuples({dom}, {len(pys)}, "
                                f"{self.sid(b)})", None))
                names.update({n: Local(p, loop=True) for n, p in zip(b.names, pys, strict=True)})
            else:
                for n in b.names:
                    py = self.fresh(f"v_{pyname(n)}_")
                    clauses.append((f"for {py} in {dom}", py))
                    names[n] = Local(py, ty=ety, loop=True)
        return pre, clauses, sc.bind(names)

    def iter_src(self, dom: A.Expr, sc: Scope) -> tuple[str, Any]:
        """Python iterable source over a set, and its elements' type when known."""
        c = self.expr(dom, sc.in_iterable())
        if type(c.const) is frozenset:
            return c.src, elem_type(c.const)
        return f"_it({c.src}, {self.sid(dom)})", None

    def x_Quant(self, node: A.Quant, sc: Scope) -> Code:
        """A quantifier becomes a small generated function with plain ``for`` loops (much
        faster than ``all(<generator>)``), called with the locals in scope."""
        params = self.helper_params(sc)
        hoist: dict[str, str] = {}
        base = Scope(sc.ns, sc.locals, sc.primed, sc.at, False, hoist, frozenset(params))
        pre, clauses, inner = self.bind_bounds(node.bounds, base, node)
        clauses = _few_loops(clauses)
        loops: dict[str, dict[str, str]] = {v: {} for _, v in clauses[:-1] if v is not None}
        body = self.boolean(node.body, replace(inner, loops=loops))
        name = self.fresh("q_")
        lines = [f"def {name}({', '.join(params)}):"]
        pairwise = self.fast.pairwise_disjoint(node, base)
        if pairwise is not None:
            lines += [f"    _r = {pairwise}", "    if _r is not None:", "        return _r"]
        lines += [f"    {k} = {src}" for k, src in hoist.items()]
        lines += [f"    {d} = {src}" for d, src in pre]
        indent = "    "
        for clause, var in clauses:
            lines.append(f"{indent}{clause}:")
            indent += "    "
            lines += [f"{indent}{k} = {src}" for k, src in loops.get(var or "", {}).items()]
        lines += [f"{indent}{g}" for g in self.guards.lines(node, inner.own())]
        if node.kind == "A":
            lines += [f"{indent}if not {body}:", f"{indent}    return False", "    return True"]
        else:
            lines += [f"{indent}if {body}:", f"{indent}    return True", "    return False"]
        self.exec("\n".join(lines) + "\n", name)
        return Code(f"{name}({', '.join(params)})", True)

    def bound_lambda(
        self, bounds: tuple[A.Bound, ...], sc: Scope, body: Callable[[Scope], str]
    ) -> str:
        """``lambda x: body`` over one bound element (a tuple when several names).  The
        variables of enclosing loops it uses are taken at its creation (default
        arguments): a lazy value it makes (``{j \\in 1..3 : j <= i}`` in ``{... : i \\in
        S}``) is evaluated after the loop has moved on."""
        names = [n for b in bounds for n in b.names]
        pys = [self.fresh(f"v_{pyname(n)}_") for n in names]
        inner = sc.bind({n: Local(p) for n, p in zip(names, pys, strict=True)})
        src = body(inner)
        taken = "".join(f", {loc.py}={loc.py}" for loc in dict.fromkeys(
            loc for n, loc in sc.locals.items() if loc.loop and n not in names)
            if re.search(rf"\b{loc.py}\b", src))
        if len(names) == 1 and not bounds[0].tuple_pattern:
            return f"(lambda {pys[0]}{taken}: {src})"
        return f"(lambda _t{taken}: (lambda {', '.join(pys)}: {src})(*_t))"

    def domain_of(self, bounds: tuple[A.Bound, ...], sc: Scope, node: A.Node) -> str:
        doms: list[str] = []
        for b in bounds:
            if b.domain is None:
                return f"_unbounded({self.sid(node)})"
            d = self.expr(b.domain, sc).src
            doms.extend([d] * (1 if b.tuple_pattern else len(b.names)))
        if len(doms) == 1:
            return doms[0]
        return f"{self.builtin_ref(B.product)}({self.sid(node)}, {', '.join(doms)})"

    def x_Choose(self, node: A.Choose, sc: Scope) -> Code:
        b = node.bound
        if b.domain is None:
            return Code(f"_unbounded({self.sid(node)})")
        lam = self.bound_lambda((b,), sc, lambda s: self.boolean(node.body, s))
        k = len(b.names) if b.tuple_pattern else 0
        return Code(f"_choose({self.expr(b.domain, sc).src}, {lam}, {k}, {self.sid(node)})")

    def x_SetFilter(self, node: A.SetFilter, sc: Scope) -> Code:
        b = node.bound
        if b.domain is None:
            return Code(f"_unbounded({self.sid(node)})")
        lam = self.bound_lambda((b,), sc, lambda s: self.boolean(node.pred, s))
        k = len(b.names) if b.tuple_pattern else 0
        return Code(f"_filter({self.expr(b.domain, sc).src}, {lam}, {k}, {self.sid(node)})")

    def x_SetMap(self, node: A.SetMap, sc: Scope) -> Code:
        return self.setmap(node, sc, f"_setof({{}}, {self.sid(node)})")

    def setmap(self, node: A.SetMap, sc: Scope, make: str) -> Code:
        """``{e : x \\in S}``: the list of the ``e`` given to ``make`` (a call with ``{}``
        where the list goes)."""
        pre, clauses, inner = self.bind_bounds(node.bounds, sc, node)
        loops = " ".join(c for c, _ in clauses)
        src = make.format(f"[{self.expr(node.expr, inner).src} {loops}]")
        if pre:
            src = (f"(lambda {', '.join(d for d, _ in pre)}: {src})"
                   f"({', '.join(d for _, d in pre)})")
        return Code(src, ty=frozenset)

    def x_FnCons(self, node: A.FnCons, sc: Scope) -> Code:
        return self.fncons(node.bounds, node.body, sc, node)

    def fncons(self, bounds: tuple[A.Bound, ...], body: A.Expr, sc: Scope, node: A.Node) -> Code:
        names = [n for b in bounds for n in b.names]
        if (len(bounds) == 1 and len(names) == 1 and bounds[0].domain is not None
                and not bounds[0].tuple_pattern):
            dom = self.expr(bounds[0].domain, sc.in_iterable())
            if type(dom.const) is frozenset:
                return self.fncons_const(names[0], dom, body, sc)
        dom_src = self.domain_of(bounds, sc, node)
        lam = self.bound_lambda(bounds, sc, lambda s: self.expr(body, s).src)
        return Code(f"_fncons({dom_src}, {lam}, {self.sid(node)})")

    def fncons_const(self, name: str, dom: Code, body: A.Expr, sc: Scope) -> Code:
        """``[x \\in S |-> e]`` over a constant finite ``S``: a generated function builds it
        with a plain loop; when ``e`` fails at some ``x``, the function is lazy instead (an
        error only where it is applied there, or compared), as TLC's functions are."""
        py = self.fresh(f"v_{pyname(name)}_")
        inner = sc.own().bind({name: Local(py, ty=elem_type(dom.const), loop=True)})
        src = self.expr(body, inner).src
        params = self.helper_params(sc)
        fname = self.fresh("fn_")
        self.exec(f"def {fname}({', '.join(params)}):\n"
                  f"    _d = {{}}\n"
                  f"    try:\n"
                  f"        for {py} in {dom.src}:\n"
                  f"            _d[{py}] = {src}\n"
                  f"    except _Fail:\n"
                  f"        return _LazyFn({dom.src}, lambda {py}: {src})\n"
                  f"    return _mkfn(_d)\n", fname)
        return Code(f"{fname}({', '.join(params)})")

    # ----------------------------------------------------------------- data

    def x_SetEnum(self, node: A.SetEnum, sc: Scope) -> Code:
        if not node.elems:
            return Code("_EMPTY", const=frozenset())
        return Code(f"_setof([{', '.join(self.expr(e, sc).src for e in node.elems)}], "
                    f"{self.sid(node)})")

    def x_Tuple(self, node: A.Tuple, sc: Scope) -> Code:
        if not node.elems:
            return Code("()", const=())
        return Code("(" + "".join(self.expr(e, sc).src + ", " for e in node.elems) + ")")

    def x_Record(self, node: A.Record, sc: Scope) -> Code:
        items = ", ".join(f"{k!r}: {self.expr(v, sc).src}" for k, v in node.fields)
        return Code(f"_Fn({{{items}}})")

    def x_RecordSet(self, node: A.RecordSet, sc: Scope) -> Code:
        items = ", ".join(f"({k!r}, {self.expr(v, sc).src})" for k, v in node.fields)
        return Code(f"_recset(({items},), {self.sid(node)})")

    def x_FnSet(self, node: A.FnSet, sc: Scope) -> Code:
        return Code(f"{self.builtin_ref(B.fnset)}({self.sid(node)}, "
                    f"{self.expr(node.domain, sc).src}, {self.expr(node.range, sc).src})")

    def x_FnApp(self, node: A.FnApp, sc: Scope) -> Code:
        fc = self.expr(node.fn, sc)
        if len(node.args) == 1:
            xc = self.expr(node.args[0], sc)  # its constant too: a literal index is inlined
        else:
            xc = Code("(" + "".join(self.expr(a, sc).src + ", " for a in node.args) + ")")
        return self.fast.application(fc, xc, self.sid(node), sc)

    def x_Dot(self, node: A.Dot, sc: Scope) -> Code:
        r = self.expr(node.expr, sc)
        key = repr(node.field_name)
        tr = self.fast.tmp(r, sc) if r.const is NOCONST else None
        if tr is not None:
            return Code(f"({tr[1]}._d[{key}] if type({tr[0]}) is _Fn and {key} in {tr[1]}._d "
                        f"else _dot({tr[1]}, {key}, {self.sid(node)}))")
        return Code(f"_dot({r.src}, {key}, {self.sid(node)})")

    def x_Except(self, node: A.Except, sc: Scope) -> Code:
        out = self.expr(node.fn, sc).src
        for path, value in node.updates:
            keys: list[str] = []
            for step in path:
                if isinstance(step, A.ExceptField):
                    keys.append(repr(step.name))
                elif len(step.args) == 1:
                    keys.append(self.expr(step.args[0], sc).src)
                else:
                    keys.append("(" + "".join(self.expr(a, sc).src + ", "
                                              for a in step.args) + ")")
            at = self.fresh("at_")
            inner = Scope(sc.ns, sc.locals, sc.primed, at)
            val = self.expr(value, inner).src
            out = (f"_except({out}, ({''.join(k + ', ' for k in keys)}), "
                   f"(lambda {at}: {val}), {self.sid(node)})")
        return Code(out)

    # ----------------------------------------------------------------- actions

    def x_Prime(self, node: A.Prime, sc: Scope) -> Code:
        if sc.primed:
            raise Fail("a primed expression is primed again", (), self.sid(node))
        return self.expr(node.expr, Scope(sc.ns, sc.locals, True, sc.at))

    def x_Unchanged(self, node: A.Unchanged, sc: Scope) -> Code:
        items = flatten_tuple(node.expr)
        parts = []
        for it in items:
            a = self.expr(it, Scope(sc.ns, sc.locals, True, sc.at)).src
            b = self.expr(it, sc).src
            parts.append(f"_eq({a}, {b}, {self.sid(it)})")
        return Code("(" + " and ".join(parts) + ")" if parts else "True", True)

    def x_ActionBox(self, node: A.ActionBox, sc: Scope) -> Code:
        act = self.boolean(node.action, sc)
        unch = self.x_Unchanged(A.Unchanged(node.sub, span=node.span), sc).src
        if node.angle:
            return Code(f"({act} and not {unch})", True)
        return Code(f"({act} or {unch})", True)

    def x_Enabled(self, node: A.Enabled, sc: Scope) -> Code:
        names = sorted(sc.locals)
        env = ", ".join(f"({n!r}, {sc.locals[n].kind!r}, {sc.locals[n].arity}, "
                        f"{sc.locals[n].py})" for n in names)
        key = self.glob((node.expr, sc.ns), "EN_")
        return Code(f"_ENABLED(_S, {key}, ({env}{',' if names else ''}), {self.sid(node)})",
                    True)

    def x_Fairness(self, node: A.Fairness, sc: Scope) -> Code:
        raise Fail("temporal formulas (WF/SF) cannot be evaluated", (), self.sid(node))

    def x_TemporalQuant(self, node: A.TemporalQuant, sc: Scope) -> Code:
        raise Fail("temporal quantifiers cannot be evaluated", (), self.sid(node))

    # ----------------------------------------------------------------- snippets

    def snippet(self, node: A.Node, ns: Namespace, env: tuple[tuple[str, LocalKind, int], ...],
                primed: bool = False) -> Callable[..., Any]:
        """A function of the state (``_S``, ``_N``) and the env's values computing ``node``
        (used by blame and ENABLED)."""
        key = (id(node), id(ns), env, primed)
        hit = self._snippets.get(key)
        if hit is not None:
            return hit[1]
        pys = [self.fresh("e_") for _ in env]
        sc = Scope(ns, {n: Local(py, k, ar) for (n, k, ar), py in zip(env, pys, strict=True)},
                   primed)
        name = self.fresh("snip_")
        params = ", ".join([*STATE_ARGS, *pys])
        src = f"def {name}({params}):\n    return {self.expr(node, sc).src}\n"
        fn = self.exec(src, name)
        self._snippets[key] = (node, fn)
        return fn


    def arg_snippet(self, arg: A.Expr, arity: int, ns: Namespace,
                    env: tuple[tuple[str, LocalKind, int], ...]) -> Callable[..., Any]:
        """Like :meth:`snippet`, for an operator's argument (a callable when ``arity`` >
        0, see :meth:`op_arg`)."""
        key = ("arg", id(arg), id(ns), env)
        hit = self._snippets.get(key)
        if hit is not None:
            return hit[1]
        pys = [self.fresh("e_") for _ in env]
        sc = Scope(ns, {n: Local(py, k, ar) for (n, k, ar), py in zip(env, pys, strict=True)})
        name = self.fresh("arg_")
        params = ", ".join([*STATE_ARGS, *pys])
        fn = self.exec(f"def {name}({params}):\n    return {self.op_arg(arg, arity, sc)}\n",
                       name)
        self._snippets[key] = (arg, fn)
        return fn


# --------------------------------------------------------------------------- specials


def _bin(op: str) -> Callable[[Compiler, A.Node, tuple[A.Expr, ...], Scope], Code]:
    def compile_(c: Compiler, node: A.Node, args: tuple[A.Expr, ...], sc: Scope) -> Code:
        if op == "=>":
            return Code(f"(not {c.boolean(args[0], sc)} or {c.boolean(args[1], sc)})", True)
        if op == "<=>":
            return Code(f"({c.boolean(args[0], sc)} is {c.boolean(args[1], sc)})", True)
        if op in ("in", "notin") and isinstance(args[1], A.SetFilter):
            return c.fast.filter_membership(args[0], args[1], sc, op == "notin")
        if op in ("eq", "neq"):
            disjoint = c.fast.disjointness(node, args, sc, op == "neq")
            if disjoint is not None:
                return disjoint
        a, b = (c.expr(x, sc) for x in args)
        sid = c.sid(node)
        if op in ("eq", "neq"):
            return c.fast.equality(a, b, sid, sc, op == "neq")
        if op in ("in", "notin"):
            return c.fast.membership(a, b, sid, sc, op == "notin")
        return c.fast.set_binop(op, a, b, sid, sc)

    return compile_


def _not(c: Compiler, node: A.Node, args: tuple[A.Expr, ...], sc: Scope) -> Code:
    return Code(f"(not {c.boolean(args[0], sc)})", True)


def _enabled_op(c: Compiler, node: A.Node, args: tuple[A.Expr, ...], sc: Scope) -> Code:
    return c.x_Enabled(A.Enabled(args[0], span=node.span), sc)


def _unchanged_op(c: Compiler, node: A.Node, args: tuple[A.Expr, ...], sc: Scope) -> Code:
    return c.x_Unchanged(A.Unchanged(args[0], span=node.span), sc)


def _prime_op(c: Compiler, node: A.Node, args: tuple[A.Expr, ...], sc: Scope) -> Code:
    return c.x_Prime(A.Prime(args[0], span=node.span), sc)


_SPECIAL: dict[str, Callable[[Compiler, A.Node, tuple[A.Expr, ...], Scope], Code]] = {
    "=": _bin("eq"),
    "/=": _bin("neq"),
    "\\in": _bin("in"),
    "\\notin": _bin("notin"),
    "=>": _bin("=>"),
    "<=>": _bin("<=>"),
    "\\cap": _bin("cap"),
    "\\cup": _bin("cup"),
    "\\": _bin("minus"),
    "~": _not,
    "ENABLED": _enabled_op,
    "UNCHANGED": _unchanged_op,
    "'": _prime_op,
}


PURE_SPECIAL = frozenset(_SPECIAL) - {"ENABLED", "UNCHANGED", "'"}


_BIG_LITERAL = 10**4000
"""Integer literals this large go into the globals: Python refuses them in source text."""


def flatten_tuple(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Tuple):
        return [x for el in e.elems for x in flatten_tuple(el)]
    return [e]
