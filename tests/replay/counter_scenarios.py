"""A tiny implementation of Counter and its scenarios, for ``tlaconf check --scenarios``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.replay.counter_backend import write_trace


class Counter:
    """The implementation under test; ``buggy`` forgets to update the tally on big steps."""

    def __init__(self, buggy: bool = False) -> None:
        self.count = 0
        self.tally = {"a": 0, "b": 0}
        self.buggy = buggy

    def state(self) -> dict[str, Any]:
        return {"count": self.count, "tally": dict(self.tally)}

    def inc(self, by: int, who: str) -> bool:
        if by <= 0:
            return False
        self.count += by
        if not (self.buggy and by > 2):
            self.tally[who] += by
        return True


def _scenario(path: Path, seed: int, buggy: bool) -> Path:
    rng = random.Random(seed)
    impl = Counter(buggy)
    initial = impl.state()
    steps = []
    for _ in range(4):
        by, who = rng.randint(-1, 3), rng.choice("ab")
        outcome = "accepted" if impl.inc(by, who) else "rejected"
        steps.append(("Inc", {"by": by, "who": who}, outcome, impl.state()))
    return write_trace(path, initial, steps, constants={"Limit": 100})


def generate_all(out_dir: Path, seed: int) -> list[Path]:
    """Two conforming traces per seed."""
    return [_scenario(out_dir / f"counter-{i}.trace.jsonl", seed * 10 + i, False) for i in (1, 2)]


def generate_all_buggy(out_dir: Path, seed: int) -> list[Path]:
    """The same scenarios with the buggy implementation, plus one that always hits the bug."""
    paths = [_scenario(out_dir / f"counter-{i}.trace.jsonl", seed * 10 + i, True) for i in (1, 2)]
    impl = Counter(True)
    initial = impl.state()
    impl.inc(3, "a")
    big = [("Inc", {"by": 3, "who": "a"}, "accepted", impl.state())]
    return [*paths, write_trace(out_dir / "counter-big.trace.jsonl", initial, big)]


def generate_all_crashing(out_dir: Path, seed: int) -> list[Path]:
    """Conforming traces, except that seed 2 hits a bug of the implementation."""
    if seed == 2:
        Counter().tally["c"] += 1  # the implementation under test raises KeyError
    return generate_all(out_dir, seed)


def generate_nothing_useful(out_dir: Path, seed: int) -> Any:
    """A scenarios function that breaks its contract (returns no list of paths)."""
    return 42


def generate_all_unseeded(out_dir: Path, seed: int) -> list[Path]:
    """Like :func:`generate_all` but ignoring ``seed`` for an unseeded generator: two runs
    with the same seed write different traces."""
    return [_scenario(out_dir / "counter-1.trace.jsonl", random.randrange(10**9), False)]


def generate_all_unlisted(out_dir: Path, seed: int) -> list[Path]:
    """Writes the buggy traces too (in a subfolder) but returns only the conforming ones."""
    (out_dir / "more").mkdir()
    generate_all_buggy(out_dir / "more", seed)
    return generate_all(out_dir, seed)


def generate_all_phantom(out_dir: Path, seed: int) -> list[Path]:
    """Returns a trace it never wrote."""
    return [*generate_all(out_dir, seed), out_dir / "phantom.trace.jsonl"]
