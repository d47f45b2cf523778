r"""Early exits of an ``\E`` loop: a conjunct that does not read the bound variables.

``\E b, e \in S : A(i, j, <<b, e>>)`` where ``A``'s body begins ``i /= j /\ b <= e /\
state[i] = Leader /\ ...`` is FALSE for every binding once ``state[i] = Leader`` is
FALSE for one: TLC evaluates the conjuncts of each binding left to right, so that
conjunct is evaluated, with the same value, at every binding that gets past the ones
before it, and those cannot fail (they are total or do not read the bindings either).
The loop then stops at the first binding where it is FALSE, instead of going through
all of ``S`` (a range of log indices, squared).

The conjuncts are read through operator calls whose arguments are plain (bound
variables, parameters, constants, literals and tuples of them).  A conjunct qualifies
when nothing it evaluates prints or reads TLC's registers.  Before it, the conjuncts
that read the bindings must be *total*: comparisons of integers bound by an interval
(``b <= e``, ``range[1] <= range[2]`` with ``range = <<b, e>>``) and the like, which
never fail.  So an error TLC would report is still reported, at the same binding, and
no evaluation is skipped that could print or fail.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tlaconf.evaluate import builtins as B
from tlaconf.evaluate.code import Local, LocalKind, Scope
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names

if TYPE_CHECKING:
    from tlaconf.evaluate.compiler import Compiler

Shape = Any
"""What is known of a total value: ``int``, ``str``, ``bool`` or a tuple of shapes."""

_COMPARE = frozenset({"<", "<=", ">", ">=", "\\leq", "\\geq", "=<"})
_ARITH = frozenset({"+", "-"})
_EQUAL = frozenset({"=", "/=", "#"})
_DEPTH = 6
"""How many operator calls deep the conjuncts are read."""


@dataclass(frozen=True)
class _Name:
    """A name of the conjuncts' scope: the Python name holding it, whether it reads the
    bindings of the loop, and its shape if it is total."""

    py: str
    bound: bool
    shape: Shape = None
    kind: LocalKind = "val"
    """``maybe``: a parameter whose argument may be a deferred error (raised at use)."""


@dataclass(frozen=True)
class _Frame:
    """Where a conjunct is compiled: its scope, and what is known of its names (the
    loop's bound variables, or a callee's parameters)."""

    sc: Scope
    env: dict[str, _Name]

    def reads_bindings(self, node: A.Node) -> bool:
        """Whether ``node`` reads a name bound by the loop (directly or through an
        argument)."""
        return any(not m and n in self.env and self.env[n].bound
                   for n, m in free_names(node))

    def visible(self, node: A.Node) -> bool:
        """Whether every local ``node`` reads is a value (not a LET definition, whose
        body this analysis does not read)."""
        return all(m or n not in self.sc.locals or self.sc.locals[n].kind in ("val", "maybe")
                   for n, m in free_names(node))


class Guards:
    """The early exits of the ``\\E`` loops one compiler generates."""

    def __init__(self, c: Compiler) -> None:
        self.c = c
        self._pure: dict[int, bool] = {}

    def lines(self, node: A.Quant, inner: Scope) -> list[str]:
        r"""Statements for the innermost loop of ``node`` (an ``\E``) compiled in
        ``inner``: ``continue`` past a binding that a total conjunct rejects, ``return
        False`` when a conjunct that does not read the bindings is FALSE."""
        if node.kind != "E":
            return []
        names: dict[str, _Name] = {}
        for b in node.bounds:
            shape = "int" if b.domain is not None and self._interval(b.domain, inner) else None
            for n in b.names:
                names[n] = _Name(inner.locals[n].py, True,
                                 None if b.tuple_pattern else shape)
        out: list[str] = []
        stop = False
        prefix: list[str] = []
        for conj, frame in self._conjuncts(node.body, _Frame(inner, names), inner, prefix, 0):
            if not frame.visible(conj) or not self._pure_node(conj, frame.sc.ns, set(frame.env)):
                break
            if not frame.reads_bindings(conj):
                out += [*prefix, f"if not {self.c.boolean(conj, frame.sc)}:", "    return False"]
                prefix, stop = [], True
            elif _total(conj, frame, self.c) == "bool":
                out += [*prefix, f"if not {self.c.boolean(conj, frame.sc)}:", "    continue"]
                prefix = []
            else:
                break
        return out if stop else []

    def _conjuncts(self, node: A.Node, frame: _Frame, top: Scope, prefix: list[str],
                   depth: int) -> Generator[tuple[A.Node, _Frame], None, bool]:
        """The leading conjuncts of ``node`` (through calls with plain arguments), each
        with its frame; ``prefix`` gets the assignments of the arguments before the
        conjunct that first reads them.  Returns whether every conjunct was given."""
        while isinstance(node, A.Label):
            node = node.expr
        if isinstance(node, A.Junction) and node.op == "/\\":
            for item in node.items:
                more = yield from self._conjuncts(item, frame, top, prefix, depth)
                if not more:
                    return False
            return True
        call = self._call(node, frame, depth)
        if call is None:
            yield node, frame
            return True
        entry, args = call
        assert entry.ns is not None
        env: dict[str, _Name] = {}
        for p, a in zip(entry.node.params, args, strict=True):
            local = frame.sc.locals.get(a.name) if isinstance(a, A.Name) else None
            if local is not None and local.kind == "maybe":  # passed on as it is
                env[p.name] = _Name(local.py, frame.reads_bindings(a), None, "maybe")
                continue
            py = self.c.fresh(f"g_{p.name}_")
            prefix.append(f"{py} = {self.c.expr(a, frame.sc).src}")
            env[p.name] = _Name(py, frame.reads_bindings(a), _total(a, frame, self.c))
        sc = Scope(entry.ns, {n: Local(v.py, v.kind) for n, v in env.items()}, top.primed)
        return (yield from self._conjuncts(entry.node.body, _Frame(sc, env), top, prefix,
                                           depth + 1))

    def _call(self, node: A.Node, frame: _Frame, depth: int
              ) -> tuple[Entry, tuple[A.Expr, ...]] | None:
        """The user definition ``node`` calls and its arguments, if its arguments are
        plain and it is not a parameterized instance's."""
        if depth >= _DEPTH or not isinstance(node, A.OpApp | A.Name) or node.module:
            return None
        if node.name in frame.sc.locals:
            return None
        entry = self.c.resolve_entry(frame.sc.ns, node.name, ())
        args = node.args if isinstance(node, A.OpApp) else ()
        if entry is None or entry.kind != "op" or entry.ns is None or entry.ns.inst_params \
                or len(entry.node.params) != len(args) \
                or any(p.arity for p in entry.node.params):
            return None
        if not all(self._plain(a, frame) for a in args):
            return None
        return entry, args

    def _plain(self, a: A.Expr, frame: _Frame) -> bool:
        """A bound variable, a parameter, a constant, a literal or a tuple of them: an
        argument evaluated here as the callee would, without failing."""
        if isinstance(a, A.Num | A.Str | A.Bool):
            return True
        if isinstance(a, A.Tuple):
            return all(self._plain(e, frame) for e in a.elems)
        if not isinstance(a, A.Name) or a.module:
            return False
        if a.name in frame.sc.locals:
            return frame.sc.locals[a.name].kind in ("val", "maybe")
        entry = self.c.resolve_entry(frame.sc.ns, a.name, ())
        return entry is not None and entry.kind in ("const", "value")

    def _pure_node(self, node: A.Node, ns: Namespace, params: set[str]) -> bool:
        """Whether evaluating ``node`` neither prints nor reads or writes TLC's
        registers, through the definitions it uses."""
        for name, module in free_names(node, params):
            entry = self.c.resolve_entry(ns, name, module)
            if entry is not None and not self._pure_entry(entry):
                return False
        return True

    def _pure_entry(self, entry: Entry) -> bool:
        if entry.kind == "builtin":
            return entry.value[0] not in B.EFFECTS
        if entry.kind not in ("op", "fn", "subst") or entry.ns is None:
            return True
        key = id(entry)
        if key not in self._pure:
            self._pure[key] = True  # a recursive definition: its other parts decide
            node = entry.node
            if entry.kind == "subst":
                self._pure[key] = self._pure_node(node, entry.ns, set())
            elif entry.kind == "op":
                self._pure[key] = self._pure_node(node.body, entry.ns,
                                                  {p.name for p in node.params})
            else:
                self._pure[key] = self._pure_node(
                    node.body, entry.ns, {n for b in node.bounds for n in b.names}
                    | {node.name}) and all(self._pure_node(b.domain, entry.ns, set())
                                           for b in node.bounds if b.domain is not None)
        return self._pure[key]

    def _interval(self, dom: A.Expr, sc: Scope) -> bool:
        """Whether ``dom`` is ``a .. b`` (its elements are integers)."""
        if not isinstance(dom, A.OpApp) or dom.name != ".." or dom.module:
            return False
        entry = self.c.resolve_entry(sc.ns, "..", ())
        return entry is not None and entry.kind == "builtin" \
            and entry.value[0] is B.NATURALS[".."][0]


def _total(node: A.Node, frame: _Frame, c: Compiler) -> Shape:
    """The shape of ``node`` if its evaluation cannot fail, else None: literals, names
    of known shape, tuples, ``t[k]`` of a tuple, ``+``/``-``/comparisons of integers,
    ``=``/``/=`` of two values of one scalar kind, and ``/\\``, ``\\/``, ``~`` of those."""
    env, ns = frame.env, frame.sc.ns
    if isinstance(node, A.Num):
        return "int"
    if isinstance(node, A.Str):
        return "str"
    if isinstance(node, A.Bool):
        return "bool"
    if isinstance(node, A.Name) and not node.module:
        return env[node.name].shape if node.name in env else None
    if isinstance(node, A.Tuple):
        shapes = tuple(_total(e, frame, c) for e in node.elems)
        return None if any(s is None for s in shapes) else shapes
    if isinstance(node, A.FnApp) and len(node.args) == 1 and isinstance(node.args[0], A.Num):
        t = _total(node.fn, frame, c)
        k = node.args[0].value
        return t[k - 1] if type(t) is tuple and 1 <= k <= len(t) else None
    if isinstance(node, A.Junction):
        ok = all(_total(i, frame, c) == "bool" for i in node.items)
        return "bool" if ok else None
    if not isinstance(node, A.OpApp) or node.module:
        return None
    kinds = [_total(a, frame, c) for a in node.args]
    if node.name == "~" and kinds == ["bool"] and _builtin(c, ns, "~"):
        return "bool"
    if len(kinds) != 2 or kinds[0] is None or type(kinds[0]) is tuple or kinds[0] != kinds[1]:
        return None
    if node.name in _EQUAL and _builtin(c, ns, node.name):
        return "bool"
    if kinds[0] == "int" and node.name in _COMPARE | _ARITH:
        entry = c.resolve_entry(ns, node.name, ())
        if entry is not None and entry.kind == "builtin" \
                and entry.value[0] is B.NATURALS.get(node.name, (None,))[0]:
            return "bool" if node.name in _COMPARE else "int"
    return None


def _builtin(c: Compiler, ns: Namespace, name: str) -> bool:
    """Whether ``name`` is TLA+'s own (not redefined by the spec)."""
    entry = ns.lookup(name)
    return entry is None or entry.kind == "builtin"
