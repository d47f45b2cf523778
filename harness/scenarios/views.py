"""Seat views across moves, draws, shuffles and deals, and the information-leak check.

Recorded for the ``SeatViews`` conformance module: every seed plays scripted
situations first (a revealed card dealt, drawn or moved, then observed; a revealed
card shuffled within its deck; a bag and set-aside holding face-up cards whose
order is hidden; face-down cards in a public row; leak checks of each seat, and
of a product projection that lists identities in storage order or names the top
card of a deck among its legal actions), then a seeded mix of requests.  A second,
short trace starts from an endgame with few hidden cards, where the leak check
compares every permutation of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.deal import DealRequest
from harness.profile import (
    SEATS,
    Deal,
    Draw,
    Flip,
    Move,
    Observe,
    ProfileState,
    Reveal,
    Shuffle,
    legal_actions,
    new_game,
)
from harness.recorder import Recorder
from harness.scenarios.play import choose_deal, choose_observation_request, initial_state
from harness.seat_views import LeakCheck, ViewRequest, apply_view_request, ordered_view, views_vars
from harness.zones import Custody, ZoneCollection

MODULE = "SeatViews"
Situation = Callable[[ProfileState], ViewRequest]
_HELD = Custody("effect-0", "ability-0")


def storage_order_view(state: ProfileState, seat: str) -> Mapping[str, Any]:
    """A product projection with a leak: identities listed in the zone's storage order."""
    view = ordered_view(state, seat)
    for name, v in view.items():
        v["listed"] = [e for e in state.zones.zone(name).top_first if e in v["ids"]]
    return view


def peeking_actions(zones: ZoneCollection, seat: str) -> Iterable[Hashable]:
    """Product legal actions with a leak: the draw names the deck's top card."""
    deck = zones.zone(f"{seat}.Deck")
    for a in legal_actions(zones, seat):
        if a == ("Draw", seat) and deck.count:
            yield ("Move", deck.top_first[0], deck.name, f"{seat}.Hand")
        else:
            yield a


def _top(state: ProfileState, zone: str) -> int:
    return int(state.zones.zone(zone).top_first[0])


NOT_A_SEAT, NOT_AN_ID = "SideC", 999
_DEAL = DealRequest("SideA.Deck", piles=("SideA.Hand",), count=1)
REFUSED: tuple[ViewRequest, ...] = (
    Reveal(NOT_AN_ID, "SideA"), Reveal(1, NOT_A_SEAT),
    Flip(NOT_AN_ID, "Up"), Flip(1, "Sideways"),
    Draw(NOT_A_SEAT), Draw("SideA", movementAuthorized=False),
    Shuffle("Play", 1), Shuffle("SideA.Deck", -1),
    Move(1, "SideA.Deck", "SideA.Deck"), Move(1, "SideA.Hand", "Play"),
    Move(1, "SideA.Deck", "Play", movementAuthorized=False),
    Move(1, "SideA.Deck", "Play", revealRequired=True), Move(1, "Nowhere", "Play"),
    Deal(_DEAL, movementAuthorized=False),
    Deal(DealRequest("Bank", piles=("SideA.Hand",), count=1)),
    Deal(DealRequest("SideA.Deck", piles=("SetAside",), count=1)),
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), count=0)),
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), count=99)),
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), distribution="zigzag")),  # type: ignore[arg-type]
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), source_position=99)),
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), pile_position="side")),  # type: ignore[arg-type]
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), face="sideways")),  # type: ignore[arg-type]
    Deal(DealRequest("SideA.Deck", piles=("SideA.Hand", "SideA.Hand"), count=1)),
    Deal(DealRequest("SideA.Deck", piles=("SideA.Deck",), count=1)),
)
"""Requests refused at the start of every seed: each guard of each state-changing action."""

SITUATIONS: tuple[Situation, ...] = (
    *((lambda s, r=r: r) for r in REFUSED),
    lambda s: Observe("SideA"),
    lambda s: LeakCheck("SideA"),
    lambda s: Reveal(_top(s, "SideA.Deck"), "SideB"),
    lambda s: Observe("SideB"),                       # SideB sees the revealed deck card
    lambda s: Shuffle("SideA.Deck", 5),
    lambda s: Observe("SideB"),                       # still revealed: it stayed in the deck
    lambda s: LeakCheck("SideB", 1),                  # the revealed card is not hidden
    lambda s: Reveal(_top(s, "SideA.Deck"), "SideB"),
    lambda s: Deal(DealRequest("SideA.Deck", piles=("SideA.Hand",), count=1)),
    lambda s: Observe("SideB"),                       # dealt into SideA's hand: no longer seen
    lambda s: Move(_top(s, "SideA.Hand"), "SideA.Hand", "Play"),
    lambda s: Observe("SideB"),                       # a face-down card in play: order shown
    lambda s: Reveal(_top(s, "SideB.Deck"), "SideA"),
    lambda s: Draw("SideB"),
    lambda s: Observe("SideA"),                       # drawn: the revelation ended
    lambda s: Reveal(11, "SideB"),
    lambda s: Move(11, "SideA.Hand", "SideA.Objective"),
    lambda s: Flip(11, "Down"),
    lambda s: Observe("SideB"),                       # a face-down card in a public row
    lambda s: Move(12, "Play", "Bank"),
    lambda s: Move(13, "SideB.Discard", "Bank"),      # two face-up tokens in a bag
    lambda s: Move(_top(s, "SideB.Deck"), "SideB.Deck", "SetAside", custody=_HELD),
    lambda s: LeakCheck("SideA", 2),                  # one set-aside card: no order to permute
    lambda s: Move(_top(s, "SideB.Deck"), "SideB.Deck", "SetAside", custody=_HELD),
    lambda s: Observe("SideA"),
    lambda s: LeakCheck("SideA", 3),                  # bag order, set-aside order, hands
    lambda s: LeakCheck("SideB", 4),
    lambda s: LeakCheck("SideA", 5, view=storage_order_view),
    lambda s: LeakCheck("SideB", 6, actions=peeking_actions),
    lambda s: LeakCheck("SideC"),
)
"""Scripted requests played first on every seed, each built from the state it meets."""


def _deck_top_reveal(rng: random.Random, state: ProfileState) -> ViewRequest:
    seat, other = rng.sample(list(SEATS), 2)
    deck = state.zones.zone(f"{seat}.Deck")
    if not deck.count:
        return Observe(other)
    return Reveal(int(deck.top_first[0]), other)


def choose_view_request(rng: random.Random, state: ProfileState) -> ViewRequest:
    """Observation requests, deck-top reveals, draws, shuffles, deals and leak checks."""
    roll = rng.random()
    if roll < 0.45:
        return choose_observation_request(rng, state)
    if roll < 0.6:
        return _deck_top_reveal(rng, state)
    if roll < 0.7:
        return Draw(rng.choice(SEATS), movementAuthorized=rng.random() < 0.9)
    if roll < 0.78:
        seat = rng.choice(SEATS)
        return Shuffle(f"{seat}.Deck", rng.randrange(10_000) if rng.random() < 0.9 else -1)
    if roll < 0.95:
        return choose_deal(rng, state)
    return LeakCheck(rng.choice(SEATS), rng.randrange(100))


def endgame() -> ProfileState:
    """Few cards left: hidden from SideA are its 2 deck cards, SideB's deck card and hand."""
    return new_game({"SideA": [1, 2], "SideB": [21]},
                    others={"SideA.Hand": [11], "SideB.Hand": [22], "Play": [12]},
                    face_up=[12])


ENDGAME: tuple[Situation, ...] = (
    lambda s: LeakCheck("SideA"),
    lambda s: LeakCheck("SideB", 1),
    lambda s: Reveal(22, "SideA"),
    lambda s: LeakCheck("SideA", 2),
    lambda s: Draw("SideB"),
    lambda s: LeakCheck("SideA", 3),
    lambda s: Draw("SideA"),
    lambda s: LeakCheck("SideA", 4),                  # two hidden: SideA's deck card, 21
    lambda s: Observe("SideA"),
    lambda s: Flip(11, "Up"),                         # face up in SideA's hand
    lambda s: Flip(12, "Down"),                       # face down in play: hidden from SideB
    lambda s: LeakCheck("SideB", 5),                  # four hidden: every permutation
    lambda s: Draw("SideB"),                          # SideB's deck is empty
)


def play(path: Path, seed: int, start: ProfileState, situations: tuple[Situation, ...],
         steps: int) -> Path:
    """Play ``situations`` from ``start``, then ``steps`` seeded requests; the trace path."""
    rng = random.Random(f"{seed}:views:{path.name}")
    state = start
    meta = {"seed": seed, "scenario": "seat-views", "implementation": "harness 0.1.0"}
    with Recorder(path, MODULE, views_vars, meta=meta) as rec:
        rec.init(state)
        for i in range(len(situations) + steps):
            request = situations[i](state) if i < len(situations) else choose_view_request(
                rng, state)
            state, out = apply_view_request(state, request)
            rec.record(request.action, out.params, "accepted" if out.accepted else "rejected",
                       state)
    return path


def generate(out_dir: Path, seed: int, steps: int = 40) -> list[Path]:
    """Write the seat-views traces for ``seed``: the table, then the endgame."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [play(out_dir / f"seat-views-{seed}.trace.jsonl", seed, initial_state(), SITUATIONS,
                 steps),
            play(out_dir / f"seat-views-endgame-{seed}.trace.jsonl", seed, endgame(), ENDGAME,
                 0)]
