"""Golden partial traces (``traces/partial/``) and their ``expected.json``.

The harness plays zone moves and records them with :class:`tlaconf.Recorder` (``observe=``): after
the full initial state, each event logs only what a zone library knows cheaply, the
occupants of the two zones a move touched (``#partial``); some events are logged
without their action (checked against ``Next``).  The failing traces come from
implementations with one bug each: one that files the card in the wrong zone, one
that moves a card out of a zone that does not hold it.
Run ``python -m harness.scenarios.golden_partial [TRACES_DIR]``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from harness.profile import Move, ProfileState, apply, membership_vars, new_game
from harness.recorder import Recorder
from tlaconf import Some

MODULE = "ZoneMembership"
META = {"generator": "harness.scenarios.golden_partial"}
DECKS = {"SideA": [11, 12, 13], "SideB": [21, 22]}


def touched(action: str | None, params: Mapping[str, Any],
            state: ProfileState) -> Mapping[str, Any]:
    """What a move logs: the occupants of its source and destination zones."""
    zones = membership_vars(state)["occupants"]
    return {"occupants": Some({z: zones[z] for z in (params["source"], params["destination"])})}


def _unlabelled(rec: Recorder[ProfileState], state: ProfileState, zone: str) -> None:
    """An event whose action is not logged, only one zone's occupants."""
    zones = membership_vars(state)["occupants"]
    rec.writer.unlabeled_step({"occupants": Some({zone: zones[zone]})})


Play = Callable[[Recorder[ProfileState]], None]


def _moves(requests: list[Move], bug: Callable[[Move], Move] | None = None,
           unlabelled_after: int | None = None) -> Play:
    def play(rec: Recorder[ProfileState]) -> None:
        state = new_game(DECKS)
        rec.init(state)
        for i, request in enumerate(requests):
            done = bug(request) if bug is not None else request
            state, out = apply(state, done)
            if not out.accepted:
                raise AssertionError(f"the golden move {done} was refused: {out.reason}")
            if i == unlabelled_after:
                _unlabelled(rec, state, request.destination)
            else:
                rec.accepted(request.action, request.params(), state)

    return play


MOVES = [Move(11, "SideA.Deck", "SideA.Hand"), Move(21, "SideB.Deck", "SideB.Hand"),
         Move(11, "SideA.Hand", "Play"), Move(12, "SideA.Deck", "SideA.Hand"),
         Move(21, "SideB.Hand", "Play")]


def _wrong_zone(m: Move) -> Move:
    """The bug: a card played from SideB's hand lands in SideB's discard pile."""
    if m.source == "SideB.Hand" and m.destination == "Play":
        return Move(m.id, m.source, "SideB.Discard")
    return m


CASES: dict[str, tuple[Play, int | None, str | None]] = {
    "moves-logged-zones": (_moves(MOVES), None, None),
    "moves-one-unlabelled": (_moves(MOVES, unlabelled_after=1), None, None),
    "wrong-zone-filed": (_moves(MOVES, _wrong_zone), 5, "occupants.Play"),
}
"""Golden name -> (how it is played, failing step, blamed text)."""


def _not_in_source(rec: Recorder[ProfileState]) -> None:
    """The bug: the library moves 13 but logs the request as a move of 12, which is
    already in the hand: the spec has no such move (``id \\in before[source]``)."""
    state = new_game(DECKS)
    rec.init(state)
    state, _ = apply(state, Move(12, "SideA.Deck", "SideA.Hand"))
    rec.accepted("Move", Move(12, "SideA.Deck", "SideA.Hand").params(), state)
    state, _ = apply(state, Move(13, "SideA.Deck", "SideA.Hand"))
    rec.accepted("Move", Move(12, "SideA.Deck", "SideA.Hand").params(), state)


CASES["moved-id-not-in-source"] = (_not_in_source, 2, "id \\in before[source]")


def write_golden(traces: Path) -> list[Path]:
    """Write every golden partial trace and ``expected.json`` under ``traces/partial``."""
    out = traces / "partial"
    out.mkdir(parents=True, exist_ok=True)
    expected: dict[str, dict[str, Any]] = {}
    paths = []
    for name, (play, step, conjunct) in CASES.items():
        path = out / f"{name}.trace.jsonl"
        rec = Recorder(path, MODULE, membership_vars, observe=touched,
                       meta={**META, "golden": name})
        with rec:
            play(rec)
        paths.append(path)
        expected[path.name] = ({"verdict": "conforms"} if step is None else
                               {"verdict": "violation", "step": step, "conjunct": conjunct})
    (out / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    return [*paths, out / "expected.json"]


if __name__ == "__main__":
    for p in write_golden(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces")):
        print(p)
