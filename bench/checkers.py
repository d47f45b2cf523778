"""Steps/s of the embedded evaluator, TLC and Apalache deciding the same ``ZoneMembership`` trace.

The trace (``TLACONF_BENCH_CHECKER_STEPS`` steps, default 40, every 5th step a
rejected unauthorized move, so ENABLED is asked too) is replayed by the
embedded evaluator, then with ``--backend tlc`` when ``TLC_JAR`` is set, then
with ``--backend apalache`` when Apalache is found (``APALACHE_MC``, ``PATH``,
``APALACHE_HOME`` or ``APALACHE_SERVER``); a checker that is not installed is
reported as skipped.  Apalache decides the first ``TLACONF_BENCH_APALACHE_STEPS`` steps
of the same trace (default 20: all 40 took it more than its default limit of 300 s a
trace, some 9 s a step at a load average of 6) within
``TLACONF_BENCH_APALACHE_TIMEOUT`` seconds (default 300), timed twice on one server:
the first trace pays the server's start, the second only its session (loading the
modules, Snowcat, then one solver call per question); then the same trace's initial
state alone, on the same server: what a session costs before its first step (loading,
Snowcat, the initial state), so that the steps' own rate is the next trace's steps
over its time less that.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.replay import SPEC, write_zone_trace

STEPS = int(os.environ.get("TLACONF_BENCH_CHECKER_STEPS", "40"))
APALACHE_STEPS = int(os.environ.get("TLACONF_BENCH_APALACHE_STEPS", "20"))
if TYPE_CHECKING:
    from tlaconf.replay.backend import ExternalChecker

APALACHE_TIMEOUT = float(os.environ.get("TLACONF_BENCH_APALACHE_TIMEOUT", "300"))


def _timed(name: str, run: str, trace: Path, steps: int, checker: ExternalChecker) -> float | None:
    """Seconds ``checker`` takes to decide ``trace`` (printed), None when it does not."""
    from tlaconf.replay import get_backend, replay_trace

    start = time.perf_counter()
    result = replay_trace(trace, SPEC, get_backend("embedded"), checker=checker)
    took = time.perf_counter() - start
    if result.undecided or result.verdict == "error":  # no rate: not decided
        why = result.failure.reason if result.failure else ""
        print(f"{name} ({run}): not decided in {took:.1f}s: {why[:200]}")
        return None
    rate = f" = {steps / took:.2f} steps/s" if steps else ""
    print(f"{name} ({run}): {result.verdict}, {steps} steps in {took:.1f}s{rate}")
    return took


def main() -> None:
    from tlaconf.errors import UserError
    from tlaconf.replay import get_backend, replay_trace
    from tlaconf.replay.backend import get_checker

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TLACONF_BENCH_REJECT_EVERY"] = "5"
        path = write_zone_trace(Path(tmp) / "bench.trace.jsonl", STEPS, seed=7)
        short = (path if APALACHE_STEPS == STEPS else
                 write_zone_trace(Path(tmp) / "short.trace.jsonl", APALACHE_STEPS, seed=7))
        initial = write_zone_trace(Path(tmp) / "initial.trace.jsonl", 0, seed=7)
        embedded = get_backend("embedded")
        start = time.perf_counter()
        result = replay_trace(path, SPEC, embedded)
        took = time.perf_counter() - start
        print(f"load average {os.getloadavg()[0]:.1f} (the checkers' times grow with it)")
        print(f"embedded: {result.verdict}, {STEPS} steps in {took:.2f}s = "
              f"{STEPS / took:,.0f} steps/s")  # fmt: skip
        for name in ("tlc", "apalache"):
            steps = APALACHE_STEPS if name == "apalache" else STEPS
            trace = short if name == "apalache" else path
            try:
                checker = get_checker(name, APALACHE_TIMEOUT if name == "apalache" else None)
            except UserError as err:
                print(f"{name}: skipped ({str(err).split(';')[0]})")
                continue
            try:
                runs = ("first trace", "next trace") if name == "apalache" else ("trace",)
                times = {run: _timed(name, run, trace, steps, checker) for run in runs}
                following = times.get("next trace")
                if following is not None:
                    session = _timed(name, "initial state only", initial, 0, checker)
                    if session is not None and following > session:
                        rate = steps / (following - session)
                        print(f"{name}: a session's {session:.1f}s before its first step, "
                              f"then {rate:.2f} steps/s")  # fmt: skip
            finally:
                close = getattr(checker, "close", None)
                if close is not None:
                    close()
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
