"""Replay throughput and memory on generated ``ZoneMembership`` traces (embedded backend).

* steps/s replaying one long trace in this process;
* steps/s replaying 20 traces with ``-j 2`` (and with ``-j 1`` for comparison);
* peak RSS of a separate process replaying a 1,000,000-step trace (target < 300 MB).

``TLACONF_BENCH_STEPS`` overrides the length of the long trace (default 1,000,000);
``TLACONF_BENCH_REJECT_EVERY=N`` makes every N-th step an unauthorized, rejected move
(default 0: every step accepted, so ENABLED is not measured).
Traces are written with :class:`tlaconf.trace.writer.TraceWriter` into a temporary folder.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tlaconf.trace.writer import TraceWriter

PROJECT = Path(__file__).resolve().parents[1]
SPEC = PROJECT / "spec"
SEATS = ("SideA", "SideB")
KINDS = ("Deck", "Hand", "Discard", "Objective")
ZONES = (*(f"{s}.{k}" for s in SEATS for k in KINDS), "Play", "Bank", "SetAside", "Removed")
OBJECTS = 24
RSS_TARGET_MB = 300


REJECT_EVERY = int(os.environ.get("TLACONF_BENCH_REJECT_EVERY", "0"))


def write_zone_trace(path: Path, steps: int, seed: int, objects: int = OBJECTS) -> Path:
    """A conforming ZoneMembership trace: moves of random objects (see ``REJECT_EVERY``)."""
    rng = random.Random(seed)
    where = {i: rng.choice(ZONES) for i in range(1, objects + 1)}

    def state() -> dict[str, Any]:
        occupants = {z: {i for i, z2 in where.items() if z2 == z} for z in ZONES}
        return {"inGameIds": set(where), "occupants": occupants}

    with TraceWriter(path, "ZoneMembership", "2", {"Seats4": set(SEATS)}, {"bench": seed}) as w:
        w.init(state())
        current = state()
        for k in range(steps):
            obj = rng.randint(1, objects)
            source = where[obj]
            destination = rng.choice([z for z in ZONES if z != source])
            authorized = REJECT_EVERY == 0 or k % REJECT_EVERY != REJECT_EVERY - 1
            params = {
                "id": obj, "source": source, "destination": destination,
                "movementAuthorized": authorized, "revealRequired": rng.random() < 0.3,
                "revealedBeforeMove": True,
            }  # fmt: skip
            if authorized:
                where[obj] = destination
                current = state()
            w.step("Move", params, "accepted" if authorized else "rejected", current)
    return path


def peak_rss_kb() -> int:
    """This process's own peak resident set size in KiB.

    ``VmHWM`` (Linux) belongs to the process's own address space.  ``ru_maxrss`` does
    not: a child started by ``subprocess`` (vfork, then exec) inherits its parent's
    high-water mark, so in ``make bench``, whose earlier modules (``bench.budgets``)
    grow the parent past 1 GB, it reports the parent's peak, not the replay's.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _rate(steps: int, seconds: float) -> str:
    return f"{steps:,} steps in {seconds:.1f}s = {steps / seconds:,.0f} steps/s"


def main() -> None:
    from tlaconf.errors import UserError
    from tlaconf.replay import get_backend, replay_trace, run_traces

    if not (SPEC / "conformance" / "ZoneMembership.tla").is_file():
        print("replay bench: skipped (spec/conformance/ZoneMembership.tla is not there)")
        return
    try:
        backend = get_backend("embedded")
    except UserError as err:
        print(f"replay bench: skipped ({err})")
        return
    long_steps = int(os.environ.get("TLACONF_BENCH_STEPS", "1000000"))
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} CPUs, load average {load:.1f} (a busy machine slows -j runs down)")
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        folder = Path(tmp)
        one = write_zone_trace(folder / "one.trace.jsonl", 20_000, 1)
        start = time.perf_counter()
        result = replay_trace(one, SPEC, backend)
        if result.verdict != "conforms":
            print(f"replay bench: the generated trace gives {result.verdict}: {result.failure}")
            return
        print(f"embedded, 1 trace:           {_rate(result.steps, time.perf_counter() - start)}")

        many = [write_zone_trace(folder / f"m{i}.trace.jsonl", 2_000, 100 + i) for i in range(20)]
        for jobs in (1, 2):
            start = time.perf_counter()
            results = run_traces(many, SPEC, "embedded", jobs)
            bad = [r for r in results if r.verdict != "conforms"]
            if bad:
                print(f"replay bench: {len(bad)} traces did not conform: {bad[0].failure}")
                return
            total = sum(r.steps for r in results)
            print(f"embedded, 20 traces, -j {jobs}:  {_rate(total, time.perf_counter() - start)}")

        t0 = time.perf_counter()
        big = write_zone_trace(folder / "big.trace.jsonl", long_steps, 7)
        size = big.stat().st_size / 2**20
        took = time.perf_counter() - t0
        print(f"wrote {long_steps:,}-step trace ({size:,.0f} MB) in {took:.0f}s")
        code = (
            "import sys; from pathlib import Path; from tlaconf.replay import "
            "get_backend, replay_trace; from bench.replay import peak_rss_kb; "
            "r = replay_trace(Path(sys.argv[1]), Path(sys.argv[2]), get_backend('embedded')); "
            "print(r.verdict, r.steps, peak_rss_kb())"
        )
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", code, str(big), str(SPEC)], capture_output=True, text=True,
            cwd=PROJECT,
        )
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            print(f"replay bench: the replay process failed: {proc.stderr.strip()[-500:]}")
            return
        verdict, steps, max_rss_kb = proc.stdout.split()
        print(f"embedded, {long_steps:,}-step trace: {verdict}; {_rate(int(steps), seconds)}")
        peak_mb = int(max_rss_kb) / 1024
        status = "OK" if peak_mb < RSS_TARGET_MB else "OVER TARGET"
        print(f"peak RSS of that process: {peak_mb:,.0f} MB (target < {RSS_TARGET_MB} MB) {status}")
