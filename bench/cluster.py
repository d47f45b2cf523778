"""200 generated ``ZoneMembership`` traces replayed on 2 Dask workers (``--cluster``, a
``LocalCluster`` of two single-threaded worker processes on loopback) vs ``-j 2`` vs ``-j 1``.

The cluster is timed twice: the first run loads the module on each worker, the second
finds it loaded (a long-lived cluster's case).  Starting the cluster is not counted.
``TLACONF_BENCH_CLUSTER_TRACES`` / ``TLACONF_BENCH_CLUSTER_STEPS`` change the corpus
(default 200 traces of 200 steps).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from bench.replay import SPEC, write_zone_trace

TRACES = int(os.environ.get("TLACONF_BENCH_CLUSTER_TRACES", "200"))
STEPS = int(os.environ.get("TLACONF_BENCH_CLUSTER_STEPS", "200"))


def main() -> None:
    try:
        from distributed import LocalCluster
    except ImportError:
        print("cluster bench: skipped (Dask is not installed: pip install -e '.[dev]')")
        return
    from tlaconf.replay import run_traces

    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
          f"{TRACES} traces of {STEPS} steps")
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        paths = [write_zone_trace(Path(tmp) / f"z{i}.trace.jsonl", STEPS, 500 + i)
                 for i in range(TRACES)]
        timings: dict[str, float] = {}
        verdicts: dict[str, list[object]] = {}

        def timed(name: str, **how: object) -> None:
            start = time.perf_counter()
            results = run_traces(paths, SPEC, "embedded", **how)  # type: ignore[arg-type]
            timings[name] = time.perf_counter() - start
            verdicts[name] = [r.to_json() for r in results]
            bad = sum(r.verdict != "conforms" for r in results)
            note = f" ({bad} did not conform!)" if bad else ""
            total = sum(r.steps for r in results)
            print(f"{name:<26} {timings[name]:6.1f}s  {total / timings[name]:8,.0f} steps/s{note}")

        timed("-j 1", jobs=1)
        timed("-j 2", jobs=2)
        start = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          protocol="tcp", host="127.0.0.1", dashboard_address=":0") as cluster:
            print(f"(LocalCluster of 2 worker processes started in "
                  f"{time.perf_counter() - start:.1f}s, not counted)")
            timed("--cluster, 2 workers", cluster=cluster.scheduler_address)
            timed("--cluster, 2 workers again", cluster=cluster.scheduler_address)
        same = all(v == verdicts["-j 1"] for v in verdicts.values())
        print(f"--cluster / -j 2 time: {timings['--cluster, 2 workers'] / timings['-j 2']:.2f} "
              f"(warm {timings['--cluster, 2 workers again'] / timings['-j 2']:.2f}); "
              f"-j 2 / -j 1: {timings['-j 2'] / timings['-j 1']:.2f}; "
              f"results identical: {'yes' if same else 'NO'}")
