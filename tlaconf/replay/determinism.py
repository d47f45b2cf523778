"""Determinism as a checked property, over several traces (one trace cannot show it).

* :func:`compare_runs`: two runs of the same generator with the same seed must write
  byte-identical traces (the first differing file and line is the finding);
* :func:`seed_independence`: a **seeded step** -- one whose params have a ``seed`` and a
  ``result`` field, such as a shuffle -- must depend on its seed: when the same action
  with the same other params from the same state was recorded with at least two
  different seeds, the results must not all be the same.  A finding needs the chance
  that a seeded shuffle gives that many seeds one order to be at most :data:`CHANCE`
  (``(1/n!)^(seeds-1)`` for a result of ``n`` elements), so that a real shuffle is not
  accused: three seeds shuffling an 8-card deck to one order count, two do not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tlaconf.trace.reader import open_trace
from tlaconf.values import Fn, make_fn, to_tla

CHANCE = 1e-6
"""The largest chance of a coincidence that still counts as a finding."""


def compare_runs(first: Path, second: Path) -> str | None:
    """None when the folders hold the same trace files with the same bytes, else what
    differs (file, and the first differing line)."""
    a = {p.name: p for p in first.glob("*.trace.jsonl")}
    b = {p.name: p for p in second.glob("*.trace.jsonl")}
    if a.keys() != b.keys():
        only = sorted(a.keys() ^ b.keys())
        return f"the two runs wrote different trace files: {', '.join(only)}"
    for name in sorted(a):
        la = a[name].read_bytes().split(b"\n")
        lb = b[name].read_bytes().split(b"\n")
        for n, (x, y) in enumerate(zip(la, lb, strict=False), 1):
            if x != y:
                return f"{a[name]}:{n}: a second run with the same seed wrote a different line"
        if len(la) != len(lb):
            n = min(len(la), len(lb)) + 1
            return f"{a[name]}:{n}: a second run with the same seed wrote a different length"
    return None


def _canon(v: Any) -> str:
    return to_tla(v)


def _size(v: Any) -> int:
    try:
        return len(v)
    except TypeError:
        return 0


def seed_independence(paths: Iterable[Path]) -> list[str]:
    """One finding per seeded input whose results ignore the seed (see the module doc)."""
    groups: dict[tuple[str | None, ...], dict[str, tuple[str, str, int, int]]] = {}
    for path in paths:
        with open_trace(path) as trace:
            before = trace.initial
            for step in trace.steps():
                params = step.params
                if (step.outcome == "accepted" and step.action is not None and type(params) is Fn
                        and "seed" in params and "result" in params
                        and _size(params["result"]) >= 2):
                    rest = make_fn({k: v for k, v in params.items() if k not in ("seed", "result")})
                    state = _canon(make_fn(dict(before)))
                    key = (trace.header.module, step.action, _canon(rest), state)
                    seeds = groups.setdefault(key, {})
                    seeds.setdefault(_canon(params["seed"]),
                                     (_canon(params["result"]), str(path), step.line,
                                      _size(params["result"])))
                before = step.state
    out = []
    for (module, action, _, _), seeds in groups.items():
        results = {r for r, _, _, _ in seeds.values()}
        size = next(iter(seeds.values()))[3]
        chance = math.exp(-(len(seeds) - 1) * math.lgamma(size + 1))
        if len(seeds) >= 2 and len(results) == 1 and chance <= CHANCE:
            where = ", ".join(f"{p}:{line}" for _, p, line, _ in sorted(seeds.values(),
                                                                         key=lambda t: t[1:3]))
            out.append(f"{module}.{action}: {len(seeds)} different seeds gave the same result "
                       f"from the same state ({where}): the result ignores its seed")
    return out
