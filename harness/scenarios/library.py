"""The zone library's other policy axes, driven directly (no two-seat profile): lifo,
fifo, anyIndex and slot access; bags; capacities; custody; multi-entry transfers
inserted at the top, the bottom or a depth; shuffles; and plans committed after the
collection moved on (stale plans).  Recorded for the ``ZoneLibrary`` conformance
module, one trace per seed; each seed draws its own capacities.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.zones import (
    Custody,
    Transfer,
    TransitRecord,
    ZoneCollection,
    ZoneError,
    bag,
    commit_transfer,
    deal_batches,
    deal_round_robin,
    deck,
    define_zones,
    discard,
    draw,
    hand,
    plan_transfer,
    queue,
    shuffle,
    slot_row,
)
from harness.zones.policy import Access, Order
from tlaconf.trace.writer import TraceWriter

MODULE, REVISION = "ZoneLibrary", "2"
NOT_A_ZONE = "nowhere"
NOT_AN_ENTRY = 99


def layout(rng: random.Random) -> ZoneCollection:
    """Seven zones, one per policy combination, with seeded capacities."""
    cap = rng.choice([4, 5, 6])
    specs = {
        "deck": deck(),
        "queue": queue(capacity=rng.choice([None, 4, 5])),
        "hand": hand("north", capacity=cap),
        "bag": bag(),
        "row": slot_row(("a", "b", "c")),
        "aside": discard(custody=True),
        "discard": discard(),
    }
    contents: dict[str, Any] = {"deck": list(range(1, 9)), "queue": [9, 10, 11],
                                "bag": [12, 13, 14], "row": {"a": 15}, "hand": [16]}
    return define_zones(specs, contents)


def library_vars(c: ZoneCollection) -> dict[str, Any]:
    """The refinement mapping: policies, list zones top first, bags as sets (their order is
    hidden), slots as key -> set of at most one entry, transit records, the version."""
    z = c.zones
    return {
        "policy": {n: {"access": s.spec.access.value, "order": s.spec.order.value,
                       "capacity": -1 if s.spec.capacity is None else s.spec.capacity,
                       "custody": s.spec.custody} for n, s in z.items()},
        "lists": {n: list(s.top_first) for n, s in z.items() if s.spec.order is Order.ORDERED},
        "bags": {n: set(s.entries) for n, s in z.items() if s.spec.order is Order.BAG},
        "slots": {n: {k: set() if e is None else {e} for k, e in s.slots}
                  for n, s in z.items() if s.spec.order is Order.SPARSE},
        "transit": {e: {"origin": r.origin, "effect": r.effect_instance,
                        "ability": r.owning_ability} for e, r in c.transit.items()},
        "version": c.version,
    }


def transfer_params(t: Transfer, plan_version: int) -> dict[str, Any]:
    """A bool ``insert`` (no place at all) is recorded as its name, not as a depth."""
    depth = isinstance(t.insert, int) and not isinstance(t.insert, bool)
    insert = "depth" if depth else str(t.insert).lower() if isinstance(t.insert, bool) else t.insert
    return {
        "entries": list(t.entries), "source": t.source, "destination": t.destination,
        "insert": insert, "depth": t.insert if depth else 0,
        "slot": t.slot or "", "custody": t.custody is not None,
        "effect": t.custody.effect_instance if t.custody else "",
        "ability": t.custody.owning_ability if t.custody else "",
        "planVersion": plan_version,
    }


def _entries(rng: random.Random, c: ZoneCollection, source: str) -> tuple[int, ...]:
    """Entries to move: usually what the source's access allows, sometimes not."""
    if source not in c.zones:
        return (rng.choice(sorted(int(e) for e in c.entry_ids)),)
    zone = c.zones[source]
    members = [int(e) for e in zone.members]
    if not members or rng.random() < 0.04:
        return (NOT_AN_ENTRY,)
    if rng.random() < 0.02:
        return ()
    k = 1 if zone.spec.order is Order.SPARSE else rng.randint(1, min(3, len(members)))
    if rng.random() < 0.8:
        if zone.spec.access is Access.LIFO:
            return tuple(int(e) for e in zone.top_first[:k])
        if zone.spec.access is Access.FIFO:
            return tuple(int(e) for e in zone.entries[:k])
    picked = rng.sample(members, k)
    if rng.random() < 0.05:
        picked = [*picked, picked[0]]
    return tuple(picked)


def random_transfer(rng: random.Random, c: ZoneCollection) -> Transfer:
    names = sorted(c.zones)
    full = [n for n in names if c.zones[n].count]
    source = rng.choice(full if full and rng.random() < 0.95 else [*names, NOT_A_ZONE])
    destination = rng.choice([n for n in names if n != source] if rng.random() < 0.95
                             else [source, NOT_A_ZONE])
    entries = _entries(rng, c, source)
    dst = c.zones.get(destination)
    insert: Any = rng.choice(["top", "top", "bottom", "bottom", "depth"])
    if rng.random() < 0.03:
        insert = "side"
    if insert == "depth":
        insert = rng.randint(0, (dst.count if dst else 0) + 1)
    slot = None
    if dst is not None and dst.spec.order is Order.SPARSE:
        free = list(dst.free_slots())
        slot = rng.choice(free) if free and rng.random() < 0.8 else rng.choice(["a", "b", "z"])
    elif rng.random() < 0.03:
        slot = "a"
    custody = None
    if (dst is not None and dst.spec.custody and rng.random() < 0.8) or rng.random() < 0.1:
        custody = Custody(f"effect-{rng.randrange(3)}", f"ability-{rng.randrange(2)}")
    return Transfer(entries, source, destination, insert, slot, None, custody)


def _top(c: ZoneCollection, z: str, k: int) -> tuple[int, ...]:
    return tuple(int(e) for e in c.zones[z].top_first[:k])


def _front(c: ZoneCollection, z: str, k: int) -> tuple[int, ...]:
    return tuple(int(e) for e in c.zones[z].entries[:k])


def _bottom(c: ZoneCollection, z: str) -> tuple[int, ...]:
    return (int(c.zones[z].top_first[-1]),)


def _fill(c: ZoneCollection) -> Transfer:
    """Enough of the deck's top to fill the hand exactly to its capacity."""
    room = (c.zones["hand"].spec.capacity or 0) - c.zones["hand"].count
    return Transfer(_top(c, "deck", max(room, 1)), "deck", "hand", "bottom")


_CUSTODY = Custody("effect-0", "ability-0")
SITUATIONS: tuple[Any, ...] = (
    lambda c: Transfer(_top(c, "deck", 2), "deck", "hand", "top"),   # two at the top: reversed
    lambda c: Transfer(_bottom(c, "deck"), "deck", "hand"),          # lifo: not the top
    lambda c: Transfer(_top(c, "queue", 1), "queue", "discard"),     # fifo: not the front
    lambda c: Transfer(_front(c, "queue", 2), "queue", "discard", "bottom"),
    lambda c: Transfer(_top(c, "deck", 1), "deck", "discard", 0),   # depth into a lifo zone
    lambda c: Transfer(_top(c, "deck", 1), "deck", "hand", c.zones["hand"].count + 1),
    lambda c: Transfer(_top(c, "deck", 1), "deck", "hand", "side"),  # type: ignore[arg-type]
    lambda c: Transfer(_top(c, "deck", 1), "deck", "hand", True),    # a bool is not a depth
    lambda c: Transfer(_top(c, "deck", 1), "deck", "hand", 1),       # a depth in anyIndex
    lambda c: Transfer(_top(c, "deck", 1), "deck", "row", slot="a"),  # slot taken
    lambda c: Transfer(_top(c, "deck", 1), "deck", "row", slot="z"),  # no such slot
    lambda c: Transfer(_top(c, "deck", 2), "deck", "row", slot="b"),  # two in one slot
    lambda c: Transfer(_top(c, "deck", 1), "deck", "row", slot="b"),
    lambda c: Transfer(_top(c, "deck", 1), "deck", "discard", slot="b"),  # not a sparse zone
    lambda c: Transfer(_top(c, "discard", 1), "discard", "aside"),   # custody without a record
    lambda c: Transfer(_top(c, "discard", 1), "discard", "aside", custody=_CUSTODY),
    lambda c: Transfer((13, 12), "bag", "discard", "bottom"),
    lambda c: Transfer(_top(c, "discard", 1), "discard", "bag"),
    _fill,
    lambda c: Transfer(_top(c, "deck", 1), "deck", "hand"),          # over capacity
    lambda c: Transfer((), "deck", "hand"),
    lambda c: Transfer(_top(c, "deck", 1) * 2, "deck", "discard"),
    lambda c: Transfer(_top(c, "deck", 1), "deck", "deck"),
    lambda c: Transfer(_top(c, "deck", 1), "deck", NOT_A_ZONE),
    lambda c: Transfer((NOT_AN_ENTRY,), "deck", "discard"),
    lambda c: Transfer(_top(c, "deck", 1), "deck", "discard", "side"),  # type: ignore[arg-type]
)
"""Scripted transfers played first on every seed's layout: every guard of ``Transfer``
alone, and each policy axis (lifo and fifo access, depths, slots, custody, bags,
capacity, multi-entry insertion at the top and the bottom)."""


@dataclass(frozen=True)
class DrawRequest:
    """``draw``: the top (front for fifo) of an ordered zone, or a seeded bag sample."""

    source: str
    destination: str
    count: int = 1
    seed: int | None = None
    insert: Any = "top"

    def run(self, c: ZoneCollection) -> tuple[ZoneCollection, dict[str, Any]]:
        """The new collection (``c`` when refused) and the ``Draw`` params."""
        params = {"source": self.source, "destination": self.destination, "count": self.count,
                  "insert": self.insert, "seed": -1 if self.seed is None else self.seed}
        try:
            new, drawn = draw(c, self.source, self.destination, self.count, seed=self.seed,
                              insert=self.insert)
        except ZoneError:
            return c, {**params, "result": []}
        return new, {**params, "result": [int(e) for e in drawn]}


@dataclass(frozen=True)
class DealRequest:
    """``deal_round_robin`` or ``deal_batches``, shuffling the source first when seeded."""

    mode: str
    source: str
    destinations: tuple[str, ...]
    per: int
    seed: int | None = None

    def run(self, c: ZoneCollection) -> tuple[ZoneCollection, dict[str, Any]]:
        """The new collection (``c`` when refused) and the ``Deal`` params."""
        deal = deal_round_robin if self.mode == "roundRobin" else deal_batches
        before = c.zones.get(self.source)
        unshuffled = [int(e) for e in before.top_first] if before and before.spec.is_list else []
        params = {"mode": self.mode, "source": self.source,
                  "destinations": list(self.destinations), "per": self.per,
                  "seed": -1 if self.seed is None else self.seed}
        try:
            new = deal(c, self.source, self.destinations, self.per, shuffle_seed=self.seed)
        except ZoneError:
            return c, {**params, "result": unshuffled}
        if self.seed is None:
            return new, {**params, "result": unshuffled}
        return new, {**params, "result": [int(e) for e in shuffle(c, self.source,
                                                                  self.seed).zones[
                                                                      self.source].top_first]}


Request = DrawRequest | DealRequest
def _fullest(c: ZoneCollection) -> str:
    """The open list zone (deck, discard) holding the most entries."""
    return max(("deck", "discard"), key=lambda n: (c.zones[n].count, n))


def _other(c: ZoneCollection) -> str:
    return "deck" if _fullest(c) == "discard" else "discard"


REQUESTS: tuple[Callable[[ZoneCollection], Request], ...] = (
    lambda c: DrawRequest("bag", "discard"),                     # a bag needs a seed
    lambda c: DrawRequest("bag", "discard", 1, seed=3),          # a seeded sample
    lambda c: DealRequest("roundRobin", _fullest(c), (_other(c), "bag"), 1, seed=11),
    lambda c: DealRequest("batches", _fullest(c), (_other(c), "bag"), 1),
    lambda c: DealRequest("roundRobin", "queue", (_other(c),), 1),        # fifo: the front
    lambda c: DealRequest("batches", _fullest(c), (_fullest(c), _other(c)), 1),  # source too
    lambda c: DealRequest("roundRobin", _fullest(c), (_other(c), _other(c)), 1),
    lambda c: DealRequest("roundRobin", _fullest(c), (), 1),
    lambda c: DealRequest("batches", _fullest(c), ("row",), 1),           # sparse
    lambda c: DealRequest("batches", _fullest(c), ("aside",), 1),         # custody
    lambda c: DealRequest("batches", "bag", (_other(c),), 1, seed=2),     # not a list
    lambda c: DealRequest("batches", _fullest(c), (_other(c),), 0),
    lambda c: DealRequest("batches", _fullest(c), (_other(c),), 99),      # too many
    lambda c: DrawRequest(_fullest(c), _other(c), 2),            # the top two
    lambda c: DrawRequest("queue", _other(c)),                   # fifo: the front
    lambda c: DrawRequest(_fullest(c), _other(c), 1, insert="bottom"),
    lambda c: DrawRequest("row", _other(c)),                     # sparse: not drawable
    lambda c: DrawRequest(_fullest(c), "row"),                   # no slot named
    lambda c: DrawRequest(_fullest(c), "aside"),                 # custody, no record
    lambda c: DrawRequest(_fullest(c), _other(c), 0),
    lambda c: DrawRequest(_fullest(c), _other(c), c.zones[_fullest(c)].count + 1),
)
"""Scripted draws and deals: each kind of source, and each refusal."""


def record(w: TraceWriter, c: ZoneCollection, r: Request) -> ZoneCollection:
    """Run a draw or deal request on ``c``, record it, and return the new collection."""
    new, params = r.run(c)
    w.step("Draw" if isinstance(r, DrawRequest) else "Deal", params,
           "accepted" if new is not c else "rejected", library_vars(new))
    return new


def random_request(rng: random.Random, c: ZoneCollection) -> Request:
    """A draw or a deal from a random zone, sometimes seeded."""
    names = sorted(c.zones)
    full = [n for n in names if c.zones[n].count]
    source = rng.choice(full if full and rng.random() < 0.9 else names)
    seed = rng.randrange(1_000) if rng.random() < 0.6 else None
    if rng.random() < 0.6:
        dest = rng.choice([n for n in names if n != source])
        return DrawRequest(source, dest, rng.randint(1, 2), seed,
                           rng.choice(["top", "bottom"]))
    lists = [n for n in names if n != source and c.zones[n].spec.is_list
             and not c.zones[n].spec.custody]
    pool = lists if rng.random() < 0.8 else [n for n in names if n != source]
    dests = tuple(rng.sample(pool, min(len(pool), rng.randint(1, 2))))
    return DealRequest(rng.choice(["roundRobin", "batches"]), source, dests, rng.randint(1, 2),
                       seed)


def play(path: Path, seed: int, steps: int = 60) -> Path:
    rng = random.Random(f"{seed}:library")
    c = layout(rng)
    meta = {"seed": seed, "scenario": "zone-library", "implementation": "harness 0.1.0"}
    with TraceWriter(path, MODULE, REVISION, {}, meta) as w:
        w.init(library_vars(c))

        def commit(t: Transfer, plan: Any) -> None:
            nonlocal c
            if plan.ok:
                try:
                    c = commit_transfer(c, plan)
                    ok = True
                except ZoneError:
                    ok = False
            else:
                ok = False
            version = plan.version if plan.ok else c.version
            w.step("Transfer", transfer_params(t, version), "accepted" if ok else "rejected",
                   library_vars(c))

        for situation in SITUATIONS:
            t = situation(c)
            commit(t, plan_transfer(c, t))
        stale = Transfer(_top(c, "deck", 1), "deck", "discard")
        old = plan_transfer(c, stale)
        move = Transfer(_top(c, "deck", 1), "deck", "discard", "bottom")
        commit(move, plan_transfer(c, move))
        commit(stale, old)  # planned before the last move: stale

        for make in REQUESTS:
            c = record(w, c, make(c))
        for _ in range(steps):
            roll = rng.random()
            if roll < 0.15:
                c = record(w, c, random_request(rng, c))
            elif roll < 0.25:
                lists = sorted(n for n, z in c.zones.items() if z.spec.order is Order.ORDERED)
                name = rng.choice(lists) if rng.random() < 0.9 else rng.choice(["bag", "row"])
                s = rng.randrange(10_000) if rng.random() < 0.9 else -1
                try:
                    new = c if s < 0 else shuffle(c, name, s)
                except ZoneError:
                    new = c
                result = [int(e) for e in new.zones[name].top_first]
                w.step("Shuffle", {"zone": name, "seed": s, "result": result},
                       "accepted" if new is not c else "rejected", library_vars(new))
                c = new
            elif roll < 0.35:
                # a plan made now, committed after another change: stale
                first = random_transfer(rng, c)
                plan = plan_transfer(c, first)
                other = random_transfer(rng, c)
                commit(other, plan_transfer(c, other))
                commit(first, plan)
            else:
                t = random_transfer(rng, c)
                commit(t, plan_transfer(c, t))
    return path


def seeded(path: Path, seed: int) -> Path:
    """From one layout for every seed, a bag sample and a shuffled deal with the seed itself,
    into bags (their contents are sets: the states after stay alike), so the traces of
    several seeds show whether the sample and the shuffle depend on their seed.  The deck
    is defined exactly at its capacity, and a custody zone with its transit record."""
    specs = {"deck": deck(capacity=8), "bag": bag(), "pool": bag(), "north": bag(),
             "south": bag(), "aside": discard(custody=True)}
    c = define_zones(specs, {"deck": list(range(1, 9)), "bag": list(range(12, 20)),
                             "aside": [30]},
                     transit={30: TransitRecord("deck", "effect-0", "ability-0")})
    meta = {"seed": seed, "scenario": "zone-library-seeded", "implementation": "harness 0.1.0"}
    with TraceWriter(path, MODULE, REVISION, {}, meta) as w:
        w.init(library_vars(c))
        for r in (DrawRequest("bag", "pool", 8, seed),
                  DealRequest("roundRobin", "deck", ("north", "south"), 4, seed),
                  DrawRequest("deck", "pool")):                        # nothing left
            c = record(w, c, r)
    return path


def generate(out_dir: Path, seed: int) -> list[Path]:
    """Write the zone-library traces for ``seed``: the seeded walk, then the seeded draws."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [play(out_dir / f"zone-library-{seed}.trace.jsonl", seed),
            seeded(out_dir / f"zone-library-seeded-{seed}.trace.jsonl", seed)]
