"""Seeded scenario generators: random legal-and-illegal request mixes over the two-seat profile.

Each generator draws requests from the *current* state (so most are
plausible) and deliberately breaks one guard now and then: unknown zones,
same source and destination, an object not in the source, a missing
authorization or reveal, bad seeds, orders and deal parameters.  The same seed
always gives the same requests, so the traces are byte-identical.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.deal import DealRequest, deal_steps
from harness.profile import (
    SEATS,
    Deal,
    Draw,
    ExitSetAside,
    Flip,
    Locate,
    Move,
    Observe,
    ProfileState,
    Reorder,
    Request,
    Reveal,
    SetAside,
    Shuffle,
    apply,
    card_params,
    custody_vars,
    deal_vars,
    membership_vars,
    new_game,
    observation_vars,
    pile_vars,
    pile_zones,
    zone_instances,
)
from harness.recorder import Recorder
from harness.zones import Custody, ZoneCollection

Chooser = Callable[[random.Random, ProfileState], Request]
NOT_A_ZONE = "Nowhere"
NOT_AN_ID = 999
NOT_A_SEAT = "SideC"


def initial_state() -> ProfileState:
    """The scenarios' start: two 8-card decks, object 11 in SideA's hand, 12 in play (face up)."""
    return new_game(
        {"SideA": list(range(1, 9)), "SideB": list(range(21, 29))},
        others={"SideA.Hand": [11], "Play": [12], "SideB.Discard": [13]},
        face_up=[12, 13],
    )


def _zones(state: ProfileState) -> list[str]:
    return list(zone_instances(state.seats))


def _ids(state: ProfileState) -> list[int]:
    return sorted(int(i) for i in state.zones.entry_ids)


def _custody(rng: random.Random) -> Custody:
    return Custody(
        f"effect-{rng.randrange(5)}", f"ability-{rng.randrange(3)}", rng.choice(["none", "return"])
    )


def choose_move(rng: random.Random, state: ProfileState) -> Move:
    """A move: usually of a real object from where it is, sometimes broken on purpose."""
    ids = _ids(state)
    oid = rng.choice(ids) if rng.random() < 0.95 else NOT_AN_ID
    where = state.zones.location(oid)
    zones = _zones(state)
    source = where if where is not None and rng.random() < 0.9 else rng.choice(zones)
    destination = rng.choice(zones)
    roll = rng.random()
    if roll < 0.04:
        source = NOT_A_ZONE
    elif roll < 0.08:
        destination = NOT_A_ZONE
    elif roll < 0.14:
        destination = source
    reveal_required = rng.random() < 0.25
    return Move(
        oid,
        source,
        destination,
        movementAuthorized=rng.random() < 0.9,
        revealRequired=reveal_required,
        revealedBeforeMove=rng.random() < 0.6,
        custody=_custody(rng),
    )


def choose_deck_request(rng: random.Random, state: ProfileState) -> Request:
    """Reorder, shuffle or draw, with wrong zones, seeds, orders and seats now and then."""
    seat = rng.choice(SEATS) if rng.random() < 0.93 else NOT_A_SEAT
    deck = f"{seat}.Deck" if seat != NOT_A_SEAT else "SideA.Deck"
    roll = rng.random()
    if roll < 0.3:
        return Draw(seat, movementAuthorized=rng.random() < 0.85)
    if roll < 0.4:
        ids = _ids(state)
        return Locate(rng.choice(ids) if rng.random() < 0.9 else NOT_AN_ID)
    if roll < 0.6:
        zone = deck if rng.random() < 0.85 else rng.choice(["Play", f"{rng.choice(SEATS)}.Hand"])
        seed = rng.randrange(10_000) if rng.random() < 0.9 else -rng.randrange(1, 100)
        return Shuffle(zone, seed)
    order = [int(i) for i in state.zones.zone(deck).top_first]
    kind = rng.random()
    if kind < 0.2:
        pass
    elif kind < 0.75:
        rng.shuffle(order)
    elif kind < 0.85 and order:
        order = order[1:]
    elif kind < 0.92 and order:
        order = [*order, order[0]]
    else:
        order = [*order, NOT_AN_ID]
    zone = deck if rng.random() < 0.9 else "Play"
    search = rng.random() < 0.2
    return Reorder(
        zone,
        tuple(order),
        reorderContext=rng.random() < 0.8,
        searchCompletion=search,
        shuffleOccurred=not search or rng.random() < 0.6,
    )


def choose_deal(rng: random.Random, state: ProfileState) -> Deal:
    """A deal with every parameter drawn from its domain; about a third break one on purpose."""
    piles = list(pile_zones(state.seats))
    nonempty = [z for z in piles if state.zones.zone(z).count] or piles
    source = rng.choice(nonempty)
    targets = rng.sample([z for z in piles if z != source], rng.randint(1, 3))
    size = state.zones.zone(source).count
    params: dict[str, Any] = {
        "piles": tuple(targets),
        "count": rng.choice(["all", *range(1, max(2, min(size, 6)))]),
        "distribution": rng.choice(["round_robin", "pile_by_pile"]),
        "source_position": rng.choice(["top", "bottom", *range(1, max(2, size))]),
        "pile_position": rng.choice(["top", "bottom"]),
        "face": rng.choice(["kept", "face_up", "face_down"]),
    }
    authorized = True
    if rng.random() < 0.35:
        broken = rng.choice(
            [
                "auth",
                "source_in_piles",
                "duplicate",
                "count",
                "count",
                "distribution",
                "position",
                "position",
                "pile_position",
                "face",
            ]
        )
        if broken == "auth":
            authorized = False
        elif broken == "source_in_piles":
            params["piles"] = (*targets, source)
        elif broken == "duplicate":
            params["piles"] = (*targets, targets[0])
        elif broken == "count":
            params["count"] = rng.choice([0, -1, True, size + 1 + rng.randrange(3)])
        elif broken == "distribution":
            params["distribution"] = "zigzag"
        elif broken == "position":
            params["source_position"] = rng.choice([0, "middle", True,
                                                    size + 1 + rng.randrange(3)])
        elif broken == "pile_position":
            params["pile_position"] = "side"
        else:
            params["face"] = "sideways"
    return Deal(DealRequest(source, **params), movementAuthorized=authorized)


def choose_observation_request(rng: random.Random, state: ProfileState) -> Request:
    """Observe, flip, reveal or move, with unknown seats, ids and faces now and then."""
    ids = _ids(state)
    roll = rng.random()
    if roll < 0.35:
        return Observe(rng.choice(SEATS) if rng.random() < 0.93 else NOT_A_SEAT)
    if roll < 0.5:
        face = rng.choice(["Up", "Down", "Up", "Down", "Sideways"])
        return Flip(rng.choice(ids) if rng.random() < 0.93 else NOT_AN_ID, face)
    if roll < 0.65:
        seat = rng.choice(SEATS) if rng.random() < 0.93 else NOT_A_SEAT
        return Reveal(rng.choice(ids) if rng.random() < 0.93 else NOT_AN_ID, seat)
    return choose_move(rng, state)


def choose_custody_request(rng: random.Random, state: ProfileState) -> Request:
    """Set an object aside or let one exit, broken on purpose now and then."""
    held = list(state.zones.zone("SetAside").members)
    if held and rng.random() < 0.45:
        oid = int(rng.choice(held)) if rng.random() < 0.9 else rng.choice(_ids(state))
        dest = rng.choice(_zones(state))
        return ExitSetAside(oid, dest, rng.random() < 0.5, rng.random() < 0.9)
    oid = rng.choice(_ids(state))
    where = state.zones.location(oid) or NOT_A_ZONE
    source = where if rng.random() < 0.85 else rng.choice([*_zones(state), NOT_A_ZONE])
    c = _custody(rng)
    return SetAside(
        oid,
        source,
        c.effect_instance,
        c.owning_ability,
        c.cleanup or "none",
        rng.random() < 0.88,
    )


Refine = Callable[[ProfileState], dict[str, Any]]


def play(
    path: Path,
    module: str,
    refine: Refine,
    choose: Chooser,
    *,
    seed: int,
    steps: int,
    name: str,
    card_level_deals: bool = False,
    opening: tuple[Request, ...] = (),
) -> Path:
    """Play the ``opening`` requests, then ``steps`` requests drawn by ``choose``, and record
    them; returns the trace path.

    With ``card_level_deals`` an accepted deal is recorded as one ``DealCard``
    step per card (each an atomic move), a rejected one as a ``Deal`` step.
    """
    rng = random.Random(f"{seed}:{name}")
    state = initial_state()
    meta = {"seed": seed, "scenario": name, "implementation": "harness 0.1.0"}
    with Recorder(path, module, refine, meta=meta) as rec:
        rec.init(state)
        for i in range(len(opening) + steps):
            request = opening[i] if i < len(opening) else choose(rng, state)
            if card_level_deals and isinstance(request, Deal):
                state = _record_cards(rec, state, request)
                continue
            state, out = apply(state, request)
            rec.record(
                request.action, out.params, "accepted" if out.accepted else "rejected", state
            )
    return path


def _record_cards(rec: Recorder[ProfileState], state: ProfileState, request: Deal) -> ProfileState:
    new, out = apply(state, request)
    if not out.accepted:
        rec.rejected("Deal", out.params, new)
        return new
    for move, zones in deal_steps(state.zones, request.request):
        rec.accepted("DealCard", card_params(move, request.movementAuthorized), _with(state, zones))
    return new


def _with(state: ProfileState, zones: ZoneCollection) -> ProfileState:
    return replace(state, zones=zones)


SCENARIOS: dict[str, tuple[str, Refine, Chooser, bool]] = {
    "zone-membership": ("ZoneMembership", membership_vars, choose_move, False),
    "deck-order": ("DeckOrder", pile_vars, choose_deck_request, False),
    "deals": ("Deals", deal_vars, choose_deal, False),
    "deal-cards": ("Deals", deal_vars, choose_deal, True),
    "observation": ("Observation", observation_vars, choose_observation_request, False),
    "custody": ("Custody", custody_vars, choose_custody_request, False),
}
"""Scenario name -> (conformance module, refinement mapping, request chooser, card-level deals)."""


OPENINGS: dict[str, Callable[[int], tuple[Request, ...]]] = {
    "deck-order": lambda seed: (Shuffle("SideA.Deck", seed), Shuffle("SideB.Deck", 0)),
}
"""Scenario name -> the requests it starts with for a seed.  Every seed shuffles SideA's
initial deck with its own seed, so traces of two seeds show whether shuffles depend on
their seed; SideB's deck is shuffled with seed 0."""


def generate(out_dir: Path, seed: int, steps: int = 60) -> Iterator[Path]:
    """Write every scenario trace for ``seed`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, (module, refine, choose, cards) in SCENARIOS.items():
        path = out_dir / f"{name}-{seed}.trace.jsonl"
        opening = OPENINGS[name](seed) if name in OPENINGS else ()
        yield play(path, module, refine, choose, seed=seed, steps=steps, name=name,
                   card_level_deals=cards, opening=opening)
