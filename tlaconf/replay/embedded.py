"""The ``embedded`` backend: the in-process TLA+ evaluator (:mod:`tlaconf.evaluate`)."""

from __future__ import annotations

from typing import Any

from tlaconf.errors import UserError
from tlaconf.replay.backend import State
from tlaconf.replay.result import BlameNode, Witness, state_diff
from tlaconf.spec.cfg import Substitution, read_cfg
from tlaconf.spec.module_spec import NEXT, ModuleSpec


class EmbeddedModule:
    """A conformance module loaded by the evaluator.

    Its actions are its own one-parameter operators whose body is an action (a prime,
    UNCHANGED, ENABLED or ``[A]_v``, directly or through what they call); each of them,
    and ``Next``, must determine every variable on every path, or loading fails.
    """

    def __init__(self, ctx: Any, spec: ModuleSpec) -> None:
        self._ctx = ctx
        self._probe: Any = None
        self.name: str = ctx.name
        self.variables: tuple[str, ...] = tuple(ctx.variables)
        self.actions: tuple[str, ...] = tuple(
            sorted(op for op, info in ctx.operators.items()
                   if info.arity == 1 and ctx.is_action(op))
        )
        self.non_actions: dict[str, str] = {
            op: _why_no_action(op, info, ctx) for op, info in ctx.operators.items()
            if op not in self.actions and op != NEXT
        }
        """The module's other operators, and why a step labelled with one is not checked
        against it (it primes no variable, or takes other than one parameter)."""
        self.constants: frozenset[str] = frozenset(
            name for name, entry in ctx.ns.entries.items() if entry.kind == "const"
        )
        """The CONSTANTs the module declares (itself or through EXTENDS)."""
        entry = ctx.ns.lookup(NEXT)
        self.has_next: bool = entry is not None and entry.kind == "op" and entry.arity == 0
        checked = self.actions + ((NEXT,) if self.has_next and ctx.is_action(NEXT) else ())
        for op in checked:
            err = ctx.undetermined(op)
            if err is not None:
                raise err
        _check_constants(ctx, spec)
        ctx.check_assumptions()
        for inv in spec.invariants:  # defined in the module or in what it EXTENDS, as in TLC
            entry = ctx.ns.lookup(inv)
            if entry is None or entry.kind not in ("op", "fn") or entry.arity != 0:
                what = ("is not defined" if entry is None
                        else _NOT_A_DEFINITION.get(entry.kind, "takes parameters"))
                raise UserError(
                    f"INVARIANT {inv}: {what} in module {self.name} (an invariant is an "
                    "operator without parameters)", spec.origins.get(inv)
                )

    @property
    def sources(self) -> dict[str, str]:
        """Every file the load read, with its text (a change to one invalidates the load)."""
        return dict(self._ctx.loader.texts)

    def coverage_probe(self) -> Any:
        """The coverage walk of this module's actions (one per loaded module)."""
        if self._probe is None:
            from tlaconf.evaluate.coverage import CoverageProbe

            self._probe = CoverageProbe(self._ctx)
        return self._probe

    def constant(self, name: str) -> Any:
        """The value of the constant-level definition ``name`` (an EvalError if it has none)."""
        return self._ctx.evaluate(name)

    def check_action(
        self, action: str, params: Any, state: State, next_state: State
    ) -> BlameNode | None:
        if self._ctx.holds(action, (params,), state, next_state):
            return None
        return BlameNode.from_blame(self._ctx.explain(action, (params,), state, next_state))

    def enabled(self, action: str, params: Any, state: State) -> bool:
        return bool(self._ctx.enabled(action, (params,), state))

    def witness(self, action: str, params: Any, state: State) -> Witness | None:
        """The successor ``action(params)`` allows from ``state`` and the guards that held."""
        found = self._ctx.witness(action, (params,), state)
        if found is None:
            return None
        successor, guards = found
        return Witness(state_diff(state, successor), guards)

    def start_trace(self) -> None:
        self._ctx.reset()

    def check_invariant(self, name: str, state: State) -> BlameNode | None:
        if self._ctx.holds(name, (), state):
            return None
        return BlameNode.from_blame(self._ctx.explain(name, (), state))

    def check_next(self, state: State, next_state: State) -> BlameNode | None:
        if self._ctx.holds(NEXT, (), state, next_state):
            return None
        return BlameNode.from_blame(self._ctx.explain(NEXT, (), state, next_state))


_NOT_A_DEFINITION = {
    "var": "is a VARIABLE, not a definition", "const": "is a CONSTANT, not a definition",
    "builtin": "is a standard operator, not a definition",
    "value": "is a standard value, not a definition",
    "inst": "is an instance, not a definition",
}  # fmt: skip


def _why_no_action(op: str, info: Any, ctx: Any) -> str:
    """Why a step labelled ``op`` (an operator of the module, no action) cannot be checked."""
    where = f"{op} (defined at {info.span})"
    if info.arity == 1:
        unassigned = ", ".join(v + "'" for v in ctx.variables)
        return (f"{where} is not an action: it assigns no primed variable, so it leaves "
                f"{unassigned} unassigned (an action determines every variable: x' = e, "
                "x' \\in S or UNCHANGED x)")
    if not ctx.is_action(op):
        return (f"{where} is not an action: it assigns no primed variable and takes "
                f"{info.arity} parameter(s), where an action takes one, the step's params")
    return (f"{where} takes {info.arity} parameter(s), but a labelled step gives an action "
            "one, its params record (a step without a label is checked against Next)")


def _check_constants(ctx: Any, spec: ModuleSpec) -> None:
    """UserError for a constant given (trace header or ``.cfg``) that the module does not
    declare: a misspelt name would otherwise be ignored silently."""
    declared = set(ctx.constants)
    extra = sorted(set(spec.constants) - declared)
    if not extra:
        return
    known = ", ".join(sorted(declared)) or "none"
    cfg_path = spec.path.with_suffix(".cfg")
    lines = read_cfg(cfg_path).lines if cfg_path.is_file() else {}
    for name in extra:
        if name in lines:
            raise UserError(f"CONSTANT {name} is not declared by module {spec.name} "
                            f"(it declares: {known})", f"{cfg_path}:{lines[name]}")
    raise UserError(f"the trace header gives constant(s) {', '.join(extra)}, which module "
                    f"{spec.name} does not declare (it declares: {known})")


class EmbeddedBackend:
    """Load modules with :func:`tlaconf.evaluate.load_module`."""

    name = "embedded"

    def __init__(self) -> None:
        from tlaconf.evaluate import load_module

        self._load_module = load_module

    def load(self, spec: ModuleSpec) -> EmbeddedModule:
        from tlaconf.evaluate import Override

        constants = {k: Override(v.definition) if isinstance(v, Substitution) else v
                     for k, v in spec.constants.items()}
        try:
            ctx = self._load_module(spec.path, spec.search_path, constants)
        except UserError as err:
            for name, value in spec.constants.items():
                if isinstance(value, Substitution) and err.message.startswith(
                        f"cannot bind {name} to {value.definition}"):
                    raise UserError(f"CONSTANT {name} <- {value.definition}: module "
                                    f"{spec.name} has no definition {value.definition}",
                                    spec.origins.get(name)) from None
            raise
        return EmbeddedModule(ctx, spec)
