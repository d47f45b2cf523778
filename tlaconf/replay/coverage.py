"""Coverage over traces: for each conformance module and action, how often each point
(conjunct, disjunct, CASE arm, IF condition; see :mod:`tlaconf.evaluate.coverage`) was
TRUE and FALSE on accepted and on rejected steps.

Measured by an observer of the one replay loop (:class:`CoverageObserver`): each step
replay judges is walked again by the embedded evaluator's coverage walk.  A **guard**
(one that reads the step's params) is covered when some rejected step made it FALSE and
some accepted step made it TRUE; a **state guard**
(reading only the state, so FALSE only in a state the invariants should exclude) when
some accepted step made it TRUE; any other point when it was both TRUE and FALSE.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate.coverage import (
    GUARD,
    POINT,
    STATE_GUARD,
    CoverageProbe,
    Key,
    PointKind,
    Role,
)
from tlaconf.replay.backend import LoadedModule, State
from tlaconf.spec.module_spec import NEXT
from tlaconf.trace.reader import Step


@dataclass
class PointCoverage:
    """Counts of steps in which one point had each value."""

    key: Key
    role: Role
    """:data:`~tlaconf.evaluate.coverage.GUARD`, ``STATE_GUARD`` or ``POINT``."""
    accepted_true: int = 0
    accepted_false: int = 0
    rejected_true: int = 0
    rejected_false: int = 0

    @property
    def guard(self) -> bool:
        return self.role == GUARD

    @property
    def kind(self) -> PointKind:
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
    unmeasured: dict[str, str] = field(default_factory=dict)
    """Trace path -> why its coverage was not measured, or not past some step (an observer
    that does not stop the replay, as ``tlaconf check``'s)."""

    def join(self, other: Coverage) -> None:
        """Add the coverage of other traces (a worker's) to this one."""
        self.traces += other.traces
        self.texts.update(other.texts)
        self.unmeasured.update(other.unmeasured)
        for key, theirs in other.actions.items():
            ours = self.actions.setdefault(key, ActionCoverage(theirs.module, theirs.action, {}))
            ours.accepted += theirs.accepted
            ours.rejected += theirs.rejected
            ours.nonconforming += theirs.nonconforming
            for k, pc in theirs.points.items():
                mine = ours.points.setdefault(k, PointCoverage(k, pc.role))
                mine.accepted_true += pc.accepted_true
                mine.accepted_false += pc.accepted_false
                mine.rejected_true += pc.rejected_true
                mine.rejected_false += pc.rejected_false

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


class CoverageObserver:
    """Coverage as an observer of the replay loop (:class:`~tlaconf.replay.engine.Replayer`):
    every step the loop is about to judge is walked again by the module's coverage walk
    (from the embedded evaluator, which a backend offers as ``coverage_probe()``).

    ``strict`` (``tlaconf coverage``): a trace whose coverage cannot be measured ends the
    replay as an ``error``.  Otherwise (``tlaconf check``, where the replay decides the
    verdict) the observer never touches the verdict: it stops covering that trace and
    says why in ``coverage.unmeasured``."""

    def __init__(self, strict: bool = True) -> None:
        self.strict = strict
        self.coverage = Coverage()
        self.seen: dict[str, int] = {}
        """Trace path -> the last step number observed (0: the initial state)."""
        self._path: str | None = None
        """The trace being covered (None: not covered)."""

    def fork(self) -> CoverageObserver:
        return CoverageObserver(self.strict)

    def join(self, other: object) -> None:
        assert isinstance(other, CoverageObserver)
        self.coverage.join(other.coverage)
        self.seen.update(other.seen)

    def _unmeasured(self, path: str, why: str) -> None:
        if self.strict:
            raise UserError(why)
        self.coverage.unmeasured[path] = why
        self._path = None

    def start(self, path: Path, mod: LoadedModule) -> None:
        self._path = None
        if not callable(getattr(mod, "coverage_probe", None)):
            self._unmeasured(str(path), f"module {mod.name} was loaded by a backend that "
                             "cannot measure coverage (the embedded evaluator can)")
            return
        self.coverage.traces.append(str(path))
        self._path = str(path)

    def initial(self, mod: LoadedModule, state: State) -> None:
        if self._path is not None:
            self.seen[self._path] = 0

    def step(self, mod: LoadedModule, number: int, step: Step, before: State) -> None:
        path = self._path
        accepted = step.outcome == "accepted"
        if path is None or (step.action is None and (not accepted or not mod.has_next)):
            return  # not covered, or a stuttering step without a label: nothing is evaluated
        probe: CoverageProbe = mod.coverage_probe()  # type: ignore[attr-defined]
        ctx = probe.ctx
        action = step.action or NEXT
        args: tuple[Any, ...] = () if step.action is None else (step.params,)
        cov = self.coverage
        try:
            ac = cov.actions.get((ctx.name, action))
            if ac is None:
                ac = ActionCoverage(
                    ctx.name, action,
                    {k: PointCoverage(k, g) for k, g in probe.points(action).items()})
            held, noted = probe.step(action, args, before, step.state if accepted else None)
        except UserError as err:
            if self.strict:
                raise
            where = f"{err.location}: " if err.location else ""
            self._unmeasured(path, f"not covered from step {number} (line {step.line}) on: "
                             f"{where}{err.message}")
            return
        if (ctx.name, action) not in cov.actions:
            cov.actions[(ctx.name, action)] = ac
            cov.texts.update(ctx.loader.texts)
        self.seen[path] = number
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


def cover_traces(paths: Iterable[Path], spec_dir: Path, revision: str | None = None,
                 backend: str = "embedded") -> Coverage:
    """The coverage of the traces at ``paths`` (against ``revision`` of the profile, default:
    each trace's own), measured while they are replayed.  A trace is covered up to the
    step where its replay stops (its first failure, that step included).  UserError (with
    file and line) on a trace that cannot be replayed at all: unreadable, or naming an
    unknown module or action, or a state with other variables than the module's."""
    from tlaconf.replay.runner import setup

    observer = CoverageObserver()
    replayer = setup(backend, observers=(observer,))
    for path in paths:
        result = replayer.replay(path, spec_dir, None, revision)
        failure = result.failure
        if result.verdict == "error" and failure is not None \
                and observer.seen.get(str(path), -1) < failure.step:
            reason = failure.reason
            if reason.startswith(f"line {failure.line}: "):
                reason = reason[len(f"line {failure.line}: "):]
            raise UserError(f"{path}:{failure.line}: {reason}")
    return observer.coverage
