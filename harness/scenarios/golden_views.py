"""Golden traces of the ``SeatViews`` module (``traces/views/``) and their ``expected.json``.

The seed-7 scenario traces conform; each violating trace is the seed-7 trace up to one
accepted step (earlier leak checks and refused requests left out: they change nothing),
with that step as a product with one bug would have recorded it.  Run
``python -m harness.scenarios.golden_views [TRACES_DIR]``.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.scenarios import views
from tlaconf.trace.writer import TraceWriter, write_expected
from tlaconf.values import decode

SEED = 7
Line = dict[str, Any]
Tamper = Callable[[Line, Line], None]
"""Changes a recorded step (given the line before it) as a buggy product would record it."""


def _keep_revealed(step: Line, before: Line) -> None:
    step["state"]["revealed"] = before["state"]["revealed"]


def _get(fn: Line, key: str) -> Any:
    """``fn[key]`` of an ITF function (a ``#map`` when its keys are not identifiers)."""
    return next(v for k, v in fn["#map"] if k == key) if "#map" in fn else fn[key]


def _zone(step: Line, zone: str) -> Line:
    view: Line = _get(step["params"]["view"], zone)
    return view


def _show_deck_order(step: Line, _: Line) -> None:
    deck = _zone(step, "SideA.Deck")
    deck["shown"], deck["layout"] = True, [0] * deck["count"]


def _unmask_play(step: Line, before: Line) -> None:
    _zone(step, "Play")["layout"] = _get(before["state"]["lists"], "Play")


def _leak_unreported(step: Line, _: Line) -> None:
    step["params"]["verdict"] = "none"


def _bag_order_skipped(step: Line, before: Line) -> None:
    bank = _get(before["state"]["lists"], "Bank")
    step["params"]["worlds"] = [w for w in step["params"]["worlds"]
                                if _get(w["lists"], "Bank") == bank]


def _visible_card_turned(step: Line, _: Line) -> None:
    world = step["params"]["worlds"][0]
    world["faceUp"]["#set"].remove(12)


def _stored_order_field(step: Line, before: Line) -> None:
    """Every zone view also carries the zone's stored list (its slots for a row): a field
    the reading does not name, through which the deck order and hidden hands leak."""
    state = before["state"]
    for zone, view in step["params"]["view"].items():
        lists = state["lists"] if zone in state["lists"] else state["slots"]
        view["stored"] = _get(lists, zone)


def _find(lines: list[Line], action: str, after: int = 0, **params: Any) -> int:
    return next(i for i, ln in enumerate(lines) if i > after and ln.get("action") == action
                and ln["outcome"] == "accepted"
                and all(ln["params"].get(k) == v for k, v in params.items()))


CASES: dict[str, tuple[Callable[[list[Line]], int], Tamper, str]] = {
    "reveal-survives-deal": (lambda ls: _find(ls, "Deal"), _keep_revealed,
                             "revealed' = Unreveal(dealt)"),
    "reveal-survives-draw": (lambda ls: _find(ls, "Draw"), _keep_revealed,
                             "revealed' = Unreveal({Head(lists[dk])})"),
    "deck-order-shown": (lambda ls: _find(ls, "Observe", seat="SideB"), _show_deck_order,
                         "p.view[z].shown = OrderShown(z, p.seat)"),
    "face-down-identity-in-layout": (
        lambda ls: _find(ls, "Observe", _find(ls, "Move", destination="Play"), seat="SideB"),
        _unmask_play, "p.view[z].layout = ZoneView(Real, z, p.seat).layout"),
    "leak-not-reported": (lambda ls: _find(ls, "LeakCheck", observer="projection"),
                          _leak_unreported,
                          'p.verdict = IF \\E i \\in DOMAIN p.worlds : Leaks(p, i) THEN "leak" '
                          'ELSE "none"'),
    "bag-order-not-permuted": (
        lambda ls: _find(ls, "LeakCheck", _find(ls, "Move", destination="SetAside") + 1),
        _bag_order_skipped, "\\E i \\in DOMAIN p.worlds : OnlyOrderOf(WorldOf(p.worlds[i]), z)"),
    "world-turns-a-visible-card": (lambda ls: _find(ls, "LeakCheck", seat="SideB"),
                                   _visible_card_turned, "(id \\in W.faceUp) = (id \\in faceUp)"),
    "stored-order-field-leak": (lambda ls: _find(ls, "Observe", seat="SideA"),
                                _stored_order_field, "DOMAIN p.view[z] = ZoneViewFields"),
}
"""Violating trace -> (the step to tamper, how, the conjunct to blame)."""

#: Cases whose tampered step adds a field: the earlier views are left out too (one type
#: for every Observe of a trace, as a model checker's type checker wants).
NEW_FIELDS = {"stored-order-field-leak"}


def _lines(path: Path) -> list[Line]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, lines: list[Line]) -> Path:
    """The trace of ``lines`` (a header, the initial state and steps, as read back from a
    trace and tampered with), written again with :class:`TraceWriter`."""
    header, initial, *steps = lines
    with TraceWriter(path, header["module"], header["revision"],
                     _decoded(header["constants"]), header["meta"]) as w:
        w.init(_decoded(initial["state"]))
        for ln in steps:
            w.step(ln["action"], _decoded(ln["params"]), ln["outcome"], _decoded(ln["state"]))
    return path


def _decoded(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: decode(v) for k, v in fields.items()}


def write_golden(root: Path) -> list[Path]:
    """Write every golden trace of this area and its expected.json under ``root/views``."""
    area = root / "views"
    area.mkdir(parents=True, exist_ok=True)
    paths = views.generate(area, SEED)
    expected: dict[str, dict[str, Any]] = {
        p.name: {"verdict": "conforms", "step": None, "conjunct": None} for p in paths}
    base = _lines(paths[0])
    for name, (locate, tamper, conjunct) in CASES.items():
        at = locate(base)
        left_out = {"LeakCheck", "Observe"} if name in NEW_FIELDS else {"LeakCheck"}
        kept = [ln for ln in base[2:at]
                if ln.get("action") not in left_out and ln["outcome"] == "accepted"]
        step = copy.deepcopy(base[at])
        tamper(step, kept[-1] if kept else base[1])
        header = {**base[0], "meta": {"golden": name, "writer": "harness.scenarios.golden_views"}}
        file = f"{name}.trace.jsonl"
        paths.append(_write(area / file, [header, base[1], *kept, step]))
        expected[file] = {"verdict": "violation", "step": len(kept) + 1, "conjunct": conjunct}
    write_expected(area / "expected.json", expected)
    return paths


if __name__ == "__main__":
    for p in write_golden(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces")):
        print(p)
