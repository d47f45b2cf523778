"""Replay one trace against its conformance module (the conformance semantics of
docs/conformance.md).

For each step ``s -> s'`` with action ``A`` and params ``p``: an accepted step
needs ``A(p)`` TRUE from ``s`` to ``s'``; a rejected step needs ``s' = s`` and
``ENABLED A(p)`` FALSE in ``s``; every state, the initial one included,
satisfies the module's invariants.  A step without an action label is checked
against the module's ``Next`` (:func:`_check_unlabeled`).  The trace is streamed: only the previous
state is held, so memory does not grow with the trace's length.  An external
checker (``--backend tlc|apalache``, ``--cross-check``) is fed the same stream.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from tlaconf.errors import CheckerFailed, UserError, internal_error
from tlaconf.replay.backend import (
    Backend,
    CheckerSession,
    Decision,
    ExternalChecker,
    LoadedModule,
    State,
)
from tlaconf.replay.result import Failure, TraceResult, Verdict, Witness, state_diff
from tlaconf.spec.lookup import module_spec
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.models import TraceHeader
from tlaconf.trace.reader import Step, TraceFormatError, open_trace
from tlaconf.values import Fn

Progress = Callable[[int], None]
"""Called with the number of steps replayed so far (every :data:`PROGRESS_EVERY` steps)."""

PROGRESS_EVERY = 500

class ModuleCache:
    """Loaded modules, keyed by backend, module file, search path, constants and
    invariants, and valid while the text of every file the load read is unchanged
    (a spec edited between two replays is loaded again)."""

    def __init__(self) -> None:
        self._loaded: dict[tuple[Any, ...], tuple[dict[str, str], LoadedModule]] = {}

    def load(self, backend: Backend, spec: ModuleSpec) -> LoadedModule:
        key = (
            backend.name,
            spec.path.resolve(),
            spec.search_path,
            tuple(sorted(spec.constants.items(), key=lambda kv: kv[0])),
            spec.invariants,
        )
        hit = self._loaded.get(key)
        if hit is not None and _unchanged(hit[0]):
            return hit[1]
        mod = backend.load(spec)
        self._loaded[key] = (_sources(mod, spec), mod)
        return mod


def _sources(mod: LoadedModule, spec: ModuleSpec) -> dict[str, str]:
    """The files a load read and their text: the backend's account (``sources``), else
    the module file and its ``.cfg``."""
    known = getattr(mod, "sources", None)
    files = dict(known) if isinstance(known, Mapping) else {}
    for path in (spec.path, spec.path.with_suffix(".cfg")):
        files.setdefault(str(path), _read(path))
    return files


def _read(path: str | Path) -> str:
    try:
        return Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _unchanged(files: Mapping[str, str]) -> bool:
    return all(_read(p) == text for p, text in files.items() if not p.startswith("<"))


def _message(err: UserError) -> str:
    return f"{err.location}: {err.message}" if err.location else err.message


class _Stop(Exception):
    """Ends a replay early with its result."""

    def __init__(self, verdict: Verdict, failure: Failure, undecided: bool = False) -> None:
        super().__init__(failure.reason)
        self.verdict = verdict
        self.failure = failure
        self.undecided = undecided


def _check_variables(
    mod: LoadedModule, expected: frozenset[str], state: Mapping[str, Any], line: int, step: int
) -> None:
    """A ``_Stop`` error unless ``state`` has exactly the ``expected`` (the module's) variables."""
    if state.keys() == expected:
        return
    missing = sorted(expected - state.keys())
    extra = sorted(state.keys() - expected)
    parts = []
    if missing:
        parts.append(f"lacks variable(s) {', '.join(missing)}")
    if extra:
        parts.append(f"has variable(s) {', '.join(extra)} not declared by module {mod.name}")
    raise _Stop("error", Failure(step, line, f"line {line}: the state {' and '.join(parts)}"))


def _check_invariants(
    mod: LoadedModule, invariants: tuple[str, ...], state: Mapping[str, Any], step: int, line: int,
    action: str | None = None, params: Any = None, before: Mapping[str, Any] | None = None,
) -> None:  # fmt: skip
    for inv in invariants:
        try:
            blame = mod.check_invariant(inv, state)
        except UserError as err:
            where = "the initial state" if step == 0 else f"the state after step {step}"
            reason = f"line {line}: cannot evaluate invariant {inv} in {where}: {_message(err)}"
            raise _Stop("error", Failure(step, line, reason, action, params)) from None
        if blame is not None:
            where = "the initial state" if step == 0 else f"the state after step {step}"
            reason = f"invariant {inv} is FALSE in {where}"
            diff = () if before is None else state_diff(before, state)
            raise _Stop("violation", Failure(step, line, reason, action, params, blame, diff))


def _witness(mod: LoadedModule, action: str, params: Any, state: Mapping[str, Any]
             ) -> Witness | None:
    """The successor the spec allows, from a backend that can show one (the embedded one)."""
    show = getattr(mod, "witness", None)
    return None if show is None else show(action, params, state)


def _params_hint(params: Any) -> str:
    if type(params) is Fn:
        return f" (the step's params have fields: {', '.join(sorted(map(str, params)))})"
    return ""


def _check_unlabeled(
    mod: LoadedModule, outcome: str, before: Mapping[str, Any], after: Mapping[str, Any],
    line: int, step: int,
) -> None:  # fmt: skip
    """A step without an action label: ``Next`` from s to s' (accepted), s' = s (rejected).

    A rejected step without a label names no request whose ENABLED could be
    decided: it is a stuttering step, which ``[Next]_vars`` always allows.
    """
    if not mod.has_next:
        reason = (
            f"line {line}: the step has no action label, so it is checked against Next, "
            f"but module {mod.name} defines no Next (label the step with an action, "
            "or define Next in the module)"
        )
        raise _Stop("error", Failure(step, line, reason))
    diff = state_diff(before, after)
    if outcome == "rejected":
        if diff:
            reason = "the step (no action label) was rejected but the state changed (s' # s)"
            raise _Stop("violation", Failure(step, line, reason, NEXT, None, None, diff))
        return
    try:
        blame = mod.check_next(before, after)
    except UserError as err:
        reason = f"line {line}: cannot evaluate Next: {_message(err)}"
        raise _Stop("error", Failure(step, line, reason, NEXT)) from None
    if blame is not None:
        reason = "the step has no action label and Next is FALSE from s to s'"
        if not diff:
            reason += " (s' = s: record a stuttering step as rejected)"
        raise _Stop("violation", Failure(step, line, reason, NEXT, None, blame, diff))


def _not_an_action(mod: LoadedModule, step: Step, actions: Collection[str]) -> str:
    """Why the step's label is no action of the module (unknown, or an operator that primes
    no variable, so it cannot determine the next state)."""
    why = getattr(mod, "non_actions", {}).get(step.action)
    known = ", ".join(sorted(actions)) or "none"
    if why is not None:
        return f"line {step.line}: {why}; the actions of module {mod.name}: {known}"
    return (f"line {step.line}: unknown action label {step.action!r} "
            f"(module {mod.name} defines the actions: {known})")


def _judge_step(
    mod: LoadedModule, invariants: tuple[str, ...], number: int, step: Step, before: State
) -> None:
    """Evaluate step ``number`` from ``before``: a ``_Stop`` unless it conforms."""
    line, action, params, after = step.line, step.action, step.params, step.state
    if action is None:
        _check_unlabeled(mod, step.outcome, before, after, line, number)
        if step.outcome == "accepted":
            _check_invariants(mod, invariants, after, number, line, NEXT, None, before)
        return
    try:
        if step.outcome == "accepted":
            blame = mod.check_action(action, params, before, after)
            if blame is not None:
                reason = f"the step was accepted but {action}(p) is FALSE from s to s'"
                diff = state_diff(before, after)
                raise _Stop("violation", Failure(number, line, reason, action, params, blame, diff))
        else:
            diff = state_diff(before, after)
            if diff:
                reason = "the step was rejected but the state changed (s' # s)"
                raise _Stop("violation", Failure(number, line, reason, action, params, None, diff))
            if mod.enabled(action, params, before):
                reason = f"the step was rejected but ENABLED {action}(p) is TRUE in s"
                witness = _witness(mod, action, params, before)
                raise _Stop("violation",
                            Failure(number, line, reason, action, params, witness=witness))
    except UserError as err:
        reason = (
            f"line {line}: cannot evaluate {action}(p): {_message(err)}{_params_hint(params)}"
        )
        raise _Stop("error", Failure(number, line, reason, action, params)) from None
    if step.outcome == "accepted":
        _check_invariants(mod, invariants, after, number, line, action, params, before)


def _explain(
    mod: LoadedModule, invariants: tuple[str, ...], checker: str, d: Decision
) -> _Stop:
    """The failure at the step the checker decided on, explained by ``mod`` (the embedded one)."""
    try:
        if d.taken is None:
            _check_invariants(mod, invariants, d.before or {}, 0, d.line)
        else:
            assert d.before is not None
            _judge_step(mod, invariants, d.step, d.taken, d.before)
    except _Stop as stop:
        if stop.verdict == "violation":
            return stop
    action = None if d.taken is None else (d.taken.action or NEXT)
    params = None if d.taken is None else d.taken.params
    diff = () if d.taken is None or d.before is None else state_diff(d.before, d.taken.state)
    reason = (
        f"{checker}: {d.detail} (the embedded evaluator finds this step conforms, so there is "
        "no blame; replay with --cross-check to compare the two)"
    )
    return _Stop("violation", Failure(d.step, d.line, reason, action, params, None, diff))


def _disagreement(checker: str, ours: _Stop | None, theirs: Decision | None) -> str | None:
    """Why the embedded verdict and the checker's differ (None when they agree)."""
    mine = "conforms" if ours is None else f"violation at step {ours.failure.step}"
    other = "conforms" if theirs is None else f"violation at step {theirs.step}"
    if mine == other:
        return None
    said = "" if theirs is None else f" ({theirs.detail})"
    return f"the checkers disagree: embedded says {mine}, {checker} says {other}{said}"


class StepObserver(Protocol):
    """Rides on the replay loop (coverage is one): told of every trace's module and of
    every step before it is judged; what it raises (a UserError) ends the trace as an
    ``error``."""

    def start(self, path: Path, mod: LoadedModule) -> None: ...

    def initial(self, mod: LoadedModule, state: State) -> None: ...

    def step(self, mod: LoadedModule, number: int, step: Step, before: State) -> None: ...


class PoolObserver(StepObserver, Protocol):
    """An observer that can ride on the replays of worker processes (``-j N``): each worker
    gets a :meth:`fork`, and what the forks observed is :meth:`join`-ed back, chunk by
    chunk in the order of the traces."""

    def fork(self) -> PoolObserver:
        """A fresh observer for one chunk of traces (sent to a worker: picklable)."""
        ...

    def join(self, other: PoolObserver) -> None:
        """Take in what ``other`` (one of this observer's forks) observed."""
        ...


class Strategy:
    """Who decides a trace's verdict.  The base is the embedded one: ``mod`` (the loaded
    module) judges the initial state and every step, and its first failure (a ``_Stop``)
    is the verdict."""

    def start(self, spec: ModuleSpec, mod: LoadedModule, path: Path) -> None:
        self.mod = mod
        self.invariants = spec.invariants

    def initial(self, state: State) -> None:
        _check_invariants(self.mod, self.invariants, state, 0, 2)

    def step(self, number: int, step: Step, before: State) -> None:
        _judge_step(self.mod, self.invariants, number, step, before)

    def done(self) -> bool:
        """Whether the verdict is known (the remaining steps need not be read)."""
        return False

    def finish(self) -> _Stop | None:
        """Every step is in: the failure that is the verdict, None when the trace conforms."""
        return None

    def close(self) -> None:
        """Release what the strategy holds (the checker's session)."""


class External(Strategy):
    """An external checker decides (``--backend tlc|apalache``); the embedded module only
    explains the step it decided on."""

    def __init__(self, checker: ExternalChecker) -> None:
        self.checker = checker
        self.session: CheckerSession | None = None
        self.decision: Decision | None = None

    def start(self, spec: ModuleSpec, mod: LoadedModule, path: Path) -> None:
        super().start(spec, mod, path)
        self.session = self.checker.open(spec, mod, path)

    def feed(self, answer: Decision | None) -> None:
        if answer is not None and self.decision is None:
            self.decision = answer

    def initial(self, state: State) -> None:
        assert self.session is not None
        self.feed(self.session.initial(state))

    def step(self, number: int, step: Step, before: State) -> None:
        if self.decision is None:
            assert self.session is not None
            self.feed(self.session.add(number, step, before))

    def done(self) -> bool:
        return self.decision is not None

    def finish(self) -> _Stop | None:
        if self.decision is None:
            assert self.session is not None
            self.feed(self.session.finish())
        if self.decision is None:
            return None
        return _explain(self.mod, self.invariants, self.checker.name, self.decision)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None


class CrossCheck(External):
    """Both the embedded module and the checker decide every step (``--cross-check``);
    any difference is an undecided result."""

    def __init__(self, checker: ExternalChecker) -> None:
        super().__init__(checker)
        self.ours: _Stop | None = None

    def _judge(self, judge: Callable[[], None]) -> None:
        if self.ours is not None:
            return
        try:
            judge()
        except _Stop as stop:
            if stop.verdict == "error":
                raise
            self.ours = stop

    def initial(self, state: State) -> None:
        super().initial(state)
        self._judge(lambda: Strategy.initial(self, state))

    def step(self, number: int, step: Step, before: State) -> None:
        self._judge(lambda: Strategy.step(self, number, step, before))
        super().step(number, step, before)

    def done(self) -> bool:
        return self.decision is not None and self.ours is not None

    def finish(self) -> _Stop | None:
        if self.decision is None:
            assert self.session is not None
            self.feed(self.session.finish())
        ours, d = self.ours, self.decision
        why = _disagreement(self.checker.name, ours, d)
        if why is None:
            return ours
        at = ours.failure if ours is not None else None
        step_no = at.step if at is not None else d.step if d is not None else 0
        line_no = at.line if at is not None else d.line if d is not None else 2
        failure = Failure(step_no, line_no, why, at.action if at else None,
                          at.params if at else None, at.blame if at else None)  # fmt: skip
        return _Stop("error", failure, undecided=True)


class Replayer:
    """Replays traces: the backend that loads modules, who decides (the embedded
    evaluator, an external checker, or both), the observers riding on the loop, and
    the modules loaded so far, and the run's settings (``debug``).  One per run, or per
    library user; nothing is kept between two Replayers."""

    def __init__(
        self,
        backend: Backend,
        checker: ExternalChecker | None = None,
        cross_check: bool = False,
        observers: Sequence[StepObserver] = (),
        debug: bool = False,
    ) -> None:
        if cross_check and checker is None:
            raise ValueError("cross-checking needs a checker")
        self.backend = backend
        self.checker = checker
        self.cross_check = cross_check
        self.observers = tuple(observers)
        self.debug = debug
        """Print the traceback of an internal error to stderr too (``--debug``)."""
        self.modules = ModuleCache()

    def strategy(self) -> Strategy:
        """A fresh strategy for one trace."""
        if self.checker is None:
            return Strategy()
        return CrossCheck(self.checker) if self.cross_check else External(self.checker)

    def load(self, spec: ModuleSpec) -> LoadedModule:
        return self.modules.load(self.backend, spec)

    def replay(
        self, path: str | Path, spec_dir: Path, progress: Progress | None = None,
        revision: str | None = None,
    ) -> TraceResult:
        """Replay the trace at ``path`` against ``revision`` of the profile (default: the
        one its header names); every problem becomes a verdict, never an exception.

        With a checker, it decides the verdict and the embedded evaluator explains the
        failing step; cross-checking, both decide every step and any difference is an
        undecided result (exit code 3), as is a checker that fails
        (:class:`CheckerFailed`).

        An exception that is not a :class:`UserError` is a bug: its traceback is saved and
        the trace gets an ``error`` verdict whose failure names the file (exit code 3).
        """
        from tlaconf.evaluate import budget

        with budget.run():  # one timer for every evaluation of the trace
            return self._replay(path, spec_dir, progress, revision)

    def _replay(
        self, path: str | Path, spec_dir: Path, progress: Progress | None, revision: str | None
    ) -> TraceResult:
        check = TraceCheck(self, Path(path), spec_dir, revision)
        try:
            with open_trace(path) as trace:
                check.load(trace.header)
                check.initial(trace.initial)
                for step in trace.steps():
                    if check.strategy.done():
                        break
                    check.step(step)
                    if progress is not None and check.steps % PROGRESS_EVERY == 0:
                        progress(check.steps)
                final = check.strategy.finish()
        except Exception as exc:
            return check.stopped(exc)
        finally:
            check.strategy.close()
        if progress is not None:
            progress(check.steps)
        return check.finished(final)


class TraceCheck:
    """One full trace judged a line at a time, as :meth:`Replayer.replay` judges a file
    (and ``tlaconf.Recorder(check=True)`` the events it records): :meth:`load` the
    header's module, then :meth:`initial`, then each :meth:`step`; a failure is raised,
    and :meth:`stopped` turns it into the trace's result (:meth:`finished` at the end)."""

    def __init__(self, replayer: Replayer, path: Path, spec_dir: Path,
                 revision: str | None = None) -> None:
        self.replayer, self.path, self.spec_dir, self.revision = (
            replayer, path, spec_dir, revision)
        self.strategy = replayer.strategy()
        self.start = time.perf_counter()
        self.module: str | None = None
        self.steps = 0
        self.line = 1
        self.checked: tuple[str, ...] | None = None
        self.before: State = {}

    def load(self, header: TraceHeader) -> None:
        """Load the module the trace's ``header`` names (line 1)."""
        self.module = header.module
        if header.partial:  # routed by tlaconf.api.replay, never here
            raise _Stop("error", Failure(0, 1, PARTIAL))
        revision = self.revision or header.revision
        try:
            spec = module_spec(self.spec_dir, header.module, revision, header.constants)
            mod = self.replayer.load(spec)
            mod.start_trace()
            self.strategy.start(spec, mod, self.path)
            for o in self.replayer.observers:
                o.start(self.path, mod)
        except UserError as err:
            reason = f"line 1: cannot load module {header.module!r}: {err}"  # as tlaconf parse
            raise _Stop("error", Failure(0, 1, reason)) from None
        self.spec = spec
        self.mod = mod
        self.actions = set(mod.actions)
        self.variables = frozenset(mod.variables)
        self.checked = spec.invariants
        self.line = 2

    def again(self, path: Path, before: State | None = None) -> TraceCheck:
        """A check of another trace of the module :meth:`load` loaded (the same header),
        named ``path``, without loading it again; with ``before``, it goes on from that
        state, already judged (as :meth:`initial` would, its invariants are not checked
        again): then each :meth:`step` follows."""
        other = TraceCheck(self.replayer, path, self.spec_dir, self.revision)
        other.module, other.spec, other.mod = self.module, self.spec, self.mod
        other.actions, other.variables, other.checked = self.actions, self.variables, self.checked
        self.mod.start_trace()
        other.strategy.start(self.spec, self.mod, path)
        for o in self.replayer.observers:
            o.start(path, self.mod)
        other.line = 2
        if before is not None:
            _check_variables(self.mod, self.variables, before, 2, 0)
            for o in self.replayer.observers:
                o.initial(self.mod, before)
            other.before = before
        return other

    def initial(self, state: State) -> None:
        """Judge the initial state (line 2)."""
        _check_variables(self.mod, self.variables, state, 2, 0)
        for o in self.replayer.observers:
            o.initial(self.mod, state)
        self.strategy.initial(state)
        self.before = state

    def step(self, step: Step) -> None:
        """Judge the next step line."""
        mod = self.mod
        self.steps += 1
        self.line = step.line
        if step.action is not None and step.action not in self.actions:
            raise _Stop("error", Failure(self.steps, self.line,
                                         _not_an_action(mod, step, self.actions),
                                         step.action, step.params))
        _check_variables(mod, self.variables, step.state, self.line, self.steps)
        for o in self.replayer.observers:
            o.step(mod, self.steps, step, self.before)
        self.strategy.step(self.steps, step, self.before)
        self.before = step.state

    def result(self, verdict: Verdict, failure: Failure | None, undecided: bool = False
               ) -> TraceResult:
        checked = self.checked
        return TraceResult(str(self.path), self.module, verdict, self.steps, failure,
                           _since(self.start), checked, undecided=undecided,
                           states=0 if checked is None else self.steps + 1)

    def stopped(self, exc: Exception) -> TraceResult:
        """The result of a failure ``exc`` raised while judging (a bug in tlaconf or a
        backend is reported with its saved traceback, never as a verdict)."""
        steps, line = self.steps, self.line
        if isinstance(exc, _Stop):
            return self.result(exc.verdict, exc.failure, exc.undecided)
        if isinstance(exc, TraceFormatError):
            bad = exc.line or line
            return self.result("error", Failure(max(bad - 2, 0), bad,
                                                f"line {bad}: {exc.message}"))
        if isinstance(exc, UserError):
            return self.result("error", Failure(steps, line, f"line {line}: {_message(exc)}"))
        if isinstance(exc, CheckerFailed):
            checker = self.replayer.checker
            name = checker.name if checker is not None else "the checker"
            failure = Failure(steps, line, f"line {line}: {name} could not decide: {exc}")
            return self.result("error", failure, undecided=True)
        message, saved = internal_error(exc, echo=self.replayer.debug)
        return self.result("error", Failure(steps, line, f"line {line}: {message}",
                                            traceback=saved))

    def finished(self, final: _Stop | None = None) -> TraceResult:
        """The result once every line is judged (``final``: the strategy's last word)."""
        if final is not None:
            return self.result(final.verdict, final.failure, final.undecided)
        if self.steps == 0:
            failure = Failure(0, 2, "the trace has no steps: nothing was checked but the "
                              "initial state")
            return self.result("vacuous", failure)
        return self.result("conforms", None)


PARTIAL = ("line 1: a partial trace (its header says \"partial\": true): the step-by-step "
           "replay needs every variable in every state; tlaconf.replay() and 'tlaconf "
           "replay' check it by the candidate-set search")


def replay_trace(
    path: str | Path,
    spec_dir: Path,
    backend: Backend,
    progress: Progress | None = None,
    revision: str | None = None,
    checker: ExternalChecker | None = None,
    cross_check: bool = False,
) -> TraceResult:
    """One trace with a fresh :class:`Replayer` (see :meth:`Replayer.replay`)."""
    return Replayer(backend, checker, cross_check).replay(path, spec_dir, progress, revision)


def _since(start: float) -> float:
    return time.perf_counter() - start
