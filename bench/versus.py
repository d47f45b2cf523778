"""One ZoneMembership walk (12 zones, 60 ids, every step an accepted move) replayed by
tlaconf, by TLC and by a hand-written Python check: steps/s of each and their ratios,
from one run.

Each but the warm-JVM TLC figure is timed on a 2,000-step and an 8,000-step trace of
the same walk (``TLACONF_BENCH_VERSUS=SHORT,LONG`` for others), and its rate is the
6,000 steps between them over the difference in time (the median of 5 such pairs of runs
for tlaconf and the hand-written check), so that start-up (a JVM, loading a module) is
not counted; by the wall clock and by CPU time (of this process and of the checker it
starts: a loaded machine's wall clock is partly other processes'):

* tlaconf: ``replay`` with the embedded evaluator (reading and decoding every line,
  ``Move(p)`` from s to s', the invariant ``Partition`` in s');
* TLC (when ``TLC_JAR`` names tla2tools.jar): ``replay --backend tlc`` with the whole
  trace in one TLC run (``TLACONF_TLC_CHUNK`` above its length), TLC deciding every step;
* TLC, warm JVM (with ``TLC_JAR``): TLC evaluating the same checks (``Move(p)`` as
  ``AtomicZoneMove4`` and ``UNCHANGED inGameIds``, then the partition of s') on the
  2,000-step trace's states, written as TLA+ constants that TLC parses and builds once,
  ``TLACONF_BENCH_TLC_REPS`` (default 20) times over in one JVM after a first, warm-up
  repetition; repetition ``r`` starts at step ``r + 1``, so the index is part of every
  check and TLC cannot reuse a value from one repetition in the next.  Each repetition
  is timed when TLC prints its number (wall clock, and CPU time of the JVM's threads from
  ``/proc``, in clock ticks); the rate is the median repetition's.  TLC's parsing,
  start-up and JIT warm-up are not counted: this is its per-check rate.  TLC evaluates a
  zero-arity constant-level definition (``States``, ``Params``, ``ZoneInstances4``) once,
  at start-up (``SpecProcessor.processConstantDefns``), and an ``ASSUME`` once; an
  operator with arguments (``Check(k)``, ``AtomicZoneMove4``, ``ZonePartition4``) is
  evaluated at every application, never remembered, as the repetitions' steady times
  show;
* hand-written: each line read with ``json`` and checked by a Python function of the
  move and the partition (``bench.evaluator.hand_move``, then the partition of s').
"""

from __future__ import annotations

import itertools
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.evaluator import hand_move, hand_partition
from bench.replay import SPEC, write_zone_trace
from tlaconf.values import Fn

SHORT, LONG = (int(n) for n in os.environ.get("TLACONF_BENCH_VERSUS", "2000,8000").split(","))
REPS = int(os.environ.get("TLACONF_BENCH_TLC_REPS", "20"))
PAIRS = 5
"""tlaconf and the hand-written check are timed on 5 pairs of runs (the median counts), as
TLC in a warm JVM on 20 repetitions; ``replay --backend tlc`` (a minute a pair) on one."""
IDS = 60


def _state(obj: dict) -> tuple[frozenset[int], Fn]:  # type: ignore[type-arg]
    state = obj["state"]
    occupants = Fn({z: frozenset(s["#set"]) for z, s in state["occupants"].items()})
    return frozenset(state["inGameIds"]["#set"]), occupants


def hand_replay(path: Path) -> int:
    """Steps checked by hand (a failing step raises)."""
    with path.open(encoding="utf-8") as f:
        f.readline()
        ids, before = _state(json.loads(f.readline()))
        steps = 0
        for line in f:
            obj = json.loads(line)
            p = obj["params"]
            ids2, after = _state(obj)
            if not (ids2 == ids and hand_move(
                    ids, before, after, p["id"], p["source"], p["destination"],
                    p["movementAuthorized"], p["revealRequired"], p["revealedBeforeMove"])
                    and hand_partition(ids2, after)):
                raise AssertionError(f"step {steps + 1} does not conform")
            before = after
            steps += 1
    return steps


CHECKS = """---- MODULE VersusChecks ----
EXTENDS ZoneMembership, Naturals, Sequences, TLC
States == <<{states}>>
Params == <<{params}>>
N == Len(Params)
Check(k) ==
    /\\ AtomicZoneMove4(States[k].inGameIds, States[k].occupants, States[k + 1].occupants,
                        Params[k].id, Params[k].source, Params[k].destination,
                        Params[k].movementAuthorized, Params[k].revealRequired,
                        Params[k].revealedBeforeMove)
    /\\ States[k + 1].inGameIds = States[k].inGameIds
    /\\ ZonePartition4(States[k + 1].inGameIds, States[k + 1].occupants)
ASSUME \\A r \\in 0..{reps} :
    /\\ \\A i \\in 0..N - 1 : Check(1 + ((i + r) % N))
    /\\ PrintT(<<"tlaconf-rep", r>>)
Init == inGameIds = {{}} /\\ occupants = <<>>
Stay == UNCHANGED <<inGameIds, occupants>>
====
"""
"""TLC's checks: repetition ``r`` checks every step of the trace once, ``Move(p)`` from
s to s' (``AtomicZoneMove4`` and ``UNCHANGED inGameIds``) and ``Partition`` in s', starting
at step ``r + 1`` (the repetition index is part of every check, so no value is reused
from one repetition to the next), and prints its number when done."""


def _jvm_cpu(pid: int) -> float:
    """CPU seconds (user and system, every thread) of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tlc_warm(jar: str, path: Path, reps: int) -> tuple[float, float]:
    """TLC's checks per second (wall clock, CPU time of the JVM) in a warm JVM: the
    trace's states are parsed once (constants of :data:`CHECKS`), TLC evaluates the
    checks of every step ``reps + 1`` times in one run, and the median of repetitions
    1..reps is the rate (repetition 0 warms the JVM up; each is timed when TLC prints
    its number)."""
    from tlaconf.values import decode, to_tla

    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    states, params = [], []
    for line in lines:
        obj = json.loads(line)
        states.append(to_tla(decode(obj["state"])))
        if "params" in obj:
            params.append(to_tla(decode(obj["params"])))
    marks: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-tlc-") as tmp:
        work = Path(tmp)
        (work / "VersusChecks.tla").write_text(CHECKS.format(
            states=",\n".join(states), params=",\n".join(params), reps=reps))
        (work / "VersusChecks.cfg").write_text(
            'CONSTANT Seats4 = {"SideA", "SideB"}\nINIT Init\nNEXT Stay\n')
        library = os.pathsep.join(str(SPEC / d) for d in ("conformance",
                                                           "reference-profile/rev2"))
        with subprocess.Popen(
                ["java", "-XX:+UseParallelGC", f"-DTLA-Library={library}", "-cp", jar,
                 "tlc2.TLC", "-workers", "1", "-config", "VersusChecks.cfg",
                 "VersusChecks.tla"], cwd=work, stdout=subprocess.PIPE, text=True) as proc:
            assert proc.stdout is not None
            out = []
            for text in proc.stdout:
                if text.startswith('<<"tlaconf-rep"'):
                    marks.append((time.perf_counter(), _jvm_cpu(proc.pid)))
                out.append(text)
    if len(marks) != reps + 1 or "No error has been found" not in "".join(out[-20:]):
        raise AssertionError(f"TLC did not pass the checks:\n{''.join(out)[-2000:]}")
    n = len(params)
    wall = [n / max(b[0] - a[0], 1e-6) for a, b in itertools.pairwise(marks)]
    cpu = [n / max(b[1] - a[1], 1e-6) for a, b in itertools.pairwise(marks)]
    return statistics.median(wall), statistics.median(cpu)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _seconds(run: Callable[[Path], object], path: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this process and the checker it starts) of one run."""
    start, cpu = time.perf_counter(), _cpu()
    run(path)
    return time.perf_counter() - start, _cpu() - cpu


def _rates(run: Callable[[Path], object], short: Path, long: Path, repeat: int = 1
           ) -> tuple[float, float]:
    """Steps/s by the wall clock and by CPU time over the difference of the two runs (the
    median of ``repeat`` pairs of runs)."""
    wall, cpu = [], []
    for _ in range(repeat):
        (ws, cs), (wl, cl) = _seconds(run, short), _seconds(run, long)
        wall.append((LONG - SHORT) / max(wl - ws, 1e-6))
        cpu.append((LONG - SHORT) / max(cl - cs, 1e-6))
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    from tlaconf.errors import UserError
    from tlaconf.replay import get_backend
    from tlaconf.replay.backend import get_checker
    from tlaconf.replay.engine import Replayer

    os.environ.pop("TLACONF_BENCH_REJECT_EVERY", None)  # every step an accepted move
    with tempfile.TemporaryDirectory(prefix="tlaconf-bench-") as tmp:
        short = write_zone_trace(Path(tmp) / "short.trace.jsonl", SHORT, 11, IDS)
        long = write_zone_trace(Path(tmp) / "long.trace.jsonl", LONG, 11, IDS)
        embedded = get_backend("embedded")

        def ours(path: Path) -> None:
            result = Replayer(embedded).replay(path, SPEC)
            if result.verdict != "conforms":
                raise AssertionError(f"tlaconf: {result.verdict}: {result.failure}")

        rates = {"tlaconf": _rates(ours, short, long, PAIRS),
                 "hand-written": _rates(hand_replay, short, long, PAIRS)}
        try:
            os.environ["TLACONF_TLC_CHUNK"] = str(LONG + 1)
            checker = get_checker("tlc")
        except UserError as err:
            print(f"TLC: skipped ({str(err).split(';')[0]})")
        else:
            def theirs(path: Path) -> None:
                result = Replayer(embedded, checker).replay(path, SPEC)
                if result.verdict != "conforms":
                    raise AssertionError(f"TLC: {result.verdict}: {result.failure}")

            rates["TLC"] = _rates(theirs, short, long)
            rates["TLC, warm JVM"] = tlc_warm(os.environ["TLC_JAR"], short, REPS)
        finally:
            os.environ.pop("TLACONF_TLC_CHUNK", None)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for i, clock in enumerate(("wall clock", "CPU time")):
        print(f"ZoneMembership walk, 12 zones, {IDS} ids, steps/s over {LONG - SHORT:,} steps "
              f"({clock}): " + ", ".join(f"{k} {v[i]:,.0f}" for k, v in rates.items()))
        print(f"  ratios ({clock}): " + ", ".join(
            f"tlaconf/{k} {rates['tlaconf'][i] / v[i]:.2f}" for k, v in rates.items()
            if k != "tlaconf"))


if __name__ == "__main__":
    main()
