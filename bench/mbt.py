"""Spec-driven testing throughput: steps checked per second by ``tlaconf mbt``.

Each driver of the project (``[tool.tlaconf] drivers``) runs ``TLACONF_BENCH_MBT_EXAMPLES``
runs (default 20) of 30 requests, no database, seed 0 (the harness conforms, so nothing is
shrunk).  Printed per driver: steps checked, wall-clock steps/s, steps per CPU second of
this process (the machine may be shared), and the share of the time spent in the online
check (replay of the step).
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


def main() -> None:
    project = find_project(PROJECT)
    names = list(project.drivers) if project is not None else []
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-mbt-") as tmp:
        options = Options(steps=30, examples=EXAMPLES, seed=0, out_dir=Path(tmp), database=None)
        total_steps, total_wall, total_cpu = 0, 0.0, 0.0
        for name in names:
            cpu = time.process_time()
            outcome = run(load_driver(name), PROJECT / "spec", options, name=name)
            cpu = time.process_time() - cpu
            total_steps += outcome.steps
            total_wall += outcome.seconds
            total_cpu += cpu
            verdict = "no failure" if outcome.found is None else "FAILURE"
            print(f"mbt {outcome.module:16} {outcome.steps:6,} steps  "
                  f"{outcome.steps_per_second:7.1f} steps/s  {outcome.steps / cpu:7.1f} "
                  f"steps/CPU-s  check {100 * outcome.check_seconds / outcome.seconds:4.1f}% "
                  f"of the time  ({outcome.allowed} allowed, {outcome.forbidden} forbidden; "
                  f"{verdict})", flush=True)
        print(f"mbt all drivers     {total_steps:6,} steps  {total_steps / total_wall:7.1f} "
              f"steps/s  {total_steps / total_cpu:7.1f} steps/CPU-s")
