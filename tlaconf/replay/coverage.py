"""Coverage over traces: for each conformance module and action, how often each point
(conjunct, disjunct, CASE arm, IF condition; see :mod:`tlaconf.evaluate.coverage`) was
TRUE and FALSE on accepted and on rejected steps.

A separate pass over the traces with the embedded evaluator's coverage walk; replay
itself is untouched.  A **guard** (one that reads the step's params) is covered when
some rejected step made it FALSE and some accepted step made it TRUE; a **state guard**
(reading only the state, so FALSE only in a state the invariants should exclude) when
some accepted step made it TRUE; any other point when it was both TRUE and FALSE.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate.coverage import GUARD, POINT, STATE_GUARD, CoverageProbe, Key
from tlaconf.spec.lookup import module_spec
from tlaconf.trace.reader import open_trace

NEXT = "Next"
"""What a step without an action label is checked against (an accepted one; a rejected
one is a stuttering step, which ``[Next]_vars`` allows, so nothing is evaluated)."""


@dataclass
class PointCoverage:
    """Counts of steps in which one point had each value."""

    key: Key
    role: str
    """:data:`~tlaconf.evaluate.coverage.GUARD`, ``STATE_GUARD`` or ``POINT``."""
    accepted_true: int = 0
    accepted_false: int = 0
    rejected_true: int = 0
    rejected_false: int = 0

    @property
    def guard(self) -> bool:
        return self.role == GUARD

    @property
    def kind(self) -> str:
        return self.key[5]

    @property
    def reached(self) -> bool:
        return bool(self.accepted_true or self.accepted_false
                    or self.rejected_true or self.rejected_false)

    @property
    def covered(self) -> bool:
        if self.role == GUARD:
            return self.rejected_false > 0 and self.accepted_true > 0
        if self.role == STATE_GUARD:
            return self.accepted_true > 0
        return bool(self.accepted_true or self.rejected_true) and bool(
            self.accepted_false or self.rejected_false)

    def add(self, accepted: bool, value: bool) -> None:
        if accepted:
            if value:
                self.accepted_true += 1
            else:
                self.accepted_false += 1
        elif value:
            self.rejected_true += 1
        else:
            self.rejected_false += 1


@dataclass
class ActionCoverage:
    """One action of one conformance module: its points in walk order."""

    module: str
    action: str
    points: dict[Key, PointCoverage]
    accepted: int = 0
    rejected: int = 0
    nonconforming: int = 0
    """Steps whose walk disagreed with their recorded outcome (see ``tlaconf replay``)."""


@dataclass
class Coverage:
    """Coverage of a set of traces."""

    traces: list[str] = field(default_factory=list)
    actions: dict[tuple[str, str], ActionCoverage] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    """Source text of every ``.tla`` file a point lies in (for the HTML page)."""

    def points(self) -> Iterable[PointCoverage]:
        for ac in self.actions.values():
            yield from ac.points.values()

    def figures(self) -> dict[str, int]:
        """Guards and points in total, covered, and (points) never reached."""
        pts = list(self.points())
        guards = [p for p in pts if p.guard]
        state = [p for p in pts if p.role == STATE_GUARD]
        return {
            "guards": len(guards),
            "guards_covered": sum(p.covered for p in guards),
            "state_guards": len(state),
            "state_guards_covered": sum(p.covered for p in state),
            "points": len(pts),
            "points_covered": sum(p.covered for p in pts),
            "points_unreached": sum(not p.reached for p in pts),
            "steps": sum(a.accepted + a.rejected for a in self.actions.values()),
            "nonconforming_steps": sum(a.nonconforming for a in self.actions.values()),
        }


class _Modules:
    """One loaded module (and coverage probe) per module file and constants."""

    def __init__(self, spec_dir: Path) -> None:
        self.spec_dir = spec_dir
        self._probes: dict[tuple[Any, ...], CoverageProbe] = {}

    def probe(self, module: str, revision: str, constants: Mapping[str, Any]) -> CoverageProbe:
        from tlaconf.evaluate import load_module

        spec = module_spec(self.spec_dir, module, revision, constants)
        key = (spec.path.resolve(), spec.search_path,
               tuple(sorted(spec.constants.items(), key=lambda kv: kv[0])))
        probe = self._probes.get(key)
        if probe is None:
            probe = self._probes[key] = CoverageProbe(
                load_module(spec.path, spec.search_path, spec.constants))
        return probe


def _check_variables(path: Path, line: int, state: Mapping[str, Any],
                     variables: Iterable[str], module: str) -> None:
    """UserError unless ``state`` has exactly the module's variables (as replay requires)."""
    missing = sorted(set(variables) - state.keys())
    extra = sorted(state.keys() - set(variables))
    if missing or extra:
        parts = ([f"lacks variable(s) {', '.join(missing)}"] if missing else []) + (
            [f"has variable(s) {', '.join(extra)} not declared by module {module}"]
            if extra else [])
        raise UserError(f"the state {' and '.join(parts)}", f"{path}:{line}")


def cover_traces(paths: Iterable[Path], spec_dir: Path, revision: str | None = None) -> Coverage:
    """The coverage of the traces at ``paths`` (against ``revision`` of the profile, default:
    each trace's own); UserError (with file and line) on a trace that cannot be read or
    names an unknown module or action."""
    cov = Coverage()
    modules = _Modules(spec_dir)
    for path in paths:
        cov.traces.append(str(path))
        with open_trace(path) as trace:
            try:
                probe = modules.probe(trace.header.module, revision or trace.header.revision,
                                      trace.header.constants)
            except UserError as err:
                raise UserError(f"{path}:1: cannot load module {trace.header.module!r}: "
                                f"{err}") from None
            ctx = probe.ctx
            before = trace.initial
            _check_variables(path, 2, before, ctx.variables, ctx.name)
            for step in trace.steps():
                _check_variables(path, step.line, step.state, ctx.variables, ctx.name)
                accepted = step.outcome == "accepted"
                if step.action is None and not accepted:
                    continue  # a stuttering step without a label: nothing is evaluated
                action = step.action or NEXT
                args: tuple[Any, ...] = () if step.action is None else (step.params,)
                info = ctx.operators.get(action)
                if info is None or info.arity != len(args):
                    what = f"{action}(p)" if args else action
                    raise UserError(f"{path}:{step.line}: "
                                    + ("unknown action label " + repr(action) if args
                                       else "a step without an action label needs Next")
                                    + f" (module {ctx.name} has no operator {what})")
                ac = cov.actions.get((ctx.name, action))
                if ac is None:
                    ac = cov.actions[(ctx.name, action)] = ActionCoverage(
                        ctx.name, action,
                        {k: PointCoverage(k, g) for k, g in probe.points(action).items()})
                    cov.texts.update(ctx.loader.texts)
                held, noted = probe.step(action, args, before, step.state if accepted else None)
                if accepted:
                    ac.accepted += 1
                else:
                    ac.rejected += 1
                if held != accepted:
                    ac.nonconforming += 1
                for key, value in noted:
                    pc = ac.points.get(key)
                    if pc is None:
                        pc = ac.points[key] = PointCoverage(key, POINT)
                    pc.add(accepted, value)
                before = step.state
    return cov
