"""Zone library and scenario throughput: transfers, deals, leak checks, scenario traces."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from harness.deal import DealRequest, deal
from harness.profile import legal_actions, new_game
from harness.scenarios import generate_all
from harness.zones import Access, Transfer, assert_no_information_leak, define_zones, hand, transfer


def _rate(label: str, n: int, seconds: float, unit: str) -> None:
    print(f"{label:<44} {n / seconds:>12,.0f} {unit}/s  ({n} in {seconds:.3f} s)")


def main() -> None:
    ids = list(range(1, 1001))
    z = define_zones({"a": hand("x", access=Access.ANY_INDEX), "b": hand("y")}, {"a": ids})
    t = time.perf_counter()
    for i in ids:
        z = transfer(z, Transfer((i,), "a", "b"))
    _rate(
        "plan+commit single-entry transfers (1000 ids)",
        len(ids),
        time.perf_counter() - t,
        "transfers",
    )

    z = define_zones(
        {"a": hand("x", access=Access.ANY_INDEX), "b": hand("y"), "c": hand("z")},
        {"a": list(range(200))},
    )
    t = time.perf_counter()
    deal(z, DealRequest("a", piles=("b", "c")))
    _rate("deal 200 cards round robin to 2 piles", 200, time.perf_counter() - t, "cards")

    game = new_game(
        {"SideA": list(range(1, 31)), "SideB": list(range(31, 61))},
        others={"SideA.Hand": [61, 62, 63], "SideB.Hand": [64, 65, 66]},
    )
    t = time.perf_counter()
    worlds = assert_no_information_leak(
        game.zones, "SideA", legal_actions=legal_actions, samples=20
    )
    _rate("leak check worlds (60 objects, 66 in game)", worlds, time.perf_counter() - t, "worlds")

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        paths = generate_all(Path(tmp), 1)
        seconds = time.perf_counter() - t
        steps = sum(len(p.read_text().splitlines()) - 2 for p in paths)
        size = sum(p.stat().st_size for p in paths)
        _rate(f"scenario steps recorded ({len(paths)} traces)", steps, seconds, "steps")
        print(f"{'scenario trace bytes per step':<44} {size / steps:>12,.0f} B")


if __name__ == "__main__":
    main()
