"""Write the golden traces (``traces/<area>/``) and their ``expected.json`` deterministically.

Conforming traces come from the seeded scenarios; violating ones are written
by hand from the seed's worked example (object 11 in SideA's hand, 12 in
play), each breaking exactly one conjunct.  Run ``python -m harness.scenarios.golden``.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from harness.profile import SEATS, pile_zones, zone_instances
from harness.scenarios.play import SCENARIOS, play
from tlaconf.trace.writer import Outcome, TraceWriter, write_expected

SEED = 7
STEPS = 30
CONSTANTS = {"Seats4": set(SEATS)}
ZONES = zone_instances(SEATS)

Expected = dict[str, dict[str, Any]]
AFTER_CONJUNCT = (
    "after = [z \\in ZoneInstances4 |-> IF z = source THEN before[z] \\ {id} "
    "ELSE IF z = destination THEN before[z] \\cup {id} ELSE before[z]]"
)
"""The innermost conjunct blamed for a wrong successor of AtomicZoneMove4 (as the source reads)."""


def _occ(**placed: list[int]) -> dict[str, set[int]]:
    occ: dict[str, set[int]] = {z: set() for z in ZONES}
    for key, ids in placed.items():
        occ[key.replace("_", ".")] = set(ids)
    return occ


def _membership(occ: Mapping[str, set[int]], ids: set[int] | None = None) -> dict[str, Any]:
    return {"inGameIds": ids if ids is not None else set().union(*occ.values()), "occupants": occ}


WORKED = _occ(SideA_Hand=[11], Play=[12])
AFTER = _occ(Play=[11, 12])


def _move(id_: int, source: str, destination: str, **flags: bool) -> dict[str, Any]:
    return {
        "id": id_,
        "source": source,
        "destination": destination,
        "movementAuthorized": flags.get("authorized", True),
        "revealRequired": flags.get("reveal_required", False),
        "revealedBeforeMove": flags.get("revealed", False),
    }


def _write(
    path: Path, module: str, init: Mapping[str, Any], steps: list[tuple[str, Any, str, Any]]
) -> None:
    meta = {"golden": path.stem.removesuffix(".trace"), "writer": "harness.scenarios.golden"}
    with TraceWriter(path, module, "2", CONSTANTS, meta) as w:
        w.init(init)
        for action, params, outcome, state in steps:
            w.step(action, params, cast(Outcome, outcome), state)


def _zone_traces(out: Path) -> Expected:
    m = "ZoneMembership"
    ok = _move(11, "SideA.Hand", "Play")
    cases: dict[str, tuple[Mapping[str, Any], list[tuple[str, Any, str, Any]], int, str | None]] = {
        "worked-example-move": (
            _membership(WORKED),
            [("Move", ok, "accepted", _membership(AFTER))],
            -1,
            "",
        ),
        "leaves-11-in-hand": (
            _membership(WORKED),
            [("Move", ok, "accepted", _membership(_occ(SideA_Hand=[11], Play=[11, 12])))],
            1,
            AFTER_CONJUNCT,
        ),
        "source-not-admitted": (
            _membership(WORKED),
            [("Move", _move(11, "Graveyard", "Play"), "accepted", _membership(WORKED))],
            1,
            "source \\in ZoneInstances4",
        ),
        "destination-not-admitted": (
            _membership(WORKED),
            [("Move", _move(11, "SideA.Hand", "Graveyard"), "accepted", _membership(WORKED))],
            1,
            "destination \\in ZoneInstances4",
        ),
        "same-zone": (
            _membership(WORKED),
            [("Move", _move(11, "SideA.Hand", "SideA.Hand"), "accepted", _membership(WORKED))],
            1,
            "source # destination",
        ),
        "id-not-in-source": (
            _membership(WORKED),
            [("Move", _move(12, "SideA.Hand", "Play"), "accepted", _membership(WORKED))],
            1,
            "id \\in before[source]",
        ),
        "unauthorized-move": (
            _membership(WORKED),
            [
                (
                    "Move",
                    _move(11, "SideA.Hand", "Play", authorized=False),
                    "accepted",
                    _membership(AFTER),
                )
            ],
            1,
            "movementAuthorized",
        ),
        "reveal-missing": (
            _membership(WORKED),
            [
                (
                    "Move",
                    _move(11, "SideA.Hand", "Play", reveal_required=True),
                    "accepted",
                    _membership(AFTER),
                )
            ],
            1,
            "revealedBeforeMove",
        ),
        "moved-to-wrong-zone": (
            _membership(WORKED),
            [("Move", ok, "accepted", _membership(_occ(Removed=[11], Play=[12])))],
            1,
            AFTER_CONJUNCT,
        ),
        "rejected-but-enabled": (
            _membership(WORKED),
            [("Move", ok, "rejected", _membership(WORKED))],
            1,
            None,  # no conjunct is FALSE: the refused request was ENABLED
        ),
        "rejected-changed-state": (
            _membership(WORKED),
            [
                (
                    "Move",
                    _move(11, "SideA.Hand", "Play", authorized=False),
                    "rejected",
                    _membership(AFTER),
                )
            ],
            1,
            None,  # no conjunct is FALSE: a rejected step changed the state
        ),
        "step-drops-empty-zone": (
            _membership(WORKED),
            [
                (
                    "Move",
                    ok,
                    "accepted",
                    _membership({z: v for z, v in AFTER.items() if z != "Removed"}),
                )
            ],
            1,
            AFTER_CONJUNCT,
        ),
        "initial-domain-missing-zone": (
            _membership({z: v for z, v in WORKED.items() if z != "Removed"}),
            [("Move", ok, "accepted", _membership(AFTER))],
            0,
            "DOMAIN occupants = ZoneInstances4",
        ),
        "initial-union-mismatch": (
            _membership(WORKED, {11, 12, 13}),
            [("Move", ok, "accepted", _membership(AFTER, {11, 12, 13}))],
            0,
            "UNION {occupants[z] : z \\in ZoneInstances4} = inGameIds",
        ),
        "initial-overlap": (
            _membership(_occ(SideA_Hand=[11], Play=[11, 12])),
            [
                (
                    "Move",
                    _move(12, "Play", "Removed"),
                    "accepted",
                    _membership(_occ(SideA_Hand=[11], Play=[11], Removed=[12])),
                )
            ],
            0,
            "occupants[a] \\intersect occupants[b] = {}",
        ),
    }
    expected: Expected = {}
    for name, (init, steps, step, conjunct) in cases.items():
        file = f"{name}.trace.jsonl"
        _write(out / file, m, init, steps)
        expected[file] = _verdict(step, conjunct)
    return expected


def _verdict(step: int, conjunct: str | None) -> dict[str, Any]:
    if step < 0:
        return {"verdict": "conforms", "step": None, "conjunct": None}
    return {"verdict": "violation", "step": step, "conjunct": conjunct}


def _piles(**placed: list[int]) -> dict[str, list[int]]:
    piles: dict[str, list[int]] = {z: [] for z in pile_zones(SEATS)}
    for key, ids in placed.items():
        piles[key.replace("_", ".")] = list(ids)
    return piles


def _pile_state(piles: Mapping[str, list[int]], face_up: set[int] | None = None) -> dict[str, Any]:
    occ: dict[str, set[int]] = {z: set() for z in ZONES}
    occ |= {z: set(v) for z, v in piles.items()}
    state = {**_membership(occ), "piles": dict(piles)}
    if face_up is not None:
        state["faceUp"] = face_up
    return state


def _deck_traces(out: Path) -> Expected:
    start = _pile_state(_piles(SideA_Deck=[1, 2, 3], SideB_Deck=[4, 5]))
    drew_second = _pile_state(_piles(SideA_Deck=[1, 3], SideA_Hand=[2], SideB_Deck=[4, 5]))
    cases = {
        "draw-not-top": (
            [("Draw", {"seat": "SideA", "movementAuthorized": True}, "accepted", drew_second)],
            AFTER_CONJUNCT,
        ),
        "shuffle-result-not-applied": (
            [
                (
                    "Shuffle",
                    {"zone": "SideA.Deck", "seed": 5, "result": [3, 1, 2]},
                    "accepted",
                    _pile_state(_piles(SideA_Deck=[2, 3, 1], SideB_Deck=[4, 5])),
                )
            ],
            "piles' = [piles EXCEPT ![p.zone] = p.result]",
        ),
        "reorder-without-context": (
            [
                (
                    "Reorder",
                    {
                        "zone": "SideA.Deck",
                        "order": [3, 2, 1],
                        "reorderContext": False,
                        "searchCompletion": False,
                        "shuffleOccurred": False,
                    },
                    "accepted",
                    _pile_state(_piles(SideA_Deck=[3, 2, 1], SideB_Deck=[4, 5])),
                )
            ],
            "orderContext",
        ),
        "search-without-shuffle": (
            [
                (
                    "Reorder",
                    {
                        "zone": "SideA.Deck",
                        "order": [2, 1, 3],
                        "reorderContext": True,
                        "searchCompletion": True,
                        "shuffleOccurred": False,
                    },
                    "accepted",
                    _pile_state(_piles(SideA_Deck=[2, 1, 3], SideB_Deck=[4, 5])),
                )
            ],
            "shuffleOccurred",
        ),
    }
    expected: Expected = {}
    for name, (steps, conjunct) in cases.items():
        file = f"{name}.trace.jsonl"
        _write(out / file, "DeckOrder", start, steps)
        expected[file] = _verdict(1, conjunct)
    return expected


def _deal_params(**over: Any) -> dict[str, Any]:
    base = {
        "source": "SideA.Deck",
        "piles": ["SideA.Hand", "SideB.Hand"],
        "countAll": False,
        "count": 4,
        "distribution": "round_robin",
        "sourcePosition": "top",
        "sourceIndex": 0,
        "pilePosition": "top",
        "face": "kept",
        "movementAuthorized": True,
    }
    return base | over


def _deal_traces(out: Path) -> Expected:
    start = _pile_state(_piles(SideA_Deck=[1, 2, 3, 4, 5]), set())
    right = _pile_state(_piles(SideA_Deck=[5], SideA_Hand=[3, 1], SideB_Hand=[4, 2]), set())
    not_reversed = _pile_state(_piles(SideA_Deck=[5], SideA_Hand=[1, 3], SideB_Hand=[2, 4]), set())
    card = {
        "id": 2,
        "source": "SideA.Deck",
        "index": 1,
        "pile": "SideA.Hand",
        "pilePosition": "top",
        "face": "kept",
        "movementAuthorized": True,
    }
    cases = {
        "deal-top-reversed": ([("Deal", _deal_params(), "accepted", right)], -1, ""),
        "deal-top-not-reversed": (
            [("Deal", _deal_params(), "accepted", not_reversed)],
            1,
            "piles' = DealPiles(piles, p)",
        ),
        "deal-too-many-accepted": (
            [("Deal", _deal_params(count=6), "accepted", start)],
            1,
            "DealCount(src, d) <= DealAvailable(src, d)",
        ),
        "dealcard-wrong-index": (
            [
                (
                    "DealCard",
                    card,
                    "accepted",
                    _pile_state(_piles(SideA_Deck=[1, 3, 4, 5], SideA_Hand=[2]), set()),
                )
            ],
            1,
            "p.id = piles[p.source][p.index]",
        ),
    }
    expected: Expected = {}
    for name, (steps, step, conjunct) in cases.items():
        file = f"{name}.trace.jsonl"
        _write(out / file, "Deals", start, steps)
        expected[file] = _verdict(step, conjunct)
    return expected


def _listing(view: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``view`` with every zone's ``listed`` (the canonical order where it has none): one
    record shape in every zone, as a typed checker (Apalache) needs."""
    return {z: {"listed": sorted(v["ids"]), **v} for z, v in view.items()}


def _observation_traces(out: Path) -> Expected:
    occ = _occ(SideA_Deck=[1, 2], SideA_Hand=[11], Play=[12], SideB_Hand=[21])
    state = {
        **_membership(occ),
        "faceUp": {12},
        "controller": {1: "SideA", 2: "SideA", 11: "SideA", 12: "SideB", 21: "SideB"},
        "revealed": {"SideA": set(), "SideB": set()},
    }
    honest = {z: {"count": len(v), "ids": set()} for z, v in occ.items()}
    honest["SideA.Hand"]["ids"] = {11}
    honest["Play"]["ids"] = {12}
    leaky = copy.deepcopy(honest)
    leaky["SideA.Deck"]["ids"] = {1}
    hiding = copy.deepcopy(honest)
    hiding["SideA.Hand"]["ids"] = set()
    cases = {
        "observe-honest": (honest, -1, ""),
        "observe-leaks-deck-card": (leaky, 1, "p.view[z].ids \\subseteq Visible(z, p.seat)"),
        "observe-hides-own-hand": (hiding, 1, "Visible(z, p.seat) \\subseteq p.view[z].ids"),
    }
    expected: Expected = {}
    for name, (view, step, conjunct) in cases.items():
        file = f"{name}.trace.jsonl"
        _write(
            out / file,
            "Observation",
            state,
            [("Observe", {"seat": "SideA", "view": _listing(view)}, "accepted", state)],
        )
        expected[file] = _verdict(step, conjunct)
    # identities listed in insertion order (14 arrived first), not the canonical order
    occ2 = {**occ, "SideA.Hand": {11, 14}}
    state2 = {**state, **_membership(occ2),
              "controller": {**state["controller"], 14: "SideA"}}
    listed = copy.deepcopy(honest)
    listed["SideA.Hand"] = {"count": 2, "ids": {11, 14}, "listed": [14, 11]}
    file = "observe-lists-insertion-order.trace.jsonl"
    _write(out / file, "Observation", state2,
           [("Observe", {"seat": "SideA", "view": _listing(listed)}, "accepted", state2)])
    expected[file] = _verdict(1, "p.view[z].listed = Canonical(p.view[z].ids)")
    # every zone view also carries the zone's contents: the deck and SideB's hand leak
    contents = {z: {**v, "contents": sorted(occ[z])} for z, v in _listing(honest).items()}
    file = "observe-contents-field-leak.trace.jsonl"
    _write(out / file, "Observation", state,
           [("Observe", {"seat": "SideA", "view": contents}, "accepted", state)])
    expected[file] = _verdict(1, "DOMAIN p.view[z] \\in ZoneViewFields")
    return expected


def _custody_traces(out: Path) -> Expected:
    record = {
        "origin": "SideA.Hand",
        "effectInstance": "e1",
        "owningAbility": "a1",
        "cleanup": "none",
    }
    held = {**_membership(_occ(SetAside=[11], Play=[12])), "transit": {11: record}}
    gone = {**_membership(_occ(Play=[11, 12])), "transit": {}}
    exit_params = {
        "id": 11,
        "destination": "Play",
        "observerQualifies": False,
        "movementAuthorized": True,
    }
    untracked = {**_membership(_occ(SetAside=[11], Play=[12])), "transit": {}}
    cases = {
        "exit-reports-origin": (
            held,
            [("Exit", exit_params | {"reported": "SideA.Hand"}, "accepted", gone)],
            -1,
            "",
        ),
        "exit-wrong-view": (
            held,
            [("Exit", exit_params | {"reported": "SetAside"}, "accepted", gone)],
            1,
            "p.reported = SetAsideExitView4(p.id, transit, p.observerQualifies)",
        ),
        "set-aside-untracked": (
            untracked,
            [("Exit", exit_params | {"reported": "none"}, "rejected", untracked)],
            0,
            "setAsideIds \\subseteq DOMAIN transit",
        ),
    }
    expected: Expected = {}
    for name, (init, steps, step, conjunct) in cases.items():
        file = f"{name}.trace.jsonl"
        _write(out / file, "Custody", init, steps)
        expected[file] = _verdict(step, conjunct)
    return expected


AREAS = {
    "zones": (_zone_traces, ("zone-membership", "custody")),
    "deck": (_deck_traces, ("deck-order",)),
    "deals": (_deal_traces, ("deals", "deal-cards")),
    "observation": (_observation_traces, ("observation",)),
}
"""Area folder -> (hand-written traces, scenario traces)."""


def write_golden(traces: Path) -> list[Path]:
    """Write every golden trace and ``expected.json`` under ``traces``; the files written."""
    written: list[Path] = []
    for area, (hand_written, scenarios) in AREAS.items():
        out = traces / area
        out.mkdir(parents=True, exist_ok=True)
        if area == "zones":
            expected = hand_written(out) | _custody_traces(out)
        else:
            expected = hand_written(out)
        for name in scenarios:
            module, refine, choose, cards = SCENARIOS[name]
            file = f"{name}-{SEED}.trace.jsonl"
            play(
                out / file,
                module,
                refine,
                choose,
                seed=SEED,
                steps=STEPS,
                name=name,
                card_level_deals=cards,
            )
            expected[file] = _verdict(-1, "")
        write_expected(out / "expected.json", expected)
        written += [out / f for f in sorted(expected)] + [out / "expected.json"]
    return written


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("traces")
    for p in write_golden(root):
        print(p)
