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
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

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
from tlaconf.trace.reader import Step, TraceFormatError, open_trace
from tlaconf.values import Fn

Progress = Callable[[int], None]
"""Called with the number of steps replayed so far (every :data:`PROGRESS_EVERY` steps)."""

PROGRESS_EVERY = 500

_LOADED: dict[tuple[Any, ...], LoadedModule] = {}


def load(backend: Backend, spec: ModuleSpec) -> LoadedModule:
    """``backend.load(spec)``, cached per process (traces of one module share the load)."""
    key = (
        backend.name,
        spec.path.resolve(),
        spec.search_path,
        tuple(sorted(spec.constants.items(), key=lambda kv: kv[0])),
        spec.invariants,
    )
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _LOADED[key] = backend.load(spec)
    return loaded


def _message(err: UserError) -> str:
    return f"{err.location}: {err.message}" if err.location else err.message


class _Stop(Exception):
    """Ends a replay early with its result."""

    def __init__(self, verdict: Verdict, failure: Failure) -> None:
        super().__init__(failure.reason)
        self.verdict = verdict
        self.failure = failure


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


class _External:
    """An external checker's session on one trace, and the first failure it reported."""

    def __init__(self, checker: ExternalChecker, session: CheckerSession) -> None:
        self.checker = checker
        self.session = session
        self.decision: Decision | None = None
        self.done = False

    def feed(self, answer: Decision | None) -> None:
        if answer is not None and not self.done:
            self.decision, self.done = answer, True


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


def replay_trace(
    path: str | Path,
    spec_dir: Path,
    backend: Backend,
    progress: Progress | None = None,
    revision: str | None = None,
    checker: ExternalChecker | None = None,
    cross_check: bool = False,
) -> TraceResult:
    """Replay the trace at ``path`` against ``revision`` of the profile (default: the one its
    header names); every problem becomes a verdict, never an exception.

    With ``checker``, the external checker decides the verdict and ``backend`` (the
    embedded evaluator) explains the failing step; with ``cross_check`` too, both
    decide every step and any difference is an undecided result (exit code 3), as is
    a checker that fails (:class:`CheckerFailed`).

    An exception that is not a :class:`UserError` is a bug: its traceback is saved and
    the trace gets an ``error`` verdict whose failure names the file (exit code 3).
    """
    start = time.perf_counter()
    module: str | None = None
    steps = 0
    line = 1
    ext: _External | None = None
    ours: _Stop | None = None  # the embedded failure, in cross-check mode
    checked: tuple[str, ...] | None = None
    evaluate = checker is None or cross_check
    try:
        with open_trace(path) as trace:
            module = trace.header.module
            revision = revision or trace.header.revision
            try:
                spec = module_spec(spec_dir, module, revision, trace.header.constants)
                mod = load(backend, spec)
                mod.start_trace()
                if checker is not None:
                    ext = _External(checker, checker.open(spec, mod, Path(path)))
            except UserError as err:
                reason = f"line 1: cannot load module {module!r}: {err}"  # as tlaconf parse says
                raise _Stop("error", Failure(0, 1, reason)) from None
            actions = set(mod.actions)
            variables = frozenset(mod.variables)
            invariants = checked = spec.invariants
            line = 2
            before = trace.initial
            _check_variables(mod, variables, before, 2, 0)
            if ext is not None:
                ext.feed(ext.session.initial(before))
            if evaluate:
                try:
                    _check_invariants(mod, invariants, before, 0, 2)
                except _Stop as stop:
                    if not cross_check or stop.verdict == "error":
                        raise
                    ours = stop
            for step in trace.steps():
                if ext is not None and ext.done and (not cross_check or ours is not None):
                    break
                steps += 1
                line = step.line
                if step.action is not None and step.action not in actions:
                    raise _Stop("error", Failure(steps, line, _not_an_action(mod, step, actions),
                                                 step.action, step.params))
                _check_variables(mod, variables, step.state, line, steps)
                if evaluate and ours is None:
                    try:
                        _judge_step(mod, invariants, steps, step, before)
                    except _Stop as stop:
                        if not cross_check or stop.verdict == "error":
                            raise
                        ours = stop
                if ext is not None and not ext.done:
                    ext.feed(ext.session.add(steps, step, before))
                before = step.state
                if progress is not None and steps % PROGRESS_EVERY == 0:
                    progress(steps)
            if ext is not None and not ext.done:
                ext.feed(ext.session.finish())
    except _Stop as stop:
        return TraceResult(str(path), module, stop.verdict, steps, stop.failure, _since(start),
                           checked)
    except TraceFormatError as err:
        bad = err.line or line
        reason = f"line {bad}: {err.message}"
        failure = Failure(max(bad - 2, 0), bad, reason)
        return TraceResult(str(path), module, "error", steps, failure, _since(start), checked)
    except UserError as err:
        failure = Failure(steps, line, f"line {line}: {_message(err)}")
        return TraceResult(str(path), module, "error", steps, failure, _since(start), checked)
    except CheckerFailed as err:
        name = checker.name if checker is not None else "the checker"
        failure = Failure(steps, line, f"line {line}: {name} could not decide: {err}")
        return TraceResult(str(path), module, "error", steps, failure, _since(start), checked,
                           undecided=True)
    except Exception as exc:  # a bug in tlaconf or a backend: reported, never a verdict
        message, saved = internal_error(exc)
        failure = Failure(steps, line, f"line {line}: {message}", traceback=saved)
        return TraceResult(str(path), module, "error", steps, failure, _since(start), checked)
    finally:
        if ext is not None:
            ext.session.close()
    if progress is not None:
        progress(steps)
    if ext is not None:
        if cross_check:
            why = _disagreement(ext.checker.name, ours, ext.decision)
            if why is not None:
                at = ours.failure if ours is not None else None
                d = ext.decision
                step_no = at.step if at is not None else d.step if d is not None else 0
                line_no = at.line if at is not None else d.line if d is not None else 2
                failure = Failure(step_no, line_no, why, at.action if at else None,
                                  at.params if at else None, at.blame if at else None)  # fmt: skip
                return TraceResult(str(path), module, "error", steps, failure, _since(start),
                                   checked, undecided=True)
        elif ext.decision is not None:
            ours = _explain(mod, invariants, ext.checker.name, ext.decision)
        if ours is not None:
            verdict, failure = ours.verdict, ours.failure
            return TraceResult(str(path), module, verdict, steps, failure, _since(start), checked)
    if steps == 0:
        failure = Failure(0, 2, "the trace has no steps: nothing was checked but the initial state")
        return TraceResult(str(path), module, "vacuous", 0, failure, _since(start), checked)
    return TraceResult(str(path), module, "conforms", steps, None, _since(start), checked)


def _since(start: float) -> float:
    return time.perf_counter() - start
