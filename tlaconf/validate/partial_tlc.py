"""A partial trace decided by TLC: exported as a TLC trace spec
(:mod:`tlaconf.replay.tlc.partial_spec`) and searched by TLC, for ``tlaconf export``,
``replay --backend tlc``, ``replay --cross-check tlc`` and ``validate --cross-check
tlc``."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.files import check_output, writing
from tlaconf.replay.result import Failure, TraceResult
from tlaconf.replay.tlc.partial_spec import (
    PartialAnswer,
    PartialFacts,
    decide_partial,
    write_partial_cfg,
    write_partial_module,
)
from tlaconf.replay.tlc.process import find_tlc
from tlaconf.trace.export import check_names, tlc_command
from tlaconf.trace.partial import read_partial
from tlaconf.validate.partial import PartialReplay


def export_partial(trace: Path, out: Path, spec_dir: Path | None,
                   revision: str | None = None) -> tuple[Path, int]:
    """Write the partial trace ``trace`` as the TLC trace spec ``out`` and its ``.cfg``
    (both, or neither); the ``.cfg`` and the number of steps."""
    t = read_partial(trace)
    try:
        r = PartialReplay(t.header, t.path, spec_dir, revision)
    except UserError as err:  # as replay says it: the header (line 1) names the module
        raise UserError(f"cannot load module {t.header.module!r}: {err}", f"{trace}:1") from None
    r.check_names(t.initial, 2)
    for s in t.steps:
        r.check_names(s.state, s.line)
        if s.action is not None and not r.defined(s.action, 1):
            raise UserError(f"unknown action {s.action!r} (module {r.ctx.name} has no "
                            f"action {s.action}(p))", f"{trace}:{s.line}")
        if s.action is None and not r.defined("Next", 0):
            raise UserError(f"the step has no action label, so it is checked against Next, "
                            f"but module {r.ctx.name} defines no Next", f"{trace}:{s.line}")
    if not t.steps:
        raise UserError("the trace has no steps: TLC would pass the exported module having "
                        "checked nothing but the initial state", f"{trace}:1")
    name = check_names(out, r.ms)
    cfg = out.with_suffix(".cfg")
    check_output(out, "-o")
    check_output(cfg, "-o (its .cfg)")
    facts = PartialFacts(r.variables, frozenset(r.ctx.constants), r.silent, r.bound, r.observe)
    command = " ".join(tlc_command(name, r.ms))
    comment = (f"(* Exported by tlaconf from the partial trace {trace.name}: conformance "
               f"module {r.ms.name}.\n   Check it with TLC: {command}\n"
               "   Invariant TraceUnmatched violated: the log conforms (TLC prints a "
               "behaviour matching it).\n   No error: no behaviour matches the whole log. "
               "*)\n")
    try:
        with writing(out, "module") as f, writing(cfg, "config") as g:
            write_partial_module(f, name, r.ms, facts, t.initial, t.steps, comment)
            write_partial_cfg(g, name, r.ms, facts)
    except OSError as err:
        raise UserError(f"cannot write {out}: {err.strerror}") from None
    return cfg, len(t.steps)


def tlc_partial(trace: Path, spec_dir: Path | None, revision: str | None = None,
                timeout: float | None = None) -> PartialAnswer:
    """TLC's verdict on the partial trace ``trace`` (CheckerFailed when TLC does not
    decide; UserError for bad input or no TLC)."""
    tlc = find_tlc(timeout)
    t = read_partial(trace)
    with tempfile.TemporaryDirectory(prefix="tlaconf-tlc-") as tmp:
        module = Path(tmp) / "TlaconfPartial.tla"
        export_partial(trace, module, spec_dir, revision)
        r = PartialReplay(t.header, t.path, spec_dir, revision)
        try:
            return decide_partial(tlc, Path(tmp), module.stem, r.ms.search_path,
                                  len(t.steps), bool(r.silent) and r.bound > 0)
        except UserError as err:  # an error TLC met in the exported spec: it did not decide
            raise CheckerFailed(str(err).splitlines()[0]) from None


def _says(a: PartialAnswer) -> str:
    if a.verdict == "conforms":
        return "conforms"
    return "violation" + ("" if a.matched is None else f" at step {a.matched + 1}")


def tlc_result(trace: Path, spec_dir: Path | None, revision: str | None = None,
               timeout: float | None = None) -> TraceResult:
    """``replay --backend tlc`` of a partial trace: TLC's verdict as a trace result (an
    undecided ``error`` when TLC does not decide)."""
    start = time.perf_counter()
    t = read_partial(trace)
    try:
        a = tlc_partial(trace, spec_dir, revision, timeout)
    except CheckerFailed as err:
        return TraceResult(str(trace), t.header.module, "error", 0,
                           Failure(0, 1, f"tlc: {err}"), time.perf_counter() - start,
                           undecided=True)
    seconds = time.perf_counter() - start
    if a.verdict == "conforms":
        return TraceResult(str(trace), t.header.module, "conforms", len(t.steps), None, seconds)
    step = len(t.steps) if a.matched is None else a.matched + 1
    where = ("" if a.matched is None else f" after its {a.matched} first step(s)")
    reason = (f"tlc: no behaviour of the spec matches the log{where} (TLC's search of the "
              "exported trace spec reaches no state matching it)")
    return TraceResult(str(trace), t.header.module, "violation", step,
                       Failure(step, t.steps[step - 1].line, reason), seconds)


def cross_checked(ours: TraceResult, trace: Path, spec_dir: Path | None,
                  revision: str | None = None, timeout: float | None = None) -> TraceResult:
    """``replay --cross-check tlc`` of a partial trace: ``ours`` when TLC agrees, else an
    undecided ``error`` saying how the two differ."""
    if ours.verdict not in ("conforms", "violation"):
        return ours
    try:
        a = tlc_partial(trace, spec_dir, revision, timeout)
    except CheckerFailed as err:
        return _undecided(ours, f"tlc did not decide: {err}")
    mine = "conforms" if ours.verdict == "conforms" else \
        f"violation at step {ours.failure.step if ours.failure else 0}"
    theirs = _says(a)
    same = theirs == mine or (a.matched is None and theirs.split()[0] == mine.split()[0])
    if same:
        return ours
    return _undecided(ours, f"the checkers disagree: embedded says {mine}, tlc says {theirs}")


def _undecided(ours: TraceResult, why: str) -> TraceResult:
    at = ours.failure
    failure = Failure(at.step if at else 0, at.line if at else 2, why,
                      at.action if at else None, at.params if at else None,
                      at.blame if at else None)
    return TraceResult(ours.path, ours.module, "error", ours.steps, failure, ours.seconds,
                       ours.invariants, undecided=True, states=ours.states)
