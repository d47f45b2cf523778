"""Replaying a partial trace: the set of spec states consistent with the log so far.

Each logged step is explained from every candidate state: by the step's action and
params (or ``Next`` for an unlabelled step), after at most ``SilentBound`` steps of the
module's ``SilentActions`` (steps the log does not show); the successors that agree
with what the step logged (:mod:`tlaconf.trace.partial`; or, when the module defines
``Observe(s, logged)``, those for which it is TRUE, ``s`` the state as a record) and
satisfy the invariants are the next candidates.  A step no candidate explains is the
violation, at that log line; more than ``max_candidates`` candidates is undecided
(never a guess).  Stuttering is never implicit: a step the spec does not take is not
skipped.

The diagnosis of a violation: for the nearest candidates, the step that came nearest
(successors that disagree with the log: the logged fields they got wrong; no
successor: the action's blame tree, evaluated towards the logged state), the logged
fields no successor of any candidate matched, and the candidates alive at each line.
On success: every line consumed, the most candidates any line had, and (with
``Observe``) the logged fields the mapping never constrained.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import Blame, Context, EvalError, load_module
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.lazysets import is_fn
from tlaconf.evaluate.semantics import apply
from tlaconf.explore import (
    Engine,
    StateId,
    Successors,
    Transition,
    fingerprint,
    fingerprint_of,
)
from tlaconf.replay.result import BlameNode, Failure, TraceResult, Verdict
from tlaconf.spec import lookup
from tlaconf.trace.models import TraceHeader
from tlaconf.trace.partial import (
    Partial,
    PartialStep,
    field_span,
    read_partial,
    show,
)
from tlaconf.validate.nearest import narrowed, progress
from tlaconf.validate.outcome import Candidate, Outcome
from tlaconf.values import Fn, ModelValue, make_fn, to_tla

State = dict[str, Any]
DEFAULT_MAX_CANDIDATES = 1000
_TRIED = 50
_SHOWN = 3
_UNLOGGED = ModelValue("tlaconf_unlogged")


class PartialReplay:
    """One partial trace (its header, at ``path``) against its conformance module."""

    def __init__(self, header: TraceHeader, path: Path, spec_dir: Path | None,
                 revision: str | None) -> None:
        self.path = path
        h = header
        spec = lookup.resolve_spec_dir(spec_dir)
        self.ms = lookup.module_spec(spec, h.module, revision or h.revision, h.constants)
        self.ctx: Context = load_module(self.ms.path, self.ms.search_path, self.ms.constants)
        self.variables = tuple(self.ctx.variables)
        self.succ = Successors(self.ctx)
        self.observe = self.defined("Observe", 2)
        self.silent: tuple[str, ...] = ()
        self.bound = 0
        if self.defined("SilentActions", 0):
            names = self.ctx.value("SilentActions")
            if type(names) is not frozenset or not all(type(n) is str for n in names):
                raise UserError(f"{self.ms.path}: SilentActions must be a set of action names")
            for name in sorted(names):
                if not self.defined(name, 0):
                    raise UserError(f"{self.ms.path}: SilentActions names {name!r}, which is "
                                    "not an action without parameters of the module")
            self.silent = tuple(sorted(names))
            self.bound = self.ctx.value("SilentBound") if self.defined("SilentBound", 0) else 1
            if type(self.bound) is not int or self.bound < 0:
                raise UserError(f"{self.ms.path}: SilentBound must be a natural number")

    def check_names(self, logged: Mapping[str, Any], line: int) -> None:
        """UserError unless every variable ``logged`` at ``line`` is one of the module's
        (under Observe, the log's names are the mapping's business)."""
        if not self.observe:
            for name in logged:
                self._known(name, self.path, line)

    def defined(self, name: str, arity: int) -> bool:
        """Whether the module defines the operator ``name`` with ``arity`` parameters."""
        entry = self.ctx.ns.lookup(name)
        return entry is not None and entry.kind == "op" and entry.arity == arity

    def _known(self, name: str, path: Path, line: int) -> None:
        if name not in self.variables:
            raise UserError(f"{path}:{line}: {name} is not a variable of module "
                            f"{self.ctx.name} (it has {', '.join(self.variables)})")

    # ------------------------------------------------------------------ matching

    def mismatches(self, state: Mapping[str, Any], logged: Mapping[str, Any]) -> list[str]:
        """The logged fields ``state`` disagrees with (``["Observe"]`` under a mapping)."""
        return [f for f, _, _ in self.differences(state, logged)]

    def differences(self, state: Mapping[str, Any], logged: Mapping[str, Any]
                    ) -> list[tuple[str, str, str]]:
        """(logged field, the spec's value there, the logged value) for every field
        ``state`` disagrees on."""
        if not logged:  # nothing observed
            return []
        if self.observe:
            ok = self.ctx.holds("Observe", (_record(state), _plain(logged)), {})
            return [] if ok else [("Observe(s, logged)", "FALSE", "TRUE")]
        out: list[tuple[str, str, str]] = []
        for var, value in logged.items():
            out += _diff(state[var], value, var)
        return out

    def violated(self, state: State) -> str | None:
        for inv in self.ms.invariants:
            if not self.ctx.holds(inv, (), state):
                return inv
        return None

    # ------------------------------------------------------------------ successors

    def steps_of(self, step: PartialStep, state: State) -> list[tuple[str, State]]:
        """The successors of ``state`` under the step's action (or ``Next``), labelled."""
        if step.action is None:
            return self._next("Next", state)
        if not self.defined(step.action, 1):
            raise UserError(f"{self.path}:{step.line}: unknown action {step.action!r} "
                            f"(module {self.ctx.name} has no action {step.action}(p))")
        return [(f"{step.action}({to_tla(step.params)})", s)
                for s in self.succ.action(step.action, (step.params,), state)]

    def _next(self, op: str, state: State) -> list[tuple[str, State]]:
        if not self.defined(op, 0):
            raise UserError(f"{self.path}: a step without an action label needs {op} "
                            f"in module {self.ctx.name}")
        node, ns, span = self.succ.definition(op)
        return [(str(label), s) for label, s in self.succ.next(node, ns, span, op, state)]

    def enabled(self, step: PartialStep, state: State) -> bool:
        if step.action is None:
            return bool(self._next("Next", state))
        return self.ctx.enabled(step.action, (step.params,), state)

    def closure(self, frontier: dict[StateId, State]) -> dict[StateId, State]:
        """``frontier`` and every state at most ``bound`` silent steps from it: the
        explorer's breadth-first search of the silent steps."""
        if not self.silent or not self.bound:
            return dict(frontier)
        engine = Engine(_Silent(self, list(frontier.values())), max_depth=self.bound + 1)
        engine.bfs()
        return {sid: engine.state(sid) for sid in engine}

    def key(self, state: State) -> StateId:
        """``state``'s identity, the explorer's (its fingerprint: ``TRUE`` is not ``1``)."""
        return fingerprint_of(state, self.variables)

    def explain(self, step: PartialStep, state: State) -> Candidate:
        """Why no successor of ``state`` agrees with ``step``: the nearest successor's
        wrong fields, or (none) the action's blame towards the logged state."""
        succs = self.steps_of(step, state)
        op, args = (step.action, (step.params,)) if step.action else ("Next", ())
        if succs:
            label, best = min(succs, key=lambda t: len(self.mismatches(t[1], step.state)))
            wrong = self.differences(best, step.state)
            detail = "; ".join(f"{f} (the log has {lv}, the spec has {v})" for f, v, lv in wrong)
            why = None if self.observe else self._towards(op, args, state, best, step)
            return Candidate(state, f"{label}, which disagrees with the log on {detail}",
                             why, 1_000_000 - len(wrong))
        guess = {v: _overlay(state[v], step.state[v]) if v in step.state else state[v]
                 for v in self.variables}
        try:
            blame = narrowed(self.ctx.explain(op, args, state, guess, witnesses=True))
        except EvalError as err:
            return Candidate(state, f"{op} (not enabled; {err})", None, -1)
        return Candidate(state, f"{op}{'(' + to_tla(step.params) + ')' if args else ''} "
                         "(not enabled)", blame, progress(blame))

    def _towards(self, op: str, args: tuple[Any, ...], state: State, nearest: State,
                 step: PartialStep) -> Blame | None:
        """Why the action does not reach what ``step`` logged from ``state``: its blame
        from ``state`` to ``nearest`` with the logged values put in, down the branch
        that decided (the guard that held or failed, the IF condition, the disjunct)
        to the conjunct that assigns the disagreeing value; None when that cannot be
        evaluated (the disagreement alone is then the diagnosis)."""
        towards = {v: _overlay(nearest[v], step.state[v]) if v in step.state else nearest[v]
                   for v in self.variables}
        try:
            if self.ctx.holds(op, args, state, towards):
                return None
            return narrowed(self.ctx.explain(op, args, state, towards, witnesses=True))
        except EvalError:
            return None


class _Silent:
    """The steps of the ``SilentActions`` from a set of candidates, as a state space the
    explorer's engine searches (no constraint, invariant or deadlock: the logged steps
    are where those are checked)."""

    check_deadlock = False

    def __init__(self, replay: PartialReplay, start: list[State]) -> None:
        self.replay, self.start = replay, start

    def initial_states(self) -> list[State]:
        return self.start

    def successors(self, state: Mapping[str, Any]) -> list[Transition]:
        r = self.replay
        out = []
        for op in r.silent:
            node, ns, span = r.succ.definition(op)
            out += [Transition(label, n) for label, n in r.succ.next(node, ns, span, op, state)]
        return out

    def in_constraints(self, state: Mapping[str, Any]) -> bool:
        return True

    def action_allowed(self, state: Mapping[str, Any], nxt: Mapping[str, Any]) -> bool:
        return True

    def violated_invariant(self, state: Mapping[str, Any]) -> str | None:
        return None

    def fingerprint(self, state: Mapping[str, Any]) -> int:
        return fingerprint_of(state, self.replay.variables)

    def guard(self) -> Any:
        return self.replay.succ.guard()


class PartialSearch:
    """The candidate set of one partial trace, advanced a log line at a time: what
    :func:`replay_partial` runs over a file and the recorder's online check over the
    events as they come.  ``out`` is the outcome so far; ``decided`` once it is
    rejected or undecided (nothing more can be checked)."""

    def __init__(self, r: PartialReplay, max_candidates: int = DEFAULT_MAX_CANDIDATES) -> None:
        self.r, self.max_candidates = r, max_candidates
        self.out = Outcome(r.ctx.name, invariants=list(r.ms.invariants))
        self.frontier: dict[StateId, State] = {}
        self.decided = False

    def initial(self, logged: Mapping[str, Any]) -> bool:
        """Start from the logged initial state (line 2); False when it is rejected."""
        try:
            frontier = _initial(self.r, logged, self.out)
        except EvalError as err:
            raise UserError(f"cannot check the initial state: {err}", f"{self.r.path}:2") \
                from None
        return self._took(frontier)

    def step(self, step: PartialStep) -> bool:
        """Advance over ``step``; False when it is rejected or undecided."""
        i = self.out.entries_checked + 1
        try:
            frontier = _advance(self.r, step, i, self.frontier, self.out, self.max_candidates)
        except EvalError as err:  # at the log line being checked, with its action
            what = (f"{step.action}({to_tla(step.params)})" if step.action is not None
                    else "Next (an unlabelled step)")
            raise UserError(f"cannot evaluate {what}: {err}", f"{self.r.path}:{step.line}") \
                from None
        return self._took(frontier)

    def _took(self, frontier: dict[StateId, State] | None) -> bool:
        """Keep ``frontier`` as the candidates (None: the entry decided the verdict)."""
        self._settle()
        if frontier is None:
            self.decided = True
            return False
        self.frontier = frontier
        return True

    def _settle(self) -> None:
        self.out.distinct_states = sum(self.out.alive)
        self.out.depth = self.out.entries_checked


def replay_partial(
    path: Path, spec_dir: Path | None = None, revision: str | None = None,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    on_line: Callable[[int, int, int], None] | None = None,
) -> Outcome:
    """Replay the partial trace at ``path``; ``on_line(line, lines, candidates)`` after
    each log line checked."""
    start = time.perf_counter()
    trace = read_partial(path)
    r = PartialReplay(trace.header, trace.path, spec_dir, revision)
    r.check_names(trace.initial, 2)
    for s in trace.steps:
        r.check_names(s.state, s.line)
    search = PartialSearch(r, max_candidates)
    lines = 2 + len(trace.steps)
    if search.initial(trace.initial):
        for s in trace.steps:
            if not search.step(s):
                break
            if on_line is not None:
                on_line(s.line, lines, len(search.frontier))
    out = search.out
    out.reads = [(str(path), 1 + 1 + len(trace.steps))]
    out.seconds = time.perf_counter() - start
    return out


def _initial(r: PartialReplay, logged: Mapping[str, Any], out: Outcome
             ) -> dict[StateId, State] | None:
    if set(logged) == set(r.variables) and not any(isinstance(v, Partial) for v in logged.values()):
        states = [dict(logged)]
    elif r.defined("Init", 0):
        node, ns, span = r.succ.definition("Init")
        states = r.succ.initial(node, ns, span)
    else:
        raise UserError(f"{r.path}:2: the initial state is partial, and module "
                        f"{r.ctx.name} has no Init to say what it may be")
    frontier = {r.key(s): s for s in states if not r.mismatches(s, logged)}
    broken = {k: s for k, s in frontier.items() if r.violated(s)}
    ok = {k: s for k, s in frontier.items() if k not in broken}
    out.alive.append(len(ok))
    if ok:
        return ok
    out.result, out.failing_entry = "rejected", 0
    out.log_line = f"{r.path}:2"
    if broken:
        s = next(iter(broken.values()))
        inv = r.violated(s) or ""
        out.reason = f"the initial state violates {inv}"
        out.candidates = [Candidate(s, None, r.ctx.explain(inv, (), s), 0)]
    else:
        out.reason = "no initial state of Init agrees with the logged one"
    return None


def _advance(r: PartialReplay, step: PartialStep, i: int, frontier: dict[StateId, State],
             out: Outcome, max_candidates: int) -> dict[StateId, State] | None:
    """The candidates after log entry ``i`` (``step``), or None when it is decided."""
    pool = r.closure(frontier)
    new: dict[StateId, State] = {}
    broken: list[tuple[State, str]] = []
    wrong_sets: list[set[str]] = []
    for c in pool.values():
        if step.outcome == "rejected":
            if not r.mismatches(c, step.state) and not r.enabled(step, c):
                new.setdefault(r.key(c), c)
            continue
        for _, n in r.steps_of(step, c):
            wrong = r.mismatches(n, step.state)
            if wrong:
                wrong_sets.append(set(wrong))
                continue
            inv = r.violated(n)
            if inv is not None:
                broken.append((n, inv))
                continue
            new.setdefault(r.key(n), n)
        if len(new) > max_candidates:
            out.result = "undecided"
            out.failing_entry = i
            out.log_line = f"{r.path}:{step.line}"
            out.reason = (f"more than {max_candidates} candidate states agree with the "
                          f"log at line {step.line} (--max-candidates)")
            return None
    if not new:
        _reject(r, step, i, pool, broken, wrong_sets, out)
        return None
    out.alive.append(len(new))
    out.entries_checked = i
    if r.observe:
        _unconstrained(r, step, next(iter(new.values())), out)
    return new


def _reject(r: PartialReplay, step: PartialStep, i: int,
            pool: dict[StateId, State], broken: list[tuple[State, str]],
            wrong_sets: list[set[str]], out: Outcome) -> None:
    out.result = "rejected"
    out.failing_entry = i
    out.log_line = f"{r.path}:{step.line}"
    what = step.action or "Next"
    if (broken and not wrong_sets) or (broken and step.outcome == "accepted"):
        n, inv = broken[0]
        out.reason = (f"line {step.line}: every successor that agrees with the log violates "
                      f"{inv}")
        out.candidates = [Candidate(n, f"{what} leads here", r.ctx.explain(inv, (), n), 0)]
        return
    if step.outcome == "rejected":
        out.reason = (f"line {step.line}: the implementation refused {what}, but from every "
                      f"candidate state the spec allows it (or the logged state differs)")
    else:
        out.reason = f"line {step.line}: no behaviour of the spec explains this {what} step"
    tried = [r.explain(step, c) for c in list(pool.values())[:_TRIED]] \
        if step.outcome == "accepted" else [Candidate(c, None, None, 0)
                                           for c in list(pool.values())[:_SHOWN]]
    tried.sort(key=lambda c: -c.progress)
    out.candidates = tried[:_SHOWN]
    if wrong_sets:
        out.unmatched = sorted(set.intersection(*wrong_sets))


def _unconstrained(r: PartialReplay, step: PartialStep, state: State, out: Outcome) -> None:
    """Logged fields ``Observe`` does not look at: changing them keeps it TRUE."""
    for var in step.state:
        changed = {**step.state, var: _UNLOGGED}
        try:
            still = r.ctx.holds("Observe", (_record(state), _plain(changed)), {})
        except EvalError:
            continue
        if still:
            note = (f"{r.path}:{step.line}: the logged {var} is never compared "
                    "(Observe is TRUE whatever its value)")
            if note not in out.warnings:
                out.warnings.append(note)
                out.unconstrained.setdefault(var, []).append(f"{r.path}:{step.line}")


def _record(state: Mapping[str, Any]) -> Any:
    return make_fn(dict(state))


def _plain(logged: Mapping[str, Any]) -> Any:
    for name, v in logged.items():
        if isinstance(v, Partial):
            raise UserError(f"the logged {name} is #partial, which Observe(s, logged) cannot "
                            "take (give the value, or drop Observe)")
    return make_fn(dict(logged))


def _diff(value: Any, logged: Any, where: str) -> list[tuple[str, str, str]]:
    if isinstance(logged, Partial):
        if not is_fn(value):
            return [(where, show(value), show(logged))]
        out: list[tuple[str, str, str]] = []
        for k, lv in logged.entries:
            sub = f"{where}.{k}" if type(k) is str and k.isidentifier() else f"{where}[{to_tla(k)}]"
            try:
                v = apply(value, k, -1)
            except Fail:
                out.append((sub, "no such key", show(lv)))
                continue
            out += _diff(v, lv, sub)
        return out
    return [] if fingerprint(value) == fingerprint(logged) else \
        [(where, show(value), show(logged))]


def _overlay(value: Any, logged: Any) -> Any:
    """``value`` with what was logged put in its place (partial keys one by one)."""
    if not isinstance(logged, Partial):
        return logged
    base = dict(enumerate(value, 1)) if type(value) is tuple else \
        dict(value.items()) if isinstance(value, Fn) else {}
    for k, lv in logged.entries:
        base[k] = _overlay(base.get(k), lv)
    return make_fn(base)


def trace_result(path: Path, spec_dir: Path | None, revision: str | None,
                 max_candidates: int = DEFAULT_MAX_CANDIDATES,
                 on_line: Callable[[int, int, int], None] | None = None) -> TraceResult:
    """The partial trace at ``path`` as ``tlaconf replay`` and the gate report a trace:
    accepted -> ``conforms``, rejected -> ``violation`` at the failing step, undecided ->
    an undecided ``error``; bad input -> ``error``.  The blame of a step whose
    successors all disagree with the log names the logged field (``occupants.Play``).
    ``on_line`` as for :func:`replay_partial`."""
    start = time.perf_counter()
    try:
        o = replay_partial(path, spec_dir, revision, max_candidates, on_line)
    except UserError as err:  # located in this trace, or else at its header (line 1)
        return error_result(path, err, time.perf_counter() - start)
    steps, failing = read_partial(path).steps, o.failing_entry or 0
    logged = steps[failing - 1] if 0 < failing <= len(steps) else None
    return outcome_result(path, o, logged, lambda n: _line_text(path, n),
                          time.perf_counter() - start)


def error_result(path: Path, err: UserError, seconds: float) -> TraceResult:
    """Bad input met checking the partial trace at ``path``, as an ``error`` result at
    the log line it names (else at the header, line 1)."""
    loc, prefix = err.location or "", f"{path}:"
    where = loc[len(prefix):].split(":")[0] if loc.startswith(prefix) else ""
    line = int(where) if where.isdigit() else 1
    reason = f"line {line}: {err.message}" if where.isdigit() else str(err)
    return TraceResult(str(path), None, "error", max(line - 2, 0),
                       Failure(max(line - 2, 0), line, reason), seconds)


def outcome_result(path: Path, o: Outcome, logged: PartialStep | None,
                   line_text: Callable[[int], str], seconds: float) -> TraceResult:
    """The search's outcome ``o`` on the trace at ``path`` (``logged``: the step that
    failed, if one did; the text of its lines by ``line_text``) as a trace result."""
    if o.result == "accepted":
        return TraceResult(str(path), o.module, "conforms", o.entries_checked, None, seconds,
                           _invariants(o), states=o.distinct_states)
    line = int((o.log_line or ":2").rsplit(":", 1)[-1])
    step = o.failing_entry or 0
    blame: BlameNode | None = None
    best = o.candidates[0] if o.candidates else None
    field: BlameNode | None = None
    if o.unmatched and logged is not None:
        col, end = field_span(line_text(line), o.unmatched[0]) or (1, 1)
        field = BlameNode(o.unmatched[0], f"no successor of any candidate state agrees with "
                          f"what line {line} logged ({', '.join(o.unmatched)})",
                          str(path), line, col, line, end,
                          tuple((f, _logged_at(logged.state, f)) for f in o.unmatched))
    if best is not None and best.blame is not None:
        blame = BlameNode.from_blame(best.blame)
        if field is not None:  # the logged field, and the action's blame towards it
            blame = BlameNode(f"line {line} of the log", "the nearest step of the spec "
                              "disagrees with what it logged", field.file, field.line,
                              field.col, field.end_line, field.end_col,
                              children=(field, blame))
    else:
        blame = field
    reason = o.reason or "rejected"
    if best is not None and best.action:
        reason += f"; nearest: {best.action}"
    failure = Failure(step, line, reason, logged.action if logged else None,
                      logged.params if logged else None, blame)
    verdict: Verdict = "error" if o.result == "undecided" else "violation"
    return TraceResult(str(path), o.module, verdict, o.entries_checked, failure, seconds,
                       _invariants(o), undecided=o.result == "undecided",
                       states=o.distinct_states)


def _invariants(o: Outcome) -> tuple[str, ...] | None:
    return None if o.invariants is None else tuple(o.invariants)


def _line_text(path: Path, line: int) -> str:
    """The text of ``path``'s line ``line`` ("" when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                if n == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def _logged_at(state: Mapping[str, Any], field: str) -> str:
    """What the log gave at ``field`` (``var``, ``var.f``, ``var[k]``), as text."""
    head = field.split(".", 1)[0].split("[", 1)[0]
    v = state.get(head)
    if field != head and isinstance(v, Partial):
        for k, x in v.entries:
            if field in (f"{head}.{k}", f"{head}[{to_tla(k)}]"):
                return show(x)
    return show(v) if v is not None else "?"
