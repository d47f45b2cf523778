"""The one place the explorer reaches into the evaluator's successor machinery.

Successors are the ones ENABLED and replay's witness search compute
(:class:`tlaconf.evaluate.enabled.Enabler`: ``x' = e`` assigns, ``x' \\in S``
enumerates, ``\\/`` and ``\\E`` branch, operator calls are followed).  The outer
disjuncts of the next-state action are split, as TLC splits ``Next`` into its actions,
to label each successor with the action (operator and arguments) that gave it.  On
the hot path (:meth:`Successors.next`, :meth:`Successors.action`) the action is
compiled once (:mod:`tlaconf.evaluate.actions`) into code computing exactly the
successors of the tree walk, which takes what does not compile and stays the
reference (``Successors(ctx, compiled=False)``).  Initial states come from the walk
over ``Init`` with unprimed variables assigned (``x = e``, ``x \\in S``), as TLC
enumerates initial states.

If the evaluator's internals change, only this module follows them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tlaconf.evaluate import Context, EvalError, budget
from tlaconf.evaluate.actions import Split, SplitCompiler, disjuncts
from tlaconf.evaluate.enabled import Enabler
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.levels import has_stateful
from tlaconf.evaluate.namespace import Entry, Namespace, redefine_definition
from tlaconf.evaluate.runtime import NO_STATE, NextState
from tlaconf.evaluate.semantics import materialize
from tlaconf.evaluate.walk import Env
from tlaconf.tla import ast as A
from tlaconf.values import Fn, ModelValue

_PLAIN = (bool, int, str, ModelValue)
_PLAIN_SET = frozenset(_PLAIN)
_MISSING = object()
_SETTLED: dict[int, Any] = {}
"""Values of states already settled (:func:`settle` gives them back as they are), by
identity: a successor shares the values its step leaves unchanged."""
_REMEMBERED = 100_000

__all__ = ["Label", "Namespace", "Successors", "settle"]


@dataclass(slots=True, unsafe_hash=True)
class Label:
    """The action that produced a successor: the innermost operator of the next-state
    relation reached while splitting it (``name``, with its arguments ``args`` by
    parameter name) and the values of the ``\\E`` names bound on the way (``bound``).
    Not to be changed (hashable; not frozen, as a frozen dataclass is three times slower
    to make, and one is made per successor)."""

    name: str
    args: tuple[tuple[str, Any], ...] = ()
    bound: tuple[tuple[str, Any], ...] = ()

    @property
    def params(self) -> dict[str, Any]:
        """Arguments and bound names together (bound names last)."""
        return dict(self.args + self.bound)

    def __str__(self) -> str:
        from tlaconf.values import to_tla

        args = ", ".join(to_tla(v) for _, v in self.args)
        head = f"{self.name}({args})" if self.args else self.name
        if self.bound:
            head += " with " + ", ".join(f"{n} = {to_tla(v)}" for n, v in self.bound)
        return head


class _InitEnabler(Enabler):
    """The enabler walking a state predicate: an unprimed variable is assigned by
    ``x = e`` / ``x \\in S`` and read from the assignment built so far."""

    def __init__(self, comp: Any) -> None:
        super().__init__(comp)
        self._next: Any = _InitState()

    @property
    def S(self) -> Any:
        return self._next

    @S.setter
    def S(self, value: Any) -> None:
        pass

    @property
    def N(self) -> Any:
        return self._next

    @N.setter
    def N(self, value: Any) -> None:
        self._next = _InitState(value) if type(value) is NextState else value

    def primed_var(self, node: A.Node, ns: Namespace, env: Env | None = None) -> str | None:
        if isinstance(node, A.Prime):
            return None
        return self.var_name(node, ns, env)

    def may_assign(self, node: A.Name | A.OpApp, ns: Namespace, env: Env,
                   asg: dict[str, Any]) -> bool:
        return self.call_target(node, ns, env) is not None


class _InitState(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        raise Fail(f"variable {key} is read before the initial predicate assigns it")


class Successors:
    """Initial states and labelled successors of one loaded module.  ``compiled=False``
    finds successors by the tree walk only (what the compiled actions are tested
    against)."""

    def __init__(self, ctx: Context, compiled: bool = True) -> None:
        self.ctx = ctx
        self.variables: tuple[str, ...] = tuple(ctx.variables)
        self._enabler = Enabler(ctx.compiler)
        self._init = _InitEnabler(ctx.compiler)
        self._compiled = compiled
        self._programs: dict[tuple[int, int, str], tuple[A.Node, Split]] = {}
        self._actions: dict[tuple[str, int, tuple[Any, ...]], tuple[A.Node, Split | None]] = {}
        self._out: list[tuple[Label, dict[str, Any]]] = []
        self._what: A.Node = A.Bool(True)
        self._splitter = SplitCompiler(ctx.compiler, Label, self._emit, self._walk)

    # --------------------------------------------------------------- entry points

    def definition(self, op: str) -> tuple[A.Node, Namespace, A.Span]:
        """The body, namespace and span of the parameterless definition ``op``."""
        entry = self.ctx.ns.lookup(op)
        if entry is None or entry.kind != "op" or entry.arity != 0:
            raise LookupError(op)
        return entry.node.body, entry.ns or self.ctx.ns, entry.node.span

    def initial(self, node: A.Node, ns: Namespace, span: A.Span) -> list[dict[str, Any]]:
        """Every state satisfying the state predicate ``node``, in the walk's order
        (duplicates included, as TLC generates them)."""
        walker = self._init
        try:
            with budget.limit(span), walker.in_state(NO_STATE, NextState({})):
                return [self._complete(asg, node, None)
                        for asg in walker.successors(node, ns, Env(), {})]
        except Exception as exc:
            raise self._error(exc, node) from None

    def next(
        self, node: A.Node, ns: Namespace, span: A.Span, name: str, state: Mapping[str, Any]
    ) -> list[tuple[Label, dict[str, Any]]]:
        """Every successor of ``state`` under the action ``node`` (the definition
        ``name``, at ``span``) with its label, duplicates included."""
        try:
            if not self._compiled:
                w = self._enabler
                with budget.limit(span), w.in_state(state, NextState({})):
                    return [(label, self._complete(asg, node, label))
                            for label, asg in self._split(node, ns, Env(), Label(name))]
            program = self._program(node, ns, name)
            saved = self._out, self._what
            out: list[tuple[Label, dict[str, Any]]] = []
            self._out, self._what = out, node
            try:
                if budget.inside():  # a step's block: one more adds nothing
                    program(state, NextState(), (), (name, (), ()))
                else:
                    with budget.limit(span):
                        program(state, NextState(), (), (name, (), ()))
                return out
            finally:
                self._out, self._what = saved
        except Exception as exc:
            raise self._error(exc, node) from None

    @property
    def fallbacks(self) -> list[tuple[A.Node, str]]:
        """The parts of next-state relations walked instead of compiled, with why."""
        return self._splitter.fallbacks

    def action(self, op: str, args: tuple[Any, ...], state: Mapping[str, Any]
               ) -> list[dict[str, Any]]:
        """Every successor of ``state`` under the call ``op(args)`` of an action with
        parameters, unlabelled (duplicates included)."""
        body, env = self.ctx.call_node(op, args)
        entry = self.ctx.ns.lookup(op)
        assert entry is not None  # call_node found it
        w = self._enabler
        ns = entry.ns or self.ctx.ns
        try:
            with budget.limit(entry.node.span), w.in_state(state, NextState({})):
                program = self._action_program(op, body, ns, env) if self._compiled else None
                if program is None:
                    return [self._complete(asg, body, Label(op))
                            for asg in w.successors(body, ns, env, {})]
                saved = self._out, self._what
                self._out, self._what = [], body
                try:
                    program(state, NextState({}), tuple(b.value for b in env.bindings),
                            (op, (), ()))
                    return [s for _, s in self._out]
                finally:
                    self._out, self._what = saved
        except Exception as exc:
            raise self._error(exc, entry.node) from None

    def holds_action(self, node: A.Node, ns: Namespace, state: Mapping[str, Any],
                     nxt: Mapping[str, Any]) -> bool:
        """Whether the expression ``node`` (an action or state predicate) is TRUE."""
        w = self._enabler
        try:
            with w.in_state(state, nxt):
                return w.eval_bool(node, ns, Env())
        except Exception as exc:
            raise self._error(exc, node) from None

    def guard(self) -> Any:
        """A context in which the evaluations of one exploration step share one
        evaluation budget (see :mod:`tlaconf.evaluate.budget`)."""
        return budget.limit()

    def expand(self, node: A.Node, ns: Namespace) -> tuple[A.Node, Namespace] | None:
        """The body and namespace of the parameterless operator ``node`` calls, or None
        when it calls none (a built-in, a variable, an operator with arguments)."""
        if isinstance(node, A.Name | A.OpApp) and not getattr(node, "args", ()):
            called = self._enabler.call_target(node, ns, Env())
            if called is not None:
                return called[0], called[1]
        return None

    def override_definition(self, name: str, value: Any, by: str | None = None) -> bool:
        """Give the definition ``name`` the constant ``value`` (``name = value`` in a
        ``.cfg``), or make it the definition ``by`` (``name <- by``), as TLC overrides a
        definition; False when ``name`` (or ``by``) is no definition of the same arity."""
        entry = self.ctx.ns.lookup(name)
        if entry is None or entry.kind != "op":
            return False
        if by is None:
            if entry.arity != 0:
                return False
            redefine_definition(self.ctx.ns, entry, Entry("const", name, value=value))
            return True
        target = self.ctx.ns.lookup(by)
        if target is None or target.kind != "op" or target.arity != entry.arity:
            return False
        redefine_definition(self.ctx.ns, entry, target)
        return True

    # --------------------------------------------------------------- internals

    def _program(self, node: A.Node, ns: Namespace, name: str) -> Split:
        key = (id(node), id(ns), name)
        hit = self._programs.get(key)
        if hit is None or hit[0] is not node:
            hit = (node, self._splitter.compile(node, ns))
            self._programs[key] = hit
        return hit[1]

    def _action_program(self, op: str, body: A.Node, ns: Namespace, env: Env
                        ) -> Split | None:
        kinds = tuple((b.kind, b.arity) for b in env.bindings)
        key = (op, id(body), kinds)
        if key not in self._actions:
            self._actions[key] = (body, self._splitter.compile_action(body, ns, env))
        hit = self._actions[key]
        return hit[1] if hit[0] is body else self._splitter.compile_action(body, ns, env)

    def _emit(self, label: Label, asg: dict[str, Any]) -> None:
        self._out.append((label, self._complete(asg, self._what, label)))

    def _walk(self, node: A.Node, ns: Namespace, label: tuple[str, Any, Any],
              state: Any) -> None:
        """The tree walk of a part of the next-state relation that is not compiled."""
        with self._enabler.in_state(state, NextState({})):
            for lab, asg in self._split(node, ns, Env(), Label(*label)):
                self._emit(lab, asg)

    def _split(self, node: A.Node, ns: Namespace, env: Env,
               label: Label) -> Iterator[tuple[Label, dict[str, Any]]]:
        w = self._enabler
        if isinstance(node, A.Label):
            yield from self._split(node.expr, ns, env, label)
            return
        if isinstance(node, A.Junction | A.OpApp) and disjuncts(node) is not None:
            for item in disjuncts(node) or ():
                yield from self._split(item, ns, env, label)
            return
        if isinstance(node, A.Quant) and node.kind == "E":
            for binding in w.bindings_of(node.bounds, ns, env, w.comp.sid(node)):
                bound = label.bound + tuple((b.name, b.value) for b in binding)
                yield from self._split(node.body, ns, env.extend(*binding),
                                       Label(label.name, label.args, bound))
            return
        if isinstance(node, A.Let):
            w.N = NextState({})
            yield from self._split(node.body, ns, w.bind_let(node, ns, env), label)
            return
        if isinstance(node, A.Name | A.OpApp) and w.may_assign(node, ns, env, {}):
            w.N = NextState({})
            called = w.call_target(node, ns, env, by_name=True)
            if called is not None:
                body, tns, tenv, name = called
                args = _values(tenv, len(getattr(node, "args", ())))
                if args is not None:
                    yield from self._split(body, tns, tenv, Label(name, args))
                    return
        for asg in w.successors(node, ns, env, {}):
            yield label, asg

    def _complete(self, asg: dict[str, Any], node: A.Node, label: Label | None
                  ) -> dict[str, Any]:
        """The successor ``asg`` (of the action at ``node``, labelled ``label``; None: the
        initial predicate) as a state: every variable assigned, its values settled."""
        out = {}
        settled = _SETTLED
        plain = _PLAIN_SET
        for v in self.variables:
            x = asg.get(v, _MISSING)
            if type(x) in plain or settled.get(id(x)) is x:  # unchanged: settled before
                out[v] = x
                continue
            if x is _MISSING:
                what = "the initial predicate" if label is None else f"action {label.name}"
                names = ", ".join(v for v in self.variables if v not in asg)
                raise Fail(f"{what} leaves {names} unassigned (every variable must be "
                           "determined)", (), self._enabler.comp.sid(node))
            out[v] = settle(x)
        return out

    def _error(self, exc: BaseException, node: A.Node) -> BaseException:
        err = self.ctx.evaluation_error(exc, node)
        return err if isinstance(err, EvalError) else exc


def _values(env: Env, n: int) -> tuple[tuple[str, Any], ...] | None:
    """The last ``n`` bindings of ``env`` (a call's parameters) as values, or None when
    one is passed by name (it reads the next state) or is an operator."""
    out = []
    for b in env.bindings[len(env.bindings) - n:] if n else ():
        if b.kind == "val":
            out.append((b.name, b.value))
        elif b.kind == "lazy" and (b.expr is None or not has_stateful(b.expr[0])):
            out.append((b.name, b.value()))
        else:
            return None
    return tuple(out)


def _settled(x: Any) -> bool:
    """Whether ``x`` is settled as it is (remembered ones found without a call)."""
    return type(x) in _PLAIN_SET or _SETTLED.get(id(x)) is x or settle(x) is x


def settle(v: Any) -> Any:
    """A state's value with its lazy parts enumerated (hashable and comparable); a value
    that has none is returned as it is, without being rebuilt (and remembered, by
    identity, as such)."""
    t = type(v)
    if t in _PLAIN_SET:
        return v
    if _SETTLED.get(id(v)) is v:
        return v
    if t is frozenset or t is tuple:
        plain, settled = _PLAIN_SET, _SETTLED  # remembered elements found without a call
        done = plain.issuperset(map(type, v)) or all(
            type(x) in plain or settled.get(id(x)) is x or settle(x) is x for x in v)
    elif t is Fn:
        done = ((_PLAIN_SET.issuperset(v.value_kinds()) or all(map(_settled, v.values())))
                and (_PLAIN_SET.issuperset(map(type, v.keys())) or all(map(_settled, v))))
    else:
        done = False
    if not done:
        return materialize(v)
    if len(_SETTLED) >= _REMEMBERED:
        _SETTLED.clear()
    _SETTLED[id(v)] = v
    return v
