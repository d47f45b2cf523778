"""Running an unchanged TLC trace-validation spec, as TLC's breadth-first search does.

The spec reads its log itself (``ndJsonDeserialize(IOEnv.JSON)``), constrains each
step to the log entry at ``TLCGet("level")`` (an ``ACTION_CONSTRAINT``, or its
``Next``), keeps repeated states apart with a ``VIEW`` holding the level, and says in a
``POSTCONDITION`` whether the search got to the end of the log
(``TLCGet("stats").diameter``).  :func:`validate_trace_spec` runs that search level by
level on the exploration engine (:class:`tlaconf.explore.Engine`: its breadth-first
search and state identity, ``TRUE`` apart from ``1``), with the TLC registers set as TLC sets them:

* ``TLCGet("level")``: the level of the state whose step is evaluated (initial
  states: 1); a new state's ``VIEW``, ``CONSTRAINT`` and invariants see its own level;
  primed (``TLCGet("level")'``), the level of the step's next state (one more); in
  ``ASSUME``, the initial predicate and ``POSTCONDITION``: 0;
* ``TLCGet("stats")``: ``diameter`` (the deepest level reached), ``distinct``,
  ``generated``, ``queue``, ``traces`` (0) and ``duration`` (seconds);
* ``TLCGet("config")``: ``mode`` ``"bfs"``, ``depth`` -1, ``deadlock``, ``worker`` 1.

Accepted when no invariant fails, no state deadlocks (if checked) and every
``POSTCONDITION`` holds.  What TLC does not say is reported too: log lines read vs
entries checked, a log the community operators cut (``CausalOrder`` dropping lines),
and on rejection the failing entry, the candidate states alive there and, for each,
the step that came nearest with its blamed conjunct.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate import Blame, Context, EvalError, community, silent_prints
from tlaconf.evaluate.blame import show
from tlaconf.evaluate.logfields import FieldReads
from tlaconf.explore import Engine, Hooks, Model, StateId, load_model
from tlaconf.spec import read_cfg
from tlaconf.validate.diagnosis import dead_ends, explain_error
from tlaconf.validate.nearest import path
from tlaconf.validate.outcome import Candidate, Outcome
from tlaconf.validate.position import Position
from tlaconf.values import make_fn

State = dict[str, Any]
Progress = Callable[[int, int, int, int], None]
"""Called after each level with (level, candidates at it, distinct states so far, log
lines the community operators read)."""

class TraceSpec:
    """A trace spec loaded under its ``.cfg``, with TLC's registers."""

    def __init__(self, tla: Path, cfg: Path | None, library: Sequence[Path]) -> None:
        given = cfg if cfg is not None else tla.with_suffix(".cfg")
        deadlock = read_cfg(given).check_deadlock is not False if given.is_file() else True
        config = {"mode": "bfs", "depth": -1, "deadlock": deadlock, "worker": 1, "traces": 0,
                  "seed": 0, "fingerprint": 0}
        registers = {"level": 0, "stats": _stats(0, 0, 0, 0, 0.0), "config": make_fn(config)}
        # ASSUMEs (checked as the model loads) and Init see level 0, as in TLC
        self.model: Model = load_model(tla, cfg, library, postconditions=True,
                                       registers=registers)
        self.ctx: Context = self.model.ctx
        self.cfg_path = self.model.cfg.path or tla.with_suffix(".cfg")
        self.post = [(name, self.model.cfg.lines.get(name, 1))
                     for name in self.model.postconditions]
        self.registers = self.ctx.registers

    def level(self, n: int) -> None:
        self.registers["level"] = n


def _stats(diameter: int, distinct: int, generated: int, queue: int, duration: float) -> Any:
    return make_fn({"diameter": diameter, "distinct": distinct, "generated": generated,
                    "queue": queue, "traces": 0, "duration": int(duration)})


DEFAULT_MAX_STATES = 1_000_000
"""Distinct states a search may hold before it stops undecided (``--max-states``)."""


@dataclass(frozen=True)
class Bounds:
    """Where a search stops undecided: more than ``states`` distinct states, or more than
    ``seconds`` of search (``None``: no bound).  A trace spec's search is as long as its
    log; one whose ``.cfg`` lost the ``ACTION_CONSTRAINT`` tying each step to the log
    searches the whole (often infinite) state space instead."""

    states: int | None = DEFAULT_MAX_STATES
    seconds: float | None = None


def validate_trace_spec(
    tla: Path,
    cfg: Path | None = None,
    library: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    on_level: Progress | None = None,
    bounds: Bounds = Bounds(),
) -> Outcome:
    """Run the trace spec ``tla`` under ``cfg``; ``env`` reaches ``IOEnv``; a search that
    exceeds ``bounds`` is undecided."""
    reads = FieldReads()
    with community.io_session(env, reads) as io:
        try:
            out = _run(TraceSpec(tla, cfg, library), tla, on_level, io, bounds)
        except Exception:  # an error that an empty log caused (Log[1]) is said as such
            _refuse_empty_logs(io)
            raise
        _refuse_empty_logs(io)
    if out.result == "accepted":
        _never_read(reads, out)
    return out


def _refuse_empty_logs(io: community.IOSession) -> None:
    """UserError naming the log when every log ``ndJsonDeserialize`` read holds no line:
    the search of an empty log checks nothing (a POSTCONDITION
    ``TLCGet("stats").diameter - 1 = Len(Log)`` accepts it), and an implementation that
    logged nothing,
    or a log path that names the wrong file, is not a behaviour to pass.  (One empty log
    among others that are not, a node that logged nothing, is the spec's to judge.)"""
    if io.reads and not any(values for _, values in io.reads):
        files = sorted({file for file, _ in io.reads})
        also = f" (and {', '.join(files[1:])})" if len(files) > 1 else ""
        raise UserError(f"the log is empty{also} (no JSON line): an empty log checks "
                        "nothing against the spec, so it is refused rather than accepted",
                        f"{files[0]}:1")


_EXAMPLES = 5
"""Log lines a warning about a field never read names."""


def _never_read(reads: FieldReads, out: Outcome) -> None:
    """Warn about every logged field the spec never read on some line: any value there
    is accepted (the "value changed on a send" hole)."""
    total = len(reads.leaves) - len(reads.cut)
    for field, lines in sorted(reads.unread().items(), key=lambda kv: (-len(kv[1]), kv[0])):
        name = ".".join(field)
        out.unconstrained[name] = [f"{f}:{n}" for f, n in lines]
        files: dict[str, list[int]] = {}
        for f, n in lines:
            files.setdefault(f, []).append(n)
        shown = "; ".join(
            f"{f}: line{'s' if len(ns) > 1 else ''} " + ", ".join(map(str, ns[:_EXAMPLES]))
            + (", ..." if len(ns) > _EXAMPLES else "") for f, ns in files.items())
        out.warnings.append(f"logged field {name} is never read by the trace spec on "
                            f"{len(lines)} of {total} log lines ({shown}): any value there "
                            "is accepted")


class _Registers(Hooks):
    """TLC's registers kept as the engine searches: ``TLCGet("level")`` at every
    evaluation, ``TLCGet("stats")`` at the start of every level; the candidates alive
    at each level; the caller's progress after each level."""

    def __init__(self, spec: TraceSpec, out: Outcome, on_level: Progress | None,
                 io: community.IOSession) -> None:
        self.spec, self.out, self.on_level, self.io = spec, out, on_level, io
        self.engine: Engine | None = None
        self.start = time.perf_counter()
        self._before = 0

    def evaluating(self, level: int) -> None:
        self.spec.registers["level"] = level

    def level_begins(self, level: int, size: int) -> None:
        assert self.engine is not None
        res = self.engine.result
        self.spec.registers["stats"] = _stats(level, res.distinct_states, res.total_states,
                                              size, time.perf_counter() - self.start)
        self.out.alive.append(size)
        self._before = res.distinct_states

    def halts(self) -> bool:
        return self.spec.registers.get("exit") is True

    def expanding(self, sid: StateId, state: State, queued: int) -> None:
        """``TLCGet("queue")`` as TLC's single worker sees it expanding ``state``."""
        assert self.engine is not None
        res = self.engine.result
        self.spec.registers["queue"] = queued
        self.spec.registers["stats"] = _stats(self.engine.level, res.distinct_states,
                                              res.total_states, queued,
                                              time.perf_counter() - self.start)

    def level_done(self, level: int) -> None:
        if self.on_level is not None:
            assert self.engine is not None
            found = self.engine.result.distinct_states
            self.on_level(level, found - self._before, found,
                          sum(n for _, n in self.io.reads))


def _run(spec: TraceSpec, tla: Path, on_level: Progress | None,
         io: community.IOSession, bounds: Bounds) -> Outcome:
    model = spec.model
    out = Outcome(spec.ctx.name)
    registers = _Registers(spec, out, on_level, io)
    start = registers.start
    engine = registers.engine = Engine(model, (registers,), max_states=bounds.states,
                                       max_seconds=bounds.seconds)
    spec.registers["exit"] = False  # TLCSet("exit", TRUE) sets it
    try:
        res = engine.bfs()
    except EvalError as err:  # said with the log entry, the branch and its bindings
        with silent_prints():
            raise explain_error(model, err, [engine.state(sid) for sid in engine.frontier],
                                spec.level, engine.level,
                                lambda values: _line_of(values, io, engine.level),
                                Position(model).entry) from None
    if registers.halts() and len(out.alive) < engine.level:
        out.alive.append(len(engine.frontier))  # the level the exit left unexpanded
    level = max(engine.level, 1)
    if not out.alive:
        out.alive.append(len(engine.frontier))
    v = res.violation
    if res.bound is not None:
        what = (f"{bounds.states} distinct states (--max-states)" if res.bound == "states"
                else f"{bounds.seconds:g} s (--max-seconds)")
        out.result = "undecided"
        out.reason = (f"the search went past {what} at level {res.bound_level} without "
                      "reaching a verdict: the log may or may not be a behaviour of the spec "
                      "(a .cfg without the ACTION_CONSTRAINT that ties each step to the log "
                      "makes the state space the whole spec's, often infinite)")
    elif v is not None and v.kind == "deadlock":
        out.result, out.reason = "rejected", f"deadlock at level {len(v.path)}"
        out.candidates = _dead_end(spec, engine, [v.path[-1].state], len(v.path), io)
    elif v is not None and v.kind == "property":
        out.result = "rejected"
        shape = " (a behaviour that loops forever)" if v.loop is not None else ""
        why = v.detail.splitlines()[0] if v.detail else ""
        out.reason = f"property {v.invariant} is violated{shape}: {why}"
        out.candidates = _dead_end(spec, engine, [engine.state(sid) for sid in engine.frontier],
                                   engine.level, io) or [Candidate(v.path[-1].state, None, None, 0)]
    elif v is not None:
        state, at = v.path[-1].state, len(v.path)
        spec.level(at)
        out.result = "rejected"
        out.reason = f"{v.kind} {v.invariant} is violated at level {at}"
        blame = None
        if v.kind == "invariant" and v.invariant:
            with silent_prints():  # TLC evaluates nothing more: it prints nothing more
                blame = model.explain_invariant(v.invariant, state)
        out.candidates = [Candidate(state, None, blame, 0)]
    out.depth = level
    out.distinct_states = res.distinct_states
    out.entries_checked = level - 1
    spec.registers["stats"] = _stats(level, res.distinct_states, res.total_states, 0,
                                      time.perf_counter() - start)
    if out.result == "accepted":
        _postcondition(spec, out, engine, io)
    out.reads = list(io.reads)
    out.warnings += io.notices
    if not spec.post and model.properties is None:
        out.warnings.append("the .cfg has no POSTCONDITION: nothing checks that the search "
                            "reached the end of the log (TLC accepts any log then)")
    if out.result == "rejected" and out.failing_entry is None:
        out.failing_entry = level
    if out.result == "rejected" and out.candidates:
        _at_position(Position(model), out, io)
    out.log_line = out.log_line or _locate(out, io)
    out.seconds = time.perf_counter() - start
    return out


def _postcondition(spec: TraceSpec, out: Outcome, engine: Engine,
                   io: community.IOSession) -> None:
    for name, line in spec.post:
        spec.level(0)
        try:
            value = spec.ctx.value(name)
        except EvalError as err:
            raise UserError(f"POSTCONDITION {name} cannot be evaluated: {err}",
                            f"{spec.cfg_path}:{line}") from None
        if value is not True and value is not False:
            raise UserError(f"POSTCONDITION {name} is not a boolean", f"{spec.cfg_path}:{line}")
        if value is False:
            out.result = "rejected"
            out.postcondition = name
            out.reason = (f"POSTCONDITION {name} is FALSE: the search stopped at depth "
                          f"{out.depth}, after {out.entries_checked} log entries")
            out.failing_entry = out.depth
            out.candidates = _dead_end(spec, engine, [engine.state(sid) for sid in
                                                      engine.frontier], out.depth, io)
            return
    out.postcondition = ", ".join(n for n, _ in spec.post) or None


def _dead_end(spec: TraceSpec, engine: Engine, states: list[State], level: int,
              io: community.IOSession) -> list[Candidate]:
    """The diagnosis of the candidates at the level where the search dead-ended (none
    when none of them is a dead end: the search stopped for another reason)."""
    with silent_prints():  # the diagnosis evaluates steps TLC evaluated already
        found = dead_ends(spec.model, engine, states, spec.level, level,
                          lambda values: _line_of(values, io, level))
    return [c for c in found if c.branches or c.revisited or c.progress >= 0]


def _at_position(position: Position, out: Outcome, io: community.IOSession) -> None:
    """In the style that keeps the log position in a variable, the log entry the
    nearest candidate is at (not the search level: a step may keep the position) and
    the line of each candidate's entry."""
    for i, c in enumerate(out.candidates):
        k = position.entry(c.state)
        line = None if k is None else _line_of([show(position.record(k))], io, k)
        out.candidates[i] = replace(c, log_line=line or c.log_line)
        if i == 0 and k is not None:
            out.failing_entry, out.log_line = k, line or out.log_line


def _locate(out: Outcome, io: community.IOSession) -> str | None:
    """``file:line`` of the log line whose value a shown blame names, if one does."""
    if not out.candidates:
        return None
    if out.candidates[0].log_line is not None:
        return out.candidates[0].log_line
    if out.candidates[0].blame is None:
        return None
    return _line_of((v for b in path(out.candidates[0].blame) for _, v in b.bindings), io,
                    out.failing_entry)


def _line_of(values: Iterable[str], io: community.IOSession, entry: int | None
             ) -> str | None:
    """``file:line`` of the log line that ``values`` (TLA+ texts) hold: of several lines
    holding the same value (``{"event": "acquireLock"}`` logged again and again), the one
    nearest the log entry checked."""
    where: dict[str, list[tuple[str, int]]] = {}
    for file, lines in io.lines.items():
        for number, value in lines:
            where.setdefault(show(value), []).append((file, number))
    for v in values:
        if v in where:
            file, number = min(where[v], key=lambda at: abs(at[1] - (entry or 0)))
            return f"{file}:{number}"
    return None


__all__ = ["DEFAULT_MAX_STATES", "Blame", "Bounds", "Outcome", "TraceSpec", "validate_trace_spec"]
