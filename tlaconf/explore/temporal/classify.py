"""Reading a ``PROPERTY`` (and the fairness of ``SPECIFICATION``) as TLC does.

A property is split into its conjuncts (through definitions, labels and ``\\A`` over a
constant set); each is sorted as TLC sorts it:

* a state predicate: checked on every initial state;
* ``[]P`` with ``P`` a state predicate: checked on every reachable state;
* ``[][A]_v``: checked on every step of the search (refinement's ``[][Next]_v`` too);
* anything else is a liveness conjunct, turned into a :mod:`formula` (``[]``, ``<>``,
  ``~>``, ``~``, ``=>``, ``<=>``, ``/\\``, ``\\/``, ``\\A``/``\\E`` over constant sets,
  ``WF``/``SF``, ``[][A]_v`` and ``<><<A>>_v``) and checked on the state graph.

Any other construct (``\\EE``, ``\\AA``, ``-+->``, an action not under ``[]``/``<>`` as
``[A]_v``/``<<A>>_v``) is :class:`Unsupported`, naming its place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from tlaconf.evaluate import Context
from tlaconf.evaluate.enabled import Enabler
from tlaconf.evaluate.runtime import NO_NEXT, NO_STATE
from tlaconf.evaluate.walk import Env
from tlaconf.explore.adapter import Namespace
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.temporal.formula import (
    FALSE,
    TRUE,
    Atom,
    Formula,
    always,
    conj,
    disj,
    eventually,
    lit,
    negate,
)
from tlaconf.tla import ast as A
from tlaconf.tla.visit import children

_DEPTH = 60
Site = tuple[A.Node, Namespace, Env]


@dataclass(frozen=True)
class Fair:
    """``WF_v(A)`` (``strong=False``) or ``SF_v(A)`` of the specification: the atoms
    ``ENABLED <<A>>_v`` and ``<<A>>_v``."""

    strong: bool
    enabled: int
    action: int
    text: str


@dataclass
class Property:
    """One ``PROPERTY`` of the ``.cfg``, sorted into what is checked where."""

    name: str
    where: str
    inits: list[int] = field(default_factory=list)
    invariants: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    liveness: list[tuple[Formula, str]] = field(default_factory=list)
    """Each liveness conjunct with its source text."""


@dataclass
class Properties:
    """Every ``PROPERTY`` of a model, the atoms they are built of and the fairness of the
    specification."""

    atoms: list[Atom]
    properties: list[Property]
    fairness: list[Fair]

    @property
    def liveness(self) -> bool:
        return any(p.liveness for p in self.properties)


class Reader:
    """Reads temporal formulas of one loaded module."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.w = Enabler(ctx.compiler)
        self.atoms: list[Atom] = []
        self._temporal: dict[tuple[int, int], bool] = {}
        self._action: dict[tuple[int, int], bool] = {}
        self.prop = ""

    # ---------------------------------------------------------------- entry points

    def property(self, name: str, where: str) -> Property:
        """The property defined by the parameterless operator ``name``."""
        entry = self.ctx.ns.lookup(name)
        if entry is None or entry.kind != "op" or entry.arity != 0:
            raise Unsupported(f"PROPERTY {name}: module {self.ctx.name} has no definition "
                              f"{name} without parameters", where)
        self.prop = f"PROPERTY {name}"
        out = Property(name, where)
        for node, ns, env in self.conjuncts(entry.node.body, entry.ns or self.ctx.ns, Env(), 0):
            self._sort(out, node, ns, env)
        return out

    def fairness(self, spec: str) -> list[Fair]:
        """The ``WF``/``SF`` conjuncts of the specification ``spec`` (expanded over the
        ``\\A`` that bind them)."""
        entry = self.ctx.ns.lookup(spec)
        if entry is None or entry.kind != "op":
            return []
        self.prop = f"SPECIFICATION {spec}"
        out = []
        for node, ns, env in self.conjuncts(entry.node.body, entry.ns or self.ctx.ns, Env(), 0):
            if isinstance(node, A.Fairness):
                en, act = self._fair_atoms(node, ns, env)
                out.append(Fair(node.kind == "SF", en, act, self.text(node)))
        return out

    # ---------------------------------------------------------------- structure

    def conjuncts(self, node: A.Node, ns: Namespace, env: Env, depth: int) -> Iterator[Site]:
        """The conjuncts of a temporal formula, through definitions and ``\\A``."""
        if depth > _DEPTH:
            raise self._unsupported(node, "definitions nest too deep")
        if isinstance(node, A.Label):
            yield from self.conjuncts(node.expr, ns, env, depth + 1)
        elif isinstance(node, A.Junction) and node.op == "/\\":
            for item in node.items:
                yield from self.conjuncts(item, ns, env, depth + 1)
        elif isinstance(node, A.Let) and self.temporal(node, ns, env):
            yield from self.conjuncts(node.body, ns, self.w.bind_let(node, ns, env), depth + 1)
        elif isinstance(node, A.Quant) and node.kind == "A" and self.temporal(node.body, ns, env):
            for binding in self._bindings(node, ns, env):
                yield from self.conjuncts(node.body, ns, env.extend(*binding), depth + 1)
        elif isinstance(node, A.Name | A.OpApp) and self.temporal(node, ns, env) \
                and not (isinstance(node, A.OpApp) and not node.module and node.name in _OPS):
            called = self.w.call_target(node, ns, env)
            if called is None:
                raise self._unsupported(node, "this temporal operator is not understood")
            yield from self.conjuncts(called[0], called[1], called[2], depth + 1)
        else:
            yield node, ns, env

    def temporal(self, node: A.Node, ns: Namespace, env: Env) -> bool:
        """Whether ``node`` contains a temporal operator, directly or through what it
        calls."""
        key = (id(node), id(ns))
        hit = self._temporal.get(key)
        if hit is None:
            self._temporal[key] = False  # a recursive definition is not temporal
            hit = self._is_temporal(node, ns, env, 0)
            self._temporal[key] = hit
        return hit

    def _is_temporal(self, node: A.Node, ns: Namespace, env: Env, depth: int) -> bool:
        if isinstance(node, A.Fairness | A.TemporalQuant):
            return True
        if _builtin_temporal(node):
            return True
        if isinstance(node, A.Name | A.OpApp) and depth < _DEPTH:
            called = self.w.call_target(node, ns, env)
            if called is not None and self.temporal(called[0], called[1], called[2]):
                return True
        return any(self.temporal(c, ns, env) for c in children(node))

    # ---------------------------------------------------------------- sorting

    def _sort(self, out: Property, node: A.Node, ns: Namespace, env: Env) -> None:
        if not self.temporal(node, ns, env):
            if self._is_action(node, ns, env):
                raise self._unsupported(node, "an action outside [][A]_v or <><<A>>_v")
            out.inits.append(self.atom(node, ns, env, False))
            return
        inner = _unwrap(node)
        if isinstance(inner, A.OpApp) and inner.name == "[]" and not inner.module:
            arg = _unwrap(inner.args[0])
            if isinstance(arg, A.ActionBox) and not arg.angle \
                    and not self.temporal(arg, ns, env):
                out.actions.append(self.atom(arg, ns, env, True, inner))
                return
            if not self.temporal(arg, ns, env) and not self._is_action(arg, ns, env):
                out.invariants.append(self.atom(arg, ns, env, False, inner))
                return
        out.liveness.append((self.formula(node, ns, env, 0), self.text(node) + _with(env)))

    def formula(self, node: A.Node, ns: Namespace, env: Env, depth: int) -> Formula:
        """``node`` as a temporal formula in negation normal form."""
        if depth > _DEPTH:
            raise self._unsupported(node, "definitions nest too deep")
        d = depth + 1
        if not self.temporal(node, ns, env):
            if isinstance(node, A.Bool):
                return TRUE if node.value else FALSE
            if self._is_action(node, ns, env):
                raise self._unsupported(node, "an action outside [][A]_v or <><<A>>_v")
            return lit(self.atom(node, ns, env, False))
        if isinstance(node, A.Label):
            return self.formula(node.expr, ns, env, d)
        if isinstance(node, A.Junction):
            parts = [self.formula(i, ns, env, d) for i in node.items]
            acc = parts[0]
            for p in parts[1:]:
                acc = conj(acc, p) if node.op == "/\\" else disj(acc, p)
            return acc
        if isinstance(node, A.Fairness):
            en, act = self._fair_atoms(node, ns, env)
            taken = always(eventually(lit(act)))
            if node.kind == "WF":
                return disj(always(eventually(lit(en, False))), taken)
            return disj(eventually(always(lit(en, False))), taken)
        if isinstance(node, A.OpApp) and not node.module and node.name in _OPS:
            return self._operator(node, ns, env, d)
        if isinstance(node, A.Quant):
            parts = [self.formula(node.body, ns, env.extend(*b), d)
                     for b in self._bindings(node, ns, env)]
            acc = TRUE if node.kind == "A" else FALSE
            for p in parts:
                acc = conj(acc, p) if node.kind == "A" else disj(acc, p)
            return acc
        if isinstance(node, A.Let):
            return self.formula(node.body, ns, self.w.bind_let(node, ns, env), d)
        if isinstance(node, A.If) and not self.temporal(node.cond, ns, env):
            c = self.formula(node.cond, ns, env, d)
            return disj(conj(c, self.formula(node.then, ns, env, d)),
                        conj(negate(c), self.formula(node.else_, ns, env, d)))
        if isinstance(node, A.Name | A.OpApp):
            called = self.w.call_target(node, ns, env)
            if called is not None:
                return self.formula(called[0], called[1], called[2], d)
        raise self._unsupported(node, "this temporal formula is not supported")

    def _operator(self, node: A.OpApp, ns: Namespace, env: Env, d: int) -> Formula:
        args = node.args
        if node.name in ("[]", "<>"):
            arg = _unwrap(args[0])
            box = node.name == "[]"
            if isinstance(arg, A.ActionBox) and not self.temporal(arg, ns, env):
                if arg.angle == box:
                    form = "[][A]_v" if box else "<><<A>>_v"
                    raise self._unsupported(node, f"an action formula must be written {form}")
                inner = lit(self.atom(arg, ns, env, True))
            else:
                inner = self.formula(arg, ns, env, d)
            return always(inner) if box else eventually(inner)
        f = [self.formula(a, ns, env, d) for a in args]
        if node.name == "~":
            return negate(f[0])
        if node.name == "=>":
            return disj(negate(f[0]), f[1])
        if node.name == "<=>":
            return disj(conj(f[0], f[1]), conj(negate(f[0]), negate(f[1])))
        if node.name == "~>":
            return always(disj(negate(f[0]), eventually(f[1])))
        raise self._unsupported(node, f"the operator {node.name} is not supported")

    # ---------------------------------------------------------------- atoms

    def atom(self, node: A.Node, ns: Namespace, env: Env, action: bool,
             written: A.Node | None = None) -> int:
        """A new atom for ``node``, which stands for the formula ``written`` (default:
        itself)."""
        at = written or node
        self.atoms.append(Atom(node, ns, env, action, self.text(at) + _with(env), at.span))
        return len(self.atoms) - 1

    def _fair_atoms(self, node: A.Fairness, ns: Namespace, env: Env) -> tuple[int, int]:
        if self.temporal(node.action, ns, env) or self.temporal(node.sub, ns, env):
            raise self._unsupported(node, "a temporal formula inside WF/SF")
        box = A.ActionBox(node.action, node.sub, True, span=node.span)
        en = A.Enabled(box, span=node.span)
        act_text = f"<<{self.text(node.action)}>>_{self.text(node.sub)}"
        self.atoms.append(Atom(en, ns, env, False, f"ENABLED {act_text}", node.span))
        self.atoms.append(Atom(box, ns, env, True, act_text, node.span))
        return len(self.atoms) - 2, len(self.atoms) - 1

    def _is_action(self, node: A.Node, ns: Namespace, env: Env, depth: int = 0) -> bool:
        """Whether ``node`` reads the next state (a prime, ``UNCHANGED`` or ``[A]_v``
        outside ``ENABLED``), directly or through what it calls."""
        key = (id(node), id(ns))
        hit = self._action.get(key)
        if hit is not None:
            return hit
        self._action[key] = False  # a recursive definition reads what its body reads
        if isinstance(node, A.Enabled):
            found = False
        elif isinstance(node, A.Prime | A.Unchanged | A.ActionBox):
            found = True
        else:
            called = self.w.call_target(node, ns, env) if depth < _DEPTH and isinstance(
                node, A.Name | A.OpApp) else None
            found = (called is not None and self._is_action(*called[:3], depth + 1)) or any(
                self._is_action(c, ns, env, depth + 1) for c in children(node))
        self._action[key] = found
        return found

    def _bindings(self, node: A.Quant, ns: Namespace, env: Env) -> list[tuple]:
        try:
            with self.w.in_state(NO_STATE, NO_NEXT):
                return list(self.w.bindings_of(node.bounds, ns, env,
                                               self.ctx.compiler.sid(node)))
        except Exception as exc:
            raise self.ctx.evaluation_error(exc, node) from None

    # ---------------------------------------------------------------- messages

    def text(self, node: A.Node) -> str:
        sp = node.span
        src = self.ctx.loader.texts.get(sp.file)
        if src is None or sp.line <= 0:
            return type(node).__name__
        lines = src.splitlines()[sp.line - 1: sp.end_line]
        if len(lines) == 1:
            lines[0] = lines[0][sp.col - 1: sp.end_col]
        elif lines:
            lines[0] = lines[0][sp.col - 1:]
            lines[-1] = lines[-1][: sp.end_col]
        return " ".join(" ".join(lines).split())

    def _unsupported(self, node: A.Node, why: str) -> Unsupported:
        sp = node.span
        place = f"{sp.file}:{sp.line}:{sp.col}" if sp.line else None
        return Unsupported(f"{self.prop}: {why}: {self.text(node)} (not checked)", place)


_OPS = frozenset({"[]", "<>", "~>", "~", "=>", "<=>", "-+->"})
_TEMPORAL_OPS = frozenset({"[]", "<>", "~>", "-+->"})


def _builtin_temporal(node: A.Node) -> bool:
    return isinstance(node, A.OpApp) and not node.module and node.name in _TEMPORAL_OPS


def _unwrap(node: A.Node) -> A.Node:
    while isinstance(node, A.Label):
        node = node.expr
    return node


def _with(env: Env) -> str:
    from tlaconf.values import to_tla

    vals = [f"{b.name} = {to_tla(b.value)}" for b in env.bindings if b.kind == "val"]
    return f" (with {', '.join(vals)})" if vals else ""


def read_properties(ctx: Context, names: tuple[str, ...], lines: dict[str, str],
                    specification: str | None) -> Properties:
    """The properties ``names`` of the module ``ctx`` (``lines``: each name's ``.cfg``
    place) and the fairness of ``specification``; :class:`Unsupported` for a formula
    tlaconf does not check."""
    reader = Reader(ctx)
    props = [reader.property(n, lines[n]) for n in names]
    fair = reader.fairness(specification) if specification and any(
        p.liveness for p in props) else []
    return Properties(reader.atoms, props, fair)
