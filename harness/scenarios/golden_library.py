"""Golden traces of the ``ZoneLibrary`` module (``traces/library/``) and their
``expected.json``: the seed-7 scenario, and one violating trace per bug class the
profile cannot show (insertion at the top not reversed, fifo taken from the top,
capacity exceeded, custody without a transit record, a stale plan committed).
Run ``python -m harness.scenarios.golden_library [TRACES_DIR]``.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

from harness.scenarios.library import MODULE, REVISION, layout, library_vars, play
from tlaconf.trace.writer import TraceWriter, write_expected

SEED = 7
LISTS = ("lists' = [z \\in DOMAIN lists |-> IF z = src THEN Without(lists[z], es) "
         "ELSE IF z = dst THEN Inserted(lists[z], p) ELSE lists[z]]")


def _params(entries: list[int], source: str, destination: str, version: int,
            insert: str = "top") -> dict[str, Any]:
    return {"entries": entries, "source": source, "destination": destination,
            "insert": insert, "depth": 0, "slot": "", "custody": False, "effect": "",
            "ability": "", "planVersion": version}


def _moved(v: dict[str, Any], p: dict[str, Any], reverse: bool = True) -> dict[str, Any]:
    """The state a library without any checks would reach (lists and bags only)."""
    out = copy.deepcopy(v)
    es = p["entries"]
    for name, lst in out["lists"].items():
        if name == p["source"]:
            out["lists"][name] = [e for e in lst if e not in es]
        elif name == p["destination"]:
            arriving = list(reversed(es)) if reverse else list(es)
            out["lists"][name] = arriving + lst if p["insert"] == "top" else lst + list(es)
    for name in out["bags"]:
        if name == p["source"]:
            out["bags"][name] -= set(es)
        elif name == p["destination"]:
            out["bags"][name] |= set(es)
    out["version"] += 1
    return out


def _write(path: Path, steps: list[tuple[dict[str, Any], dict[str, Any]]],
           start: dict[str, Any]) -> Path:
    with TraceWriter(path, MODULE, REVISION, {}, {"golden": path.stem}) as w:
        w.init(start)
        for params, state in steps:
            w.step("Transfer", params, "accepted", state)
    return path


def write_golden(root: Path) -> list[Path]:
    """Write every golden trace of this area and its expected.json under ``root/library``."""
    area = root / "library"
    area.mkdir(parents=True, exist_ok=True)
    start = library_vars(layout(random.Random("golden")))
    cap = start["policy"]["hand"]["capacity"]
    paths = [play(area / f"zone-library-{SEED}.trace.jsonl", SEED, steps=30)]
    expected: dict[str, dict[str, Any]] = {
        paths[0].name: {"verdict": "conforms", "step": None, "conjunct": None}}

    def bad(name: str, steps: list[tuple[dict[str, Any], dict[str, Any]]], step: int,
            conjunct: str) -> None:
        paths.append(_write(area / f"{name}.trace.jsonl", steps, start))
        expected[f"{name}.trace.jsonl"] = {"verdict": "violation", "step": step,
                                           "conjunct": conjunct}

    top = _params([8, 7], "deck", "hand", 0)
    bad("top-not-reversed", [(top, _moved(start, top, reverse=False))], 1, LISTS)
    fifo = _params([11], "queue", "discard", 0)
    bad("fifo-from-the-top", [(fifo, _moved(start, fifo))], 1,
        "es = SubSeq(Rev(lists[z]), 1, Len(es))")
    room = cap - len(start["lists"]["hand"])
    fill = _params(list(range(8, 8 - room, -1)), "deck", "hand", 0)
    full = _moved(start, fill)
    more = _params([8 - room], "deck", "hand", 1)
    bad("capacity-exceeded", [(fill, full), (more, _moved(full, more))], 2,
        "policy[z].capacity < 0")
    aside = _params([8], "deck", "aside", 0)
    bad("custody-without-transit", [(aside, _moved(start, aside))], 1, "p.custody")
    first = _params([8], "deck", "discard", 0)
    after = _moved(start, first)
    stale = _params([7], "deck", "discard", 0)
    bad("stale-plan-committed", [(first, after), (stale, _moved(after, stale))], 2,
        "p.planVersion = version")
    write_expected(area / "expected.json", expected)
    return paths


if __name__ == "__main__":
    for p in write_golden(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces")):
        print(p)
