"""Evaluator speed: ``AtomicZoneMove4`` (with both ``ZonePartition4``) on the 12-zone,
60-id reference-profile state, compiled evaluator vs a hand-written Python function.

Prints checks/second of both (same run, same random valid and invalid moves), their
ratio, the rate of TLC-style ``ENABLED Move(p)`` in a ZoneMembership-shaped module, and
the resident memory sampled while evaluating ``TLACONF_BENCH_CHECKS`` (default
1,000,000) checks.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tlaconf.evaluate import load_module
from tlaconf.values import Fn

SEATS = frozenset({"SideA", "SideB"})
KINDS = ("Deck", "Hand", "Discard", "Objective")
ZONES = frozenset({f"{s}.{k}" for s in SEATS for k in KINDS} | {"Play", "Bank", "SetAside",
                                                                 "Removed"})
MODULE = Path(__file__).parent / "data" / "ZoneMoveBench.tla"


def hand_partition(ids: frozenset[int], occ: Fn) -> bool:
    """ZonePartition4, written by hand."""
    if frozenset(occ) != ZONES:
        return False
    union: set[int] = set()
    for z in ZONES:
        union |= occ[z]
    if union != ids:
        return False
    for a in ZONES:
        for b in ZONES:
            if a != b and occ[a] & occ[b]:
                return False
    return True


def hand_move(ids: frozenset[int], before: Fn, after: Fn, oid: int, source: str,
              destination: str, authorized: bool, reveal_required: bool,
              revealed: bool) -> bool:
    """AtomicZoneMove4, written by hand."""
    if source not in ZONES or destination not in ZONES or source == destination:
        return False
    if not hand_partition(ids, before) or oid not in before[source]:
        return False
    if not authorized or (reveal_required and not revealed):
        return False
    expected = {
        z: before[z] - {oid} if z == source else before[z] | {oid} if z == destination
        else before[z]
        for z in ZONES
    }
    if after.as_dict() != expected:
        return False
    return hand_partition(ids, after)


def cases(n: int, seed: int = 4) -> list[tuple[Any, ...]]:
    """``n`` argument tuples: about half valid moves, the rest broken in various ways."""
    rnd = random.Random(seed)
    zones = sorted(ZONES)
    ids = frozenset(range(1, 61))
    out = []
    for _ in range(n):
        occ: dict[str, set[int]] = {z: set() for z in zones}
        for i in ids:
            occ[rnd.choice(zones)].add(i)
        before = Fn({z: frozenset(v) for z, v in occ.items()})
        source = rnd.choice([z for z in zones if occ[z]])
        oid = rnd.choice(sorted(occ[source]))
        destination = rnd.choice([z for z in zones if z != source])
        new = {z: set(v) for z, v in occ.items()}
        new[source].discard(oid)
        new[destination].add(oid)
        flaw = rnd.randrange(8)
        authorized, reveal_required, revealed = True, rnd.random() < 0.3, True
        if flaw == 1:
            new[source].add(oid)          # left in the source too
        elif flaw == 2:
            authorized = False
        elif flaw == 3:
            revealed = False
            reveal_required = True
        elif flaw == 4:
            destination = source
        elif flaw == 5:
            oid = 999
        after = Fn({z: frozenset(v) for z, v in new.items()})
        out.append((ids, before, after, oid, source, destination, authorized,
                    reveal_required, revealed))
    return out


def rate(check: Callable[..., bool], args: list[tuple[Any, ...]], seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    while True:
        for a in args:
            check(*a)
        done += len(args)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def rss_mib() -> float:
    """Current resident set size (Linux), else the peak."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ctx = load_module(MODULE, [], {"Seats4": SEATS})
    args = cases(400)

    def compiled(*a: Any) -> bool:
        return ctx.holds("AtomicZoneMove4", a, {})

    disagree = sum(compiled(*a) != hand_move(*a) for a in args)
    valid = sum(hand_move(*a) for a in args)
    print(f"cases: {len(args)} ({valid} valid), disagreements: {disagree}")
    rounds = []
    for _ in range(6):
        ev = rate(compiled, args, 0.75)
        hw = rate(hand_move, args, 0.75)
        rounds.append((ev, hw))
    ev = max(r[0] for r in rounds)
    hw = max(r[1] for r in rounds)
    ratio = statistics.median(e / h for e, h in rounds)
    print(f"AtomicZoneMove4 checks/s: evaluator {ev:,.0f}, hand-written {hw:,.0f} (best of 6 "
          f"interleaved rounds); evaluator/hand-written ratio {ratio:.2f} (median per round)")
    conformance = load_module(MODULE.parent / "ZoneMembershipBench.tla", [], {"Seats4": SEATS})

    def enabled(ids: Any, before: Fn, _after: Fn, oid: int, source: str, destination: str,
                authorized: bool, reveal_required: bool, revealed: bool) -> bool:
        p = Fn({"id": oid, "source": source, "destination": destination,
                "movementAuthorized": authorized, "revealRequired": reveal_required,
                "revealedBeforeMove": revealed})
        return conformance.enabled("Move", (p,), {"inGameIds": ids, "occupants": before})

    print(f"ENABLED Move(p) (TLC-style, through AtomicZoneMove4) checks/s: "
          f"{rate(enabled, args[:100], 1.5):,.0f}")
    total = int(os.environ.get("TLACONF_BENCH_CHECKS", "1000000"))
    samples = []
    done = 0
    start = time.perf_counter()
    while done < total:
        for a in args:
            compiled(*a)
        done += len(args)
        if done % 100_000 < len(args):
            samples.append(rss_mib())
    elapsed = time.perf_counter() - start
    print(f"{done:,} checks in {elapsed:.1f}s; RSS MiB sampled every 100k checks: "
          f"{', '.join(f'{s:.1f}' for s in samples)}; peak (ru_maxrss) "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
