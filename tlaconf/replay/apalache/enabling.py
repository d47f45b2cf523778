"""A rejected step's cheap test: the conjuncts of its action that read no next state.

For a rejected step with action ``A(p)``, Apalache must find that ``A(p)`` is not
enabled; as a transition, every universal quantifier of ``A`` is expanded (15 to
50 s of the server's CPU for one ``AtomicZoneMove4``).  But most steps are rejected
by a condition on the state alone (the identifier is not in the source zone).
:func:`state_guards` finds such conditions statically: ``G``, the conjunction of
the conjuncts of ``A(p)``'s body, through ``/\\``, labels, zero-arity LET
definitions and calls of defined operators (their parameters replaced by the
arguments), that reach no prime, ``UNCHANGED`` or ``ENABLED``.  ``A(p)`` implies
``G``, and ``G`` depends on the state only; so when ``G`` is false in the state
before the step, ``A(p)`` is disabled there.  tlaconf asks ``G`` as a STATE
invariant (its universal quantifiers are skolemized, not expanded): VIOLATED
means disabled, with no transition; SATISFIED means nothing, and the full probe
follows.

The text of ``G`` goes into the root module, where only the conformance module's
exported names, its variables and the bound constants (``TlaconfConst_<c>``) are
visible: a conjunct that names anything else (a LOCAL definition, a constant of
another module, a qualified name), binds a name visible there, or has a form
:mod:`~tlaconf.replay.apalache.tlatext` refuses is left out of ``G`` (a weaker
``G`` is still implied by ``A(p)``); a call that cannot be written is expanded
instead.  Anything in doubt counts as reading the next state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tlaconf.errors import UserError
from tlaconf.evaluate.levels import has_stateful
from tlaconf.replay.apalache.tlatext import Unprintable, expression_text
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.tla import ast as A
from tlaconf.tla.parser import parse_module
from tlaconf.tla.resolve import (
    BUILTIN_OPERATORS,
    BUILTIN_VALUES,
    ResolvedModule,
    ResolveErrors,
    Symbol,
    resolve,
)
from tlaconf.tla.visit import free_names

PARAM = "tlaconf_p"
"""The parameter of a guard operator (the step's params)."""

ROOT_NAMES = frozenset({
    "Nat", "Int", "+", "-", "*", "^", "<", ">", "<=", ">=", "%", "\\div", "..", "-.",
    "ApaFoldSeqLeft", "ApaFoldSet", "ConstCardinality", "Expand", "FunAsSeq", "Gen", "Guess",
    "MkSeq", "Repeat", "SetAsFun", "Skolem", ":=",
})  # fmt: skip
"""What the root module's own EXTENDS Integers, Apalache defines (no binder may take them)."""

ROOT_MODULES = frozenset({"Naturals", "Integers", "Apalache"})
"""The standard modules the root module extends anyway."""

_DEPTH = 30
"""How many calls deep the conjuncts are looked for (a recursive action stops there)."""


@dataclass(frozen=True)
class Guards:
    """The body of each action's guard, and the standard modules they name (which the root
    module extends: Apalache's INSTANCE brings their operators, tlaconf's evaluator not)."""

    bodies: dict[str, str]
    modules: tuple[str, ...] = ()


NO_GUARDS = Guards({})


@dataclass(frozen=True)
class _Arg:
    """A parameter or LET name replaced by text: ``text`` None when it cannot be written;
    ``action``: whether it reads the next state (or might)."""

    text: str | None
    action: bool


@dataclass(frozen=True)
class _Scope:
    module: ResolvedModule
    args: dict[str, _Arg]


def _plain_instances(root: ResolvedModule) -> bool:
    """Whether every INSTANCE of the module graph puts a variable, a constant or a value of
    the state for each parameter of what it instantiates (then no parameter of a module
    can stand for the next state)."""
    for rm in root.graph.modules.values():
        for unit in rm.module.units:
            inst = unit.instance if isinstance(unit, A.InstanceDef) else unit
            if not isinstance(inst, A.Instance) or inst.module not in root.graph.modules:
                continue
            target = root.graph.modules[inst.module]
            given = dict(inst.substitutions)
            for name, sym in target.symbols.items():
                if sym.kind not in ("constant", "variable"):
                    continue
                if name in given:
                    e = given[name]
                    names = free_names(e)
                    if has_stateful(e) or any(path or (s := rm.symbols.get(n)) is None
                                              or s.kind not in ("constant", "variable", "builtin")
                                              for n, path in names):  # fmt: skip
                        return False
                elif (s := rm.symbols.get(name)) is None or s.kind not in ("constant", "variable"):
                    return False
    return True


class _Guards:
    def __init__(self, root: ResolvedModule, constants: frozenset[str],
                 variables: frozenset[str]) -> None:  # fmt: skip
        self.root = root
        self.constants = constants
        self.variables = variables
        self.visible = set(root.symbols) | set(root.exported) | ROOT_NAMES
        self.plain = _plain_instances(root)
        self.modules: set[str] = set()
        """The standard modules of the names written so far."""

    def module(self, sym: Symbol) -> ResolvedModule | None:
        rm = self.root.graph.modules.get(sym.module)
        return None if rm is None or rm.standard else rm

    # ------------------------------------------------------------------ levels

    def reads_next(self, node: A.Node, scope: _Scope, bound: frozenset[str] = frozenset()) -> bool:
        """Whether ``node`` reaches a prime, UNCHANGED or ENABLED (True when in doubt)."""
        return self._reads(node, scope.module, bound, scope.args, set())

    def _reads(self, node: A.Node, module: ResolvedModule, bound: frozenset[str],
               args: dict[str, _Arg], seen: set[int]) -> bool:  # fmt: skip
        if has_stateful(node):
            return True
        for name, path in free_names(node, bound):
            if path:
                return True
            if name in args:
                if args[name].action:
                    return True
                continue
            sym = module.symbols.get(name)
            if sym is None:
                if name in BUILTIN_OPERATORS or name in BUILTIN_VALUES:
                    continue
                return True
            if sym.kind == "builtin":
                continue
            if sym.kind in ("variable", "constant"):
                if self.plain or self.root.symbols.get(name) is sym:
                    continue
                return True  # an instance's parameter, which may stand for anything
            if sym.kind not in ("operator", "function") or sym.node is None:
                return True
            if id(sym.node) in seen:
                continue
            seen.add(id(sym.node))
            owner = self.root.graph.modules.get(sym.module)
            if owner is None:
                return True
            if owner.standard:
                continue
            if self._definition_reads(sym.node, owner, seen):
                return True
        return False

    def _definition_reads(self, node: A.Node, owner: ResolvedModule, seen: set[int]) -> bool:
        if isinstance(node, A.OpDef):
            if any(p.arity for p in node.params):
                return True
            inner = frozenset(p.name for p in node.params)
            return self._reads(node.body, owner, inner, {}, seen)
        if isinstance(node, A.FnDef):
            names = frozenset(n for b in node.bounds for n in b.names) | {node.name}
            domains = [b.domain for b in node.bounds if b.domain is not None]
            return any(self._reads(d, owner, frozenset(), {}, seen) for d in domains) or (
                self._reads(node.body, owner, names, {}, seen)
            )
        return True

    # ------------------------------------------------------------------ text

    def text(self, node: A.Node, scope: _Scope) -> str:
        """``node`` written for the root module (Unprintable if it cannot be)."""

        def name(n: str) -> str:
            if n in scope.args:
                text = scope.args[n].text
                if text is None:
                    raise Unprintable(n)
                return text
            sym = scope.module.symbols.get(n)
            if sym is None:
                if n in BUILTIN_OPERATORS or n in BUILTIN_VALUES:
                    return n
                raise Unprintable(n)
            if sym.kind == "constant":
                if n in self.constants and self.root.symbols.get(n) is sym:
                    return f"TlaconfConst_{n}"
                raise Unprintable(n)
            if sym.kind == "variable" and n not in self.variables:
                raise Unprintable(n)
            if sym.kind not in ("variable", "operator", "function", "builtin"):
                raise Unprintable(n)
            if self.root.exported.get(n) is not sym:
                raise Unprintable(n)  # another meaning (or none) in the root module
            owner = self.root.graph.modules.get(sym.module)
            if owner is not None and owner.standard:
                named.add(sym.module)
            return n

        def binder(n: str) -> None:
            if n in self.visible or n in scope.args or n.lower().startswith("tlaconf"):
                raise Unprintable(n)

        named: set[str] = set()
        text = expression_text(node, name, binder)
        self.modules |= named  # only once the whole text is written
        return text

    def _arg(self, node: A.Node, scope: _Scope) -> _Arg:
        try:
            text: str | None = f"({self.text(node, scope)})"
        except Unprintable:
            text = None
        return _Arg(text, self.reads_next(node, scope))

    # ------------------------------------------------------------------ conjuncts

    def conjuncts(self, node: A.Node, scope: _Scope, depth: int = 0) -> Iterator[str]:
        """The texts of ``node``'s conjuncts that read no next state (see the module doc)."""
        if depth > _DEPTH:
            return
        while isinstance(node, A.Label):
            node = node.expr
        if isinstance(node, A.Junction) and node.op == "/\\":
            for item in node.items:
                yield from self.conjuncts(item, scope, depth)
            return
        if isinstance(node, A.Let):
            args = dict(scope.args)
            for d in node.defs:
                inner = _Scope(scope.module, args)
                if isinstance(d, A.OpDef) and not d.params:
                    args = {**args, d.name: self._arg(d.body, inner)}
                else:
                    name = getattr(d, "name", None)
                    args = {**args, name: _Arg(None, True)} if name else args
            yield from self.conjuncts(node.body, _Scope(scope.module, args), depth)
            return
        if not self.reads_next(node, scope):
            try:
                yield self.text(node, scope)
                return
            except Unprintable:
                pass  # a call of what the root module cannot name: its body, below
        yield from self._called(node, scope, depth)

    def _called(self, node: A.Node, scope: _Scope, depth: int) -> Iterator[str]:
        """The conjuncts of the body of the operator ``node`` calls, if it calls one."""
        if isinstance(node, A.OpApp | A.Name) and not node.module and node.name not in scope.args:
            sym = scope.module.symbols.get(node.name)
            owner = self.module(sym) if sym is not None else None
            definition = sym.node if sym is not None else None
            given = node.args if isinstance(node, A.OpApp) else ()
            if (owner is not None and isinstance(definition, A.OpDef)
                    and len(definition.params) == len(given)
                    and not any(p.arity for p in definition.params)):  # fmt: skip
                args = {p.name: self._arg(a, scope) for p, a in zip(definition.params, given,
                                                                    strict=True)}  # fmt: skip
                yield from self.conjuncts(definition.body, _Scope(owner, args), depth + 1)


def state_guards(spec: ModuleSpec, actions: set[str], variables: tuple[str, ...]) -> Guards:
    """The guard of each action of ``actions`` (defined in ``spec``'s module with one
    parameter) that has conjuncts reading no next state: their conjunction, with the
    params as :data:`PARAM` (see the module docstring)."""
    try:
        text = spec.path.read_text(encoding="utf-8")
        root = resolve(parse_module(text, str(spec.path)), spec.search_path,
                       file=str(spec.path), text=text)  # fmt: skip
    except (OSError, UserError, ResolveErrors):
        return NO_GUARDS  # the bundle reports it
    guards = _Guards(root, frozenset(spec.constants), frozenset(variables))
    bodies: dict[str, str] = {}
    for action in sorted(actions):
        sym = root.symbols.get(action)
        node = sym.node if sym is not None else None
        owner = guards.module(sym) if sym is not None else None
        if owner is None or not isinstance(node, A.OpDef) or len(node.params) != 1:
            continue
        scope = _Scope(owner, {node.params[0].name: _Arg(PARAM, False)})
        found = list(dict.fromkeys(guards.conjuncts(node.body, scope)))
        if found:
            bodies[action] = " /\\ ".join(f"({c})" for c in found)
    return Guards(bodies, tuple(sorted(guards.modules - ROOT_MODULES)))
