"""The evaluator's public API: load a module, then evaluate its operators on states."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import budget
from tlaconf.evaluate.assigned import AssignmentChecker
from tlaconf.evaluate.blame import Blame, Blamer
from tlaconf.evaluate.compiler import TOO_DEEP_TO_COMPILE, Compiler
from tlaconf.evaluate.enabled import Enabler
from tlaconf.evaluate.errors import EvalError
from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import kind_of
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import (
    Entry,
    EvaluatorModules,
    Namespace,
    NamespaceBuilder,
    Override,
)
from tlaconf.evaluate.reads import Reads
from tlaconf.evaluate.runtime import NO_NEXT, NextState
from tlaconf.evaluate.semantics import materialize
from tlaconf.evaluate.walk import Binding, Env
from tlaconf.tla import ast as A
from tlaconf.tla import resolve
from tlaconf.tla.visit import free_names


@dataclass(frozen=True)
class OperatorInfo:
    name: str
    arity: int
    span: A.Span


_MISSING = object()
"""A variable a state lacks (its check then fails as it would)."""


class Context:
    """A loaded, compiled module with its constants bound."""

    def __init__(
        self, module: A.Module, loader: EvaluatorModules, constants: Mapping[str, Any]
    ) -> None:
        self.module = module
        self.name = module.name
        self.loader = loader
        self.builder = NamespaceBuilder(loader)
        self.ns: Namespace = self.builder.root(module, dict(constants))
        self.compiler = Compiler()
        self.variables: tuple[str, ...] = self.ns.variables
        self.constants: tuple[str, ...] = tuple(sorted(
            n for n, e in self.ns.entries.items()
            if e.kind == "const" or isinstance(constants.get(n), Override)))
        """The CONSTANTS the module declares (its own and those of what it EXTENDS)."""
        self.operators: dict[str, OperatorInfo] = {
            d.name: OperatorInfo(d.name, len(d.params) if isinstance(d, A.OpDef) else 0, d.span)
            for d in module.units
            if isinstance(d, A.OpDef | A.FnDef)
        }
        self._fns: dict[str, Callable[..., Any]] = {}
        self._exprs: dict[str, Callable[..., Any]] = {}
        self.compiler.G["_ENABLED"] = self._enabled_in
        self._enabler = Enabler(self.compiler)
        self._blamer = Blamer(self.compiler, self.loader.texts)
        self._reads = Reads(self.compiler)

    # ----------------------------------------------------------------- errors

    def _error(self, exc: BaseException, where: A.Node | None) -> BaseException:
        """The user-facing EvalError for ``exc``; any other exception is a bug in the
        evaluator and is returned as it is (the CLI reports it as an internal error)."""
        fallback = where.span if where is not None else A.NO_SPAN
        if isinstance(exc, EvalError):
            return exc
        if isinstance(exc, Fail):
            span = self.compiler.spans[exc.sid] if exc.sid >= 0 else fallback
            return EvalError(exc.message, span, tuple((n, str(v)) for n, v in exc.values))
        if isinstance(exc, KeyError):
            return EvalError(f"variable {exc.args[0]} is missing from the state", fallback)
        if isinstance(exc, RecursionError):
            return EvalError("recursion too deep: evaluation nested deeper than tlaconf's "
                             f"limit of {budget.DEEP_LIMIT:,} Python calls (a recursion that "
                             "does not end, or one too deep to evaluate)", fallback)
        return exc

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(*args)``, run again on a deep stack when it recurses too deep (the TLCSet
        registers put back as they were before)."""
        registers = self.compiler.registers
        saved = dict(registers)

        def again() -> None:
            registers.clear()
            registers.update(saved)

        return budget.call(fn, args, again)

    def _entry(self, op: str) -> Entry:
        entry = self.ns.lookup(op)
        if entry is None or entry.kind not in ("op", "fn"):
            raise UserError(f"module {self.name} has no operator {op}")
        return entry

    def _fn(self, op: str, nargs: int) -> Callable[..., Any]:
        fn = self._fns.get(op)
        if fn is None:
            entry = self._entry(op)
            if entry.arity != nargs:
                raise UserError(f"{op} takes {entry.arity} arguments, got {nargs}")
            try:
                with budget.limit(entry.node.span):  # compiling folds constants
                    fn = self.compiler.G[self.compiler.def_fn(entry)]
            except Exception as exc:
                raise self._error(exc, entry.node) from None
            self._fns[op] = fn
        return fn

    # ----------------------------------------------------------------- API

    def holds(
        self,
        op: str,
        args: tuple[Any, ...],
        state: Mapping[str, Any],
        next_state: Mapping[str, Any] | None = None,
    ) -> bool:
        """Evaluates the boolean operator ``op(args)``; unprimed variables from ``state``,
        primed ones from ``next_state``."""
        fn = self._fn(op, len(args))
        try:
            with budget.limit(self._entry(op).node.span):
                r = self._call(fn, (state, NO_NEXT if next_state is None else next_state, *args))
        except Exception as exc:
            raise self._error(exc, self._entry(op).node) from None
        if r is True or r is False:
            return r
        raise EvalError(f"{op} is not a boolean: it is the {kind_of(r)} {show(r)}",
                        self._entry(op).node.span)

    def predicate(self, op: str) -> Callable[[Mapping[str, Any], Mapping[str, Any] | None],
                                             bool]:
        """``holds(op, (), state, next_state)`` as a function of ``(state, next_state)``
        (``next_state`` None: no primed variables), for a caller that checks ``op`` on
        many states, each check inside the caller's :func:`budget.limit
        <tlaconf.evaluate.budget.limit>` (an exploration step): the same values and
        errors, without a budget block and a lookup per call (outside any block, it is
        :meth:`holds`)."""
        fn = self._fn(op, 0)
        node = self._entry(op).node
        inside = budget.inside
        reads = self._reads.of(self._entry(op))
        names = tuple(sorted(reads)) if reads is not None else None
        last: list[Any] = []
        """The values of ``names`` in the state last checked, and the answer then: a
        state that holds the same values (the same objects) has the same answer."""

        def check(state: Mapping[str, Any], next_state: Mapping[str, Any] | None) -> bool:
            if names is not None and next_state is None:
                values = [state.get(v, _MISSING) for v in names]
                if last and all(a is b for a, b in zip(values, last[0], strict=True)):
                    return bool(last[1])
                r = check_now(state, next_state)
                last[:] = [values, r]
                return r
            return check_now(state, next_state)

        def check_now(state: Mapping[str, Any], next_state: Mapping[str, Any] | None) -> bool:
            if not inside():
                return self.holds(op, (), state, next_state)
            try:
                r = self._call(fn, (state, NO_NEXT if next_state is None else next_state))
            except Exception as exc:
                raise self._error(exc, node) from None
            if r is True or r is False:
                return r
            raise EvalError(f"{op} is not a boolean: it is the {kind_of(r)} {show(r)}",
                            node.span)

        return check

    def value(
        self,
        op: str,
        args: tuple[Any, ...] = (),
        state: Mapping[str, Any] | None = None,
        next_state: Mapping[str, Any] | None = None,
    ) -> Any:
        """The value of ``op(args)`` (any kind)."""
        fn = self._fn(op, len(args))
        try:
            with budget.limit(self._entry(op).node.span):
                return self._call(fn, ({} if state is None else state,
                                       NO_NEXT if next_state is None else next_state, *args))
        except Exception as exc:
            raise self._error(exc, self._entry(op).node) from None

    @property
    def registers(self) -> dict[Any, Any]:
        """The TLCSet/TLCGet registers of this context; a search (``tlaconf validate``)
        keeps TLC's ``"level"``, ``"stats"`` and ``"config"`` there."""
        return self.compiler.registers

    def evaluation_error(self, exc: BaseException, where: A.Node | None) -> BaseException:
        """What an exception raised while evaluating (or walking) ``where`` is for the
        user: an :class:`EvalError` naming the place, or, for a bug, ``exc`` itself."""
        return self._error(exc, where)

    def call_node(self, op: str, args: tuple[Any, ...]) -> tuple[A.Node, Env]:
        """The body of the definition ``op`` and the environment binding its parameters
        to ``args``: where a walk of the call ``op(args)`` starts."""
        entry = self._entry(op)
        node = entry.node
        if isinstance(node, A.FnDef):
            return A.Name(op, span=node.span), Env()
        if len(args) != len(node.params):
            raise UserError(f"{op} takes {len(node.params)} arguments, got {len(args)}")
        return node.body, Env(tuple(
            Binding(p.name, "op" if p.arity else "val", p.arity, a)
            for p, a in zip(node.params, args, strict=True)
        ))

    def is_action(self, op: str) -> bool:
        """Whether the definition ``op`` is an action (it contains a prime, UNCHANGED, ENABLED
        or ``[A]_v``, directly or through what it uses)."""
        with budget.deep():
            return self.compiler.entry_is_action(self._entry(op))

    def undetermined(self, op: str) -> EvalError | None:
        """A spec error when some path of the action ``op`` leaves a variable unassigned
        (found statically, see :mod:`.assigned`), else None."""
        entry = self._entry(op)
        node = entry.node
        if not isinstance(node, A.OpDef):
            return None
        env = Env(tuple(Binding(p.name, "lazy", p.arity, None) for p in node.params))
        checker = AssignmentChecker(self.compiler, self.variables)
        with budget.deep():
            gaps = checker.undetermined(node.body, entry.ns or self.ns, env)
        if not gaps:
            return None
        parts = [f"the branch at {gap.span} leaves {v}' unassigned" if gap is not None
                 else f"no conjunct assigns {v}' ({v}' = e, {v}' \\in S or UNCHANGED {v})"
                 for v, gap in gaps.items()]
        where = next((g.span for g in gaps.values() if g is not None), node.span)
        return EvalError(
            f"action {op} does not determine every variable: {'; '.join(parts)}; each path "
            "of an action must assign every variable, or its next state is not determined",
            where)

    def enabled(self, op: str, args: tuple[Any, ...], state: Mapping[str, Any]) -> bool:
        """TLC-style ``ENABLED op(args)`` in ``state``."""
        body, env = self.call_node(op, args)
        entry = self._entry(op)
        try:
            with budget.limit(entry.node.span):
                return self._enabler.enabled(body, entry.ns or self.ns, env, self.variables, state)
        except Exception as exc:
            raise self._error(exc, entry.node) from None

    def witness(
        self, op: str, args: tuple[Any, ...], state: Mapping[str, Any]
    ) -> tuple[dict[str, Any], tuple[str, ...]] | None:
        """The successor of ``state`` that ``op(args)`` allows first (the one ENABLED
        found) and the source text of the action's guards (its conjuncts that read no
        next state, all TRUE on the way there); None when ``op(args)`` is not enabled."""
        body, env = self.call_node(op, args)
        entry = self._entry(op)
        ns = entry.ns or self.ns
        try:
            with budget.limit(entry.node.span):
                successor = self._enabler.successor(body, ns, env, self.variables, state)
        except Exception as exc:
            raise self._error(exc, entry.node) from None
        if successor is None:
            return None
        try:
            with budget.limit(entry.node.span), self._enabler.in_state(state, NextState(successor)):
                guards = tuple(dict.fromkeys(self._guards(body, ns, env, 0)))
        except Exception as exc:
            raise self._error(exc, entry.node) from None
        return successor, guards

    def _guards(self, node: A.Node, ns: Namespace, env: Env, depth: int) -> Iterator[str]:
        """The source text of the conjuncts of ``node`` that read no next state, through
        the actions it calls (to a few levels)."""
        bound = {b.name for b in env.bindings}
        primed = {b.name for b in env.bindings if b.expr is not None and has_stateful(b.expr[0])}
        for item in _conjuncts(node):
            if not self.compiler.node_is_action(item, ns, bound):
                if not primed & {name for name, _ in free_names(item, set())}:
                    yield " ".join(self._blamer.text(item).split())
            elif depth < _GUARD_DEPTH and isinstance(item, A.Name | A.OpApp):
                called = self._enabler.call_target(item, ns, env, by_name=True)
                if called is not None:
                    body, tns, tenv, _ = called
                    yield from self._guards(body, tns, tenv, depth + 1)

    def _enabled_in(
        self, state: Mapping[str, Any], key: tuple[A.Node, Namespace], env: tuple[Any, ...],
        sid: int,
    ) -> bool:
        """``ENABLED`` inside generated code (in the caller's ``state``)."""
        node, ns = key
        bindings = Env(tuple(Binding(n, k, ar, v) for n, k, ar, v in env))
        return self._enabler.enabled(node, ns, bindings, self.variables, state)

    def explain(
        self,
        op: str,
        args: tuple[Any, ...],
        state: Mapping[str, Any],
        next_state: Mapping[str, Any] | None = None,
        witnesses: bool = False,
    ) -> Blame:
        """Why ``op(args)`` is FALSE (call only when :meth:`holds` said so); with
        ``witnesses``, a FALSE ``\\E`` is blamed for each of its first witnesses."""
        body, env = self.call_node(op, args)
        entry = self._entry(op)
        nxt = NO_NEXT if next_state is None else next_state
        try:
            with budget.limit(entry.node.span):
                child = self._blamer.explain(body, entry.ns or self.ns, env, state, nxt,
                                             witnesses)
        except Exception as exc:
            raise self._error(exc, entry.node) from None
        params = tuple((b.name, show(b.value, 20_000)) for b in env.bindings if b.kind == "val")
        head = f"{op}({', '.join(show(a, 60) for a in args)})" if args else op
        return Blame(head, entry.node.span, f"{op} is FALSE", params, (child,))

    def reset(self) -> None:
        """Start an independent run (a new trace): forget every TLCSet register."""
        self.compiler.reset_registers()

    def evaluate(self, expr_text: str) -> Any:
        """A constant expression in the module's context."""
        fn = self._exprs.get(expr_text)
        if fn is None:
            from tlaconf.tla.parser import parse_expression

            node = parse_expression(expr_text)
            self.loader.texts.setdefault(node.span.file, expr_text)
            try:
                with budget.limit(node.span):
                    fn = self.compiler.snippet(node, self.ns, ())
            except RecursionError:
                raise EvalError(TOO_DEEP_TO_COMPILE, node.span) from None
            except Exception as exc:
                raise self._error(exc, node) from None
            self._exprs[expr_text] = fn
        try:
            with budget.limit():
                return materialize(self._call(fn, (_CONSTANT_STATE, _CONSTANT_STATE)))
        except Exception as exc:
            raise self._error(exc, None) from None

    def assumptions(self) -> list[tuple[A.Assume, bool | EvalError]]:
        """Every ASSUME of the module and what it EXTENDS: TRUE/FALSE or the error."""
        out: list[tuple[A.Assume, bool | EvalError]] = []
        for ns, unit in self.builder.assumes:
            try:
                with budget.limit(unit.span):
                    fn = self.compiler.snippet(unit.expr, ns, ())
                    v = fn(_CONSTANT_STATE, _CONSTANT_STATE)
                out.append((unit, v if v is True or v is False else EvalError(
                    f"ASSUME is not a boolean: {show(v)}", unit.span)))
            except Exception as exc:
                err = self._error(exc, unit)
                if not isinstance(err, EvalError):
                    raise err from None
                out.append((unit, err))
        return out

    def check_assumptions(self) -> None:
        """An EvalError for the first ASSUME that is FALSE under the constants, or cannot
        be evaluated (TLC stops there too, before it checks anything).  Before the ASSUMEs,
        the startup evaluation of the definitions that print (:meth:`_startup_prints`)."""
        self._startup_prints()
        for unit, result in self.assumptions():
            if isinstance(result, EvalError):
                raise result
            if result is False:
                used = sorted({n for n, m in free_names(unit.expr, set()) if not m
                               and (e := self.ns.lookup(n)) is not None and e.kind == "const"})
                values = tuple((n, show(self.ns.entries[n].value)) for n in used)
                text = " ".join(self._blamer.text(unit.expr).split())
                raise EvalError(f"ASSUME {text} is FALSE under the constants", unit.span,
                                values)

    def _startup_prints(self) -> None:
        """What TLC prints as it starts: it evaluates every constant-level definition
        without parameters once, before the ASSUMEs (its value is then reused; an error is
        ignored there and met again where the definition is used), module by module, each
        after the modules it EXTENDS, in the order of definition (a module that is also
        INSTANCEd with parameters is skipped).  Only those that print are observable, so
        only those are evaluated here."""
        instanced = {u.instance.module if isinstance(u, A.InstanceDef) else u.module
                     for m in self.loader.modules.values() for u in m.units
                     if isinstance(u, A.InstanceDef | A.Instance)}
        done: set[str] = set()

        def visit(name: str) -> None:
            ns = self.builder.modules.get(name)
            if name in done or ns is None:
                return
            done.add(name)
            module = self.loader.modules[name]
            for ext in module.extends:
                visit(ext)
            if name in instanced and (ns.variables or any(
                    isinstance(u, A.Constant) for u in module.units)):
                return
            for unit in module.units:
                entry = ns.entries.get(unit.name) if isinstance(unit, A.OpDef) else None
                if (entry is not None and entry.kind == "op" and entry.node is unit
                        and not unit.params and not self.compiler.levels.entry_is_const(entry, True)
                        and self.compiler.levels.entry_is_const(entry)):
                    with budget.limit(unit.span):
                        self.compiler.folding.const_ref(entry, startup=True)

        visit(self.name)


_GUARD_DEPTH = 4


def _conjuncts(node: A.Node) -> list[A.Node]:
    """The top-level conjuncts of ``node`` (through labels and nested conjunctions)."""
    if isinstance(node, A.Label):
        return _conjuncts(node.expr)
    if isinstance(node, A.Junction) and node.op == "/\\":
        return [c for item in node.items for c in _conjuncts(item)]
    return [node]


class _ConstantState(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        raise Fail(f"variable {key} used in a constant expression")


_CONSTANT_STATE = _ConstantState()


def load_module(
    path: Path, search_path: Sequence[Path] = (), constants: Mapping[str, Any] | None = None
) -> Context:
    """Resolves ``path`` and what it EXTENDS/INSTANCEs (found in the importing file's folder,
    then on ``search_path``, as :mod:`tlaconf.tla.resolve` does for ``tlaconf parse``),
    binds its CONSTANTS from ``constants`` and compiles it.  Every name of every loaded
    module is checked first: a spec error is a :class:`~tlaconf.tla.resolve.ResolveErrors`."""
    return _context(resolve.load(Path(path), search_path), constants)


def load_text(
    text: str, search_path: Sequence[Path] = (), constants: Mapping[str, Any] | None = None,
    filename: str = "<module>",
) -> Context:
    """A context for a module given as text (resolved and checked like a file)."""
    from tlaconf.tla.parser import parse_modules

    modules = parse_modules(text, filename)
    rm = resolve.resolve(modules[0], search_path, file=filename, text=text,
                         siblings=modules[1:])
    return _context(rm, constants)


def _context(rm: resolve.ResolvedModule, constants: Mapping[str, Any] | None) -> Context:
    with budget.deep():
        return Context(rm.module, EvaluatorModules(rm), constants or {})


DEFAULT_EXTENDS = ("Integers", "Sequences", "FiniteSets", "TLC")


def default_context(
    module: Path | None = None,
    search_path: Sequence[Path] = (),
    constants: Mapping[str, Any] | None = None,
) -> Context:
    """The context of ``tlaconf eval``: Integers, Sequences, FiniteSets and TLC, plus
    ``module`` (its operators usable by name) when given."""
    extends = list(DEFAULT_EXTENDS)
    paths = list(search_path)
    if module is not None:
        module = Path(module)
        if not module.is_file():
            raise UserError(f"module file {module} not found")
        resolve.load(module, paths)  # its errors name its own file, not the text below
        extends.append(module.stem)
        paths.insert(0, module.parent)
    text = f"---- MODULE TlaconfEval ----\nEXTENDS {', '.join(extends)}\n====\n"
    return load_text(text, paths, constants or {}, "<eval>")
