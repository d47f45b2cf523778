"""Start-up: ``tlaconf --version`` and ``tlaconf eval '1+1'``, wall-clock and CPU seconds
(median of 5 runs each, target < 0.3 s).

Python's bytecode cache is written on a first run and used by the next (into a temporary
folder, ``PYTHONPYCACHEPREFIX``: nothing is written into the checkout), as after ``pip
install``; the first run, which compiles every module, is shown too.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 0.3
RUNS = 5


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {proc.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    tlaconf = str(Path(sys.executable).with_name("tlaconf"))
    with tempfile.TemporaryDirectory(prefix="tlaconf-pyc-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        for argv in ([tlaconf, "--version"], [tlaconf, "eval", "1+1"]):
            first = _run(argv, env)
            runs = [_run(argv, env) for _ in range(RUNS)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            status = "OK" if cpu < TARGET else "OVER TARGET"
            print(f"start-up, tlaconf {' '.join(argv[1:])}: {wall:.3f} s wall, {cpu:.3f} s CPU "
                  f"(median of {RUNS}; target < {TARGET} s) {status}; first run, compiling: "
                  f"{first[0]:.2f} s wall, {first[1]:.2f} s CPU")


if __name__ == "__main__":
    main()
