"""``tlaconf explore -w 2`` beside ``-w 1`` on ``bench/data/explore/Counters.tla``
(103,823 states): wall time, CPU time of the coordinator and of the workers, and the
speed-up.  On a loaded machine the wall-time ratio understates it; the CPU times say what
two free cores would give (each worker's share, plus the coordinator's)."""

from __future__ import annotations

import resource
import time
from pathlib import Path

DATA = Path(__file__).parent / "data" / "explore"


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main() -> None:
    from tlaconf.explore import bfs, load_model, parallel_bfs

    model = load_model(DATA / "Counters.tla", DATA / "Counters.cfg")
    runs = {}
    for workers in (1, 2):
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        res = bfs(model) if workers == 1 else parallel_bfs(model, workers)
        runs[workers] = (time.perf_counter() - wall, time.process_time() - cpu,
                         _children_cpu() - children)
        w, c, k = runs[workers]
        print(f"-w {workers}: {res.distinct_states:,} distinct, {res.total_states:,} total; "
              f"wall {w:.1f} s, coordinator CPU {c:.2f} s, workers CPU {k:.2f} s")
    (w1, c1, _), (w2, c2, k2) = runs[1], runs[2]
    print(f"speed-up: wall {w1 / w2:.2f}x; on two free cores (CPU) "
          f"{c1 / (c2 + k2 / 2):.2f}x")
