"""One ZoneMembership walk (12 zones, 60 ids, every step an accepted move) replayed by
tlaconf, by TLC and by a hand-written Python check: steps/s of each and their ratios,
from one run.

Each is timed on a 2,000-step and an 8,000-step trace of the same walk
(``TLACONF_BENCH_VERSUS=SHORT,LONG`` for others), and its rate is the 6,000 steps
between them over the difference in time, so that start-up (a JVM, loading a module) is
not counted; by the wall clock and by CPU time (of this process and of the checker it
starts: a loaded machine's wall clock is partly other processes'):

* tlaconf: ``replay`` with the embedded evaluator (reading and decoding every line,
  ``Move(p)`` from s to s', the invariant ``Partition`` in s');
* TLC (when ``TLC_JAR`` names tla2tools.jar): ``replay --backend tlc`` with the whole
  trace in one TLC run (``TLACONF_TLC_CHUNK`` above its length), TLC deciding every step;
* TLC, checks only (with ``TLC_JAR``): TLC evaluating, in one run, an ``ASSUME`` that
  every step's ``AtomicZoneMove4`` and the partition of s' hold, over the trace's states
  written as TLA+ constants (the measurement of the issue that asked for this bench:
  TLC's per-check rate in one JVM, its parsing of the states included);
* hand-written: each line read with ``json`` and checked by a Python function of the
  move and the partition (``bench.evaluator.hand_move``, then the partition of s').
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.evaluator import hand_move, hand_partition
from bench.replay import SPEC, write_zone_trace
from tlaconf.values import Fn

SHORT, LONG = (int(n) for n in os.environ.get("TLACONF_BENCH_VERSUS", "2000,8000").split(","))
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
Ids == {ids}
States == <<{states}>>
Params == <<{params}>>
ASSUME \\A k \\in 1..Len(Params) :
    /\\ AtomicZoneMove4(Ids, States[k], States[k + 1], Params[k].id, Params[k].source,
                        Params[k].destination, Params[k].movementAuthorized,
                        Params[k].revealRequired, Params[k].revealedBeforeMove)
    /\\ ZonePartition4(Ids, States[k + 1])
Init == inGameIds = Ids /\\ occupants = States[1]
Stay == UNCHANGED <<inGameIds, occupants>>
====
"""


def tlc_checks(jar: str) -> Callable[[Path], object]:
    """A run of TLC deciding the ``ASSUME`` of :data:`CHECKS` for a trace."""
    from tlaconf.values import decode, to_tla

    def run(path: Path) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        states, params = [], []
        for line in lines:
            obj = json.loads(line)
            states.append(to_tla(decode(obj["state"]["occupants"])))
            if "params" in obj:
                params.append(to_tla(decode(obj["params"])))
        ids = to_tla(decode(json.loads(lines[0])["state"]["inGameIds"]))
        with tempfile.TemporaryDirectory(prefix="tlaconf-bench-tlc-") as tmp:
            work = Path(tmp)
            (work / "VersusChecks.tla").write_text(CHECKS.format(
                ids=ids, states=",\n".join(states), params=",\n".join(params)))
            (work / "VersusChecks.cfg").write_text(
                'CONSTANT Seats4 = {"SideA", "SideB"}\nINIT Init\nNEXT Stay\n')
            library = os.pathsep.join(str(SPEC / d) for d in ("conformance",
                                                               "reference-profile/rev2"))
            proc = subprocess.run(
                ["java", "-XX:+UseParallelGC", f"-DTLA-Library={library}", "-cp", jar,
                 "tlc2.TLC", "-workers", "1", "-config", "VersusChecks.cfg",
                 "VersusChecks.tla"], cwd=work, capture_output=True, text=True, timeout=3600)
        if "No error has been found" not in proc.stdout:
            raise AssertionError(f"TLC did not pass the checks:\n{proc.stdout[-2000:]}")

    return run


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _seconds(run: Callable[[Path], object], path: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this process and the checker it starts) of one run."""
    start, cpu = time.perf_counter(), _cpu()
    run(path)
    return time.perf_counter() - start, _cpu() - cpu


def _rates(run: Callable[[Path], object], short: Path, long: Path) -> tuple[float, float]:
    """Steps/s by the wall clock and by CPU time over the difference of the two runs."""
    (ws, cs), (wl, cl) = _seconds(run, short), _seconds(run, long)
    return (LONG - SHORT) / max(wl - ws, 1e-6), (LONG - SHORT) / max(cl - cs, 1e-6)


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

        rates = {"tlaconf": _rates(ours, short, long),
                 "hand-written": _rates(hand_replay, short, long)}
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
            rates["TLC, checks only"] = _rates(tlc_checks(os.environ["TLC_JAR"]), short, long)
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
