"""Spec-driven testing throughput: steps checked per CPU second by ``tlaconf mbt``.

Each driver of the project (``[tool.tlaconf] drivers``) runs ``TLACONF_BENCH_MBT_EXAMPLES``
runs (default 20) of 30 requests, no database, seed 0 (the harness conforms, so nothing is
shrunk), in each mode of ``TLACONF_BENCH_MBT_MODES`` (default ``random directed``):
``random`` is Hypothesis drawing every request (the steps of the testing itself),
``directed`` (``tlaconf mbt``'s default) adds the survey of the reachable states first,
whose time is counted too.  Printed per driver and mode: steps checked, wall-clock
steps/s, steps per CPU second of this process (the machine may be shared; the module's
loading included), and the share of the time spent in the online check.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from tlaconf.hypothesis import Options, load_driver, run
from tlaconf.spec.project import find_project

PROJECT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("TLACONF_BENCH_MBT_EXAMPLES", "20"))
MODES = os.environ.get("TLACONF_BENCH_MBT_MODES", "random directed").split()


def main() -> None:
    project = find_project(PROJECT)
    names = list(project.drivers) if project is not None else []
    for mode in MODES:
        with tempfile.TemporaryDirectory(prefix="tlaconf-bench-mbt-") as tmp:
            options = Options(steps=30, examples=EXAMPLES, seed=0, out_dir=Path(tmp),
                              database=None, mode=mode)  # type: ignore[arg-type]
            total_steps, total_wall, total_cpu = 0, 0.0, 0.0
            for name in names:
                cpu = time.process_time()
                outcome = run(load_driver(name), PROJECT / "spec", options, name=name)
                cpu = time.process_time() - cpu
                total_steps += outcome.steps
                total_wall += outcome.seconds
                total_cpu += cpu
                verdict = "no failure" if outcome.found is None else "FAILURE"
                print(f"mbt {mode:8} {outcome.module:16} {outcome.steps:6,} steps  "
                      f"{outcome.steps_per_second:7.1f} steps/s  {outcome.steps / cpu:7.1f} "
                      f"steps/CPU-s  check {100 * outcome.check_seconds / outcome.seconds:4.1f}%"
                      f" of the time  ({outcome.allowed} allowed, {outcome.forbidden} "
                      f"forbidden; {verdict})", flush=True)
            print(f"mbt {mode:8} all drivers      {total_steps:6,} steps  "
                  f"{total_steps / total_wall:7.1f} steps/s  {total_steps / total_cpu:7.1f} "
                  "steps/CPU-s", flush=True)
