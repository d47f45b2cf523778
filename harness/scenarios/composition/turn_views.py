"""TurnObservation scenarios: each seat's TurnView after moves and revelations (zones, target
choices, legal actions), revelations to seats, moves that end them, illegal requests."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from harness.composition.errors import CompositionError
from harness.composition.targets import ActionDefinition, TargetSpec
from harness.composition.turn_view import Projection, Rules, Table, TurnView
from harness.scenarios.composition import readings
from harness.scenarios.composition.common import (
    Golden,
    Move,
    Request,
    Script,
    assign,
    keep,
    record_walk,
)
from harness.zones import (
    Access,
    EntryId,
    Order,
    Transfer,
    Visibility,
    ZoneCollection,
    ZoneError,
    ZoneSpec,
    ZoneView,
    bag,
    create_information_revelation,
    deck,
    define_zones,
    hand,
    queue,
    slot_row,
)
from tlaconf.values import from_python

SEATS = ("SideA", "SideB")
SPECS = {
    "foe": TargetSpec("foe", ("SideB.Hand",), 1, cap=4),
    "mine": TargetSpec("mine", ("SideA.Hand", "Play"), 1, cap=10),
    "pair": TargetSpec("pair", ("Play",), 2, cap=3),
}
RULES = Rules(SPECS, (ActionDefinition("pass"), ActionDefinition("strike", "targets", "foe"),
                      ActionDefinition("play", "targets", "mine"),
                      ActionDefinition("swap", "targets", "pair")))
OWNER: dict[EntryId, str] = {e: "SideA" if e in (1, 2, 3, 4, 5, 6, 13) else "SideB"
                             for e in range(1, 17)}
MOVABLE = ("SideA.Deck", "SideA.Hand", "SideB.Hand", "Play", "Bag", "Queue")


def new_table() -> Table:
    """A deck, two hands, a shared play area (faces), a bag, a public slot row and a queue
    (fifo: 15 arrived before 16)."""
    specs = {"SideA.Deck": deck("SideA"), "SideA.Hand": hand("SideA"),
             "SideB.Hand": hand("SideB"),
             "Play": ZoneSpec(Access.ANY_INDEX, Order.ORDERED, Visibility.FACE,
                              Visibility.PUBLIC),
             "Bag": bag(), "Row": slot_row(("left", "mid", "right")), "Queue": queue()}
    zones = define_zones(specs, {"SideA.Deck": [1, 2, 3, 4], "SideA.Hand": [5, 6],
                                 "SideB.Hand": [7, 8], "Play": [9, 10], "Bag": [12, 11],
                                 "Row": {"left": 13, "right": 14}, "Queue": [15, 16]},
                         faces={9: "up"}, controllers=OWNER)
    return Table(zones, frozenset(SEATS))


def _policy(spec: ZoneSpec) -> dict[str, Any]:
    kind = {Order.ORDERED: "list", Order.BAG: "bag", Order.SPARSE: "slots"}[spec.order]
    return {"kind": kind, "access": spec.access.value, "identity": spec.identity.value,
            "order": spec.order_visibility.value, "owner": spec.owner or "",
            "slotKeys": list(spec.slot_keys)}


def zone_view_value(v: ZoneView) -> dict[str, Any]:
    return {"count": v.count, "identities": list(v.identities),
            "orderShown": v.order is not None,
            "order": [0 if e is None else e for e in v.order or ()],
            "slotsShown": v.slots is not None,
            "slots": [{"key": k, "occupied": o, "entry": 0 if e is None else e}
                      for k, o, e in v.slots or ()]}


def turn_view_value(v: TurnView) -> dict[str, Any]:
    return {"zones": {z: zone_view_value(zv) for z, zv in v.zones.items()},
            "targetChoices": {k: c.value() for k, c in v.target_choices.items()},
            "refused": v.actions is None,
            "actions": {from_python(a.value()) for a in v.actions or ()}}


@dataclass(frozen=True)
class Observe:
    seat: str
    view: dict[str, Any]
    label = "Observe"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "view": self.view}


@dataclass(frozen=True)
class Reveal:
    entry: int
    seats: frozenset[str]
    reason: str
    label = "Reveal"

    def params(self) -> dict[str, Any]:
        return {"entry": self.entry, "seats": set(self.seats), "reason": self.reason}


@dataclass(frozen=True)
class LeakCheck:
    """The leak check's answer: ``seat``'s view, every world compared (its zones, faces and
    that seat's view there), the verdict; ``observer``: the library's view or a product's."""

    seat: str
    observer: str
    view: dict[str, Any]
    worlds: list[dict[str, Any]]
    verdict: str
    label = "LeakCheck"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "observer": self.observer, "view": self.view,
                "worlds": self.worlds, "verdict": self.verdict}


ViewRequest = Observe | Reveal | Move | LeakCheck

EMPTY_VIEW: dict[str, Any] = {"zones": {}, "targetChoices": {}, "refused": True,
                              "actions": set()}


def world_value(zs: ZoneCollection) -> dict[str, Any]:
    """The zones (top first; a bag in canonical order; slots in key order, 0 = empty) and
    the face-up entries of a collection."""
    zones: dict[str, list[int]] = {}
    for name, zone in zs.zones.items():
        if zone.spec.order is Order.SPARSE:
            zones[name] = [0 if e is None else int(e) for _, e in zone.slots]
        elif zone.spec.order is Order.BAG:
            zones[name] = sorted(int(e) for e in zone.entries)
        else:
            zones[name] = [int(e) for e in zone.top_first]
    return {"zones": zones, "faceUp": {e for e in zs.entry_ids if zs.face(e) == "up"}}


def deck_top_shown(collection: ZoneCollection, view: TurnView) -> TurnView:
    """A product's projection with a bug: SideA's deck lists its top card's identity."""
    deck = view.zones["SideA.Deck"]
    top = collection.zones["SideA.Deck"].top_first[:1]
    shown = replace(deck, identities=tuple(sorted({*deck.identities, *top})))
    return replace(view, zones=MappingProxyType({**view.zones, "SideA.Deck": shown}))


@dataclass
class ViewMachine:
    """``TurnObservation``: the authoritative table, revelations and the public replay."""

    table: Table = field(default_factory=new_table)
    module = "TurnObservation"
    constants: ClassVar[dict[str, Any]] = {
        "Policies": {z: _policy(zone.spec) for z, zone in new_table().zones.zones.items()},
        "Controllers": dict(OWNER), "Seats": set(SEATS),
        "TargetSpecs": {k: s.value() for k, s in SPECS.items()},
        "ActionDefinitions": {from_python(d.value()) for d in RULES.definitions},
    }

    def observe(self, seat: str) -> Observe:
        """The table's TurnView for ``seat``; none (an empty view) when it refuses the seat."""
        try:
            return Observe(seat, turn_view_value(self.table.turn_view(seat, RULES)))
        except CompositionError:
            return Observe(seat, EMPTY_VIEW)

    def apply(self, r: ViewRequest) -> bool:
        try:
            match r:
                case Observe() | LeakCheck():
                    self.table.turn_view(r.seat, RULES)
                case Reveal():
                    self.table = self.table.reveal(
                        create_information_revelation(r.entry, r.seats, r.reason))
                case Move():
                    if self.table.zones.location(r.entry) != r.source:
                        return False
                    self.table = self.table.move(Transfer((r.entry,), r.source, r.destination))
        except ZoneError:
            return False
        return True

    def leak_check(self, seat: str, seed: int, projection: Projection | None = None) -> LeakCheck:
        """The table's leak check for ``seat``; none (nothing compared) for no seat."""
        observer = "library" if projection is None else "projection"
        try:
            report = self.table.leak_check(seat, RULES, seed=seed, projection=projection)
        except CompositionError:
            return LeakCheck(seat, observer, EMPTY_VIEW, [], "none")
        worlds = [{**world_value(c), "controllers": {int(e): s for e, s in c.controllers.items()},
                   "view": turn_view_value(v)} for c, v in report.worlds]
        return LeakCheck(seat, observer, turn_view_value(report.view), worlds,
                         "none" if report.leak is None else "leak")

    def variables(self) -> dict[str, Any]:
        return {**world_value(self.table.zones),
                "revealed": {from_python({"entry": r.entry, "seat": s})
                             for r in self.table.revelations for s in r.seats},
                "replay": [{"entry": r.entry, "seats": set(r.seats), "reason": r.reason}
                           for r in self.table.replay]}


def situations(m: ViewMachine) -> Iterator[Request]:
    """Requests every walk makes first, one per refusal guard: a view for no seat; a move
    from an unknown zone, to an unknown zone, within one zone, into the slot row, of an
    entry not in the source, of a deck card that is not the top one, of the queue's newest
    entry (not its front); a revelation of no
    entry, to nobody, to no seat (then a legal one)."""
    yield m.observe("SideZ")
    yield m.leak_check("SideZ", 0)
    for source, destination, entry in (("Exile", "Play", 5), ("SideA.Hand", "Exile", 5),
                                       ("SideA.Hand", "SideA.Hand", 5), ("SideA.Hand", "Row", 5),
                                       ("SideA.Hand", "Play", 7), ("SideA.Deck", "Play", 2),
                                       ("Queue", "Play", 16)):
        yield Move(entry, source, destination)
    yield Reveal(99, frozenset({"SideA"}), "no entry")
    yield Reveal(5, frozenset(), "nobody")
    yield Reveal(5, frozenset({"SideA", "SideZ"}), "no seat")
    yield Reveal(5, frozenset({"SideB"}), "shown")


def requests(rng: random.Random, m: ViewMachine, steps: int) -> Iterator[Request]:
    """The situations, then moves (some of the wrong entry or deck card), revelations and a
    view per seat."""
    yield from situations(m)
    for n in range(steps):
        roll = rng.random()
        entry = rng.randint(1, 16)
        if roll < 0.45:
            where = m.table.zones.location(entry)
            source = where if where is not None and rng.random() < 0.9 else rng.choice(MOVABLE)
            targets = (*MOVABLE, "Row", "Exile") if rng.random() < 0.15 else MOVABLE
            yield Move(entry, source if rng.random() < 0.95 else "Exile", rng.choice(targets))
        elif roll < 0.7:
            seats = frozenset(s for s in (*SEATS, "SideZ") if rng.random() < 0.55)
            yield Reveal(entry if rng.random() < 0.95 else 99, seats, f"effect {n}")
        for seat in SEATS:
            yield m.observe(seat)
        if n % 6 == 5:
            seat = rng.choice(SEATS)
            yield m.leak_check(seat, n, deck_top_shown if rng.random() < 0.25 else None)


def walk(rng: random.Random) -> tuple[ViewMachine, Iterator[Request]]:
    m = ViewMachine()
    return m, requests(rng, m, 30)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "turn-views", seed, walk)]


def _tampered(m: ViewMachine, seat: str, zone: str | None = None, **change: Any) -> Observe:
    view = m.observe(seat).view
    if zone is None:
        view.update(change)
    else:
        view["zones"][zone].update(change)
    return Observe(seat, view)


def _answer_violations() -> Golden:
    """One wrong TurnView per rule of its zones, target choices and legal actions that the
    zone-by-zone cases of :func:`golden` do not break."""
    out: Golden = {}
    full = ViewMachine().observe("SideB").view
    row = full["zones"]["Row"]["slots"]
    choices = full["targetChoices"]
    cases: list[tuple[str, str, dict[str, Any], str]] = [
        ("zone-missing", "SideA",
         {"zones": {z: v for z, v in ViewMachine().observe("SideA").view["zones"].items()
                    if z != "Bag"}}, "DOMAIN view.zones = DOMAIN st.zones"),
        ("identity-listed-twice", "SideA",
         {"zones": {**ViewMachine().observe("SideA").view["zones"],
                    "SideA.Hand": {**ViewMachine().observe("SideA").view["zones"]["SideA.Hand"],
                                   "identities": [5, 5, 6]}}},
         "Len(v.identities) = Cardinality(ids)"),
        ("empty-slot-shown-occupied", "SideB",
         {"zones": {**full["zones"], "Row": {**full["zones"]["Row"],
                                             "slots": [row[0], {**row[1], "occupied": True},
                                                       row[2]]}}},
         "v.slots = IF slotsShown THEN [i \\in 1..Len(st.zones[z]) |-> [key |-> "
         "st.policies[z].slotKeys[i], occupied |-> st.zones[z][i] # 0, entry |-> "
         "Mask(st.zones[z][i])]] ELSE <<>>"),
        ("target-spec-missing", "SideB",
         {"targetChoices": {k: v for k, v in choices.items() if k != "pair"}},
         "DOMAIN view.targetChoices = DOMAIN specs"),
        ("truncation-claimed", "SideB",
         {"targetChoices": {**choices, "foe": {**choices["foe"], "truncated": True}}},
         "view.truncated <=> CappedCount(spec, board) > spec.cap"),
        ("target-choice-too-short", "SideB",
         {"targetChoices": {**choices, "pair": {**choices["pair"], "choices": [
             c[:1] for c in choices["pair"]["choices"]]}}},
         "Len(t) = spec.count"),
        ("target-choice-repeats-a-target", "SideB",
         {"targetChoices": {**choices, "pair": {**choices["pair"], "choices": [
             (c[0], c[0]) for c in choices["pair"]["choices"]]}}},
         "t[i] # t[j]"),
        ("target-choice-missing", "SideB",
         {"targetChoices": {**choices, "foe": {**choices["foe"],
                                               "choices": choices["foe"]["choices"][:1]}}},
         "Len(view.choices) = IF CappedCount(spec, board) > spec.cap THEN spec.cap "
         "ELSE CappedCount(spec, board)"),
        ("target-choices-out-of-order", "SideB",
         {"targetChoices": {**choices, "pair": {**choices["pair"],
                                                "choices": choices["pair"]["choices"][::-1]}}},
         "\\E i \\in 1..Len(a) : a[i] < b[i] /\\ \\A j \\in 1..(i - 1) : a[j] = b[j]"),
        ("enumeration-refused", "SideB", {"refused": True, "actions": set()},
         "result.refused <=> TruncatedFor(defs, specs, board) # {}"),
    ]
    for name, seat, change, conjunct in cases:
        m = ViewMachine()
        s = Script(m)
        step = s.bug(_tampered(m, seat, **change), "accepted", keep)
        out[f"turn-views-{name}.trace.jsonl"] = (s, step, conjunct)
    m = ViewMachine()
    s = Script(m).do(Move(5, "SideA.Hand", "Play")).do(Move(6, "SideA.Hand", "Play"))
    pass_ = {from_python({"action": "pass", "targets": []})}
    step = s.bug(_tampered(m, "SideA", actions=pass_), "accepted", keep)
    out["turn-views-refused-with-actions.trace.jsonl"] = (
        s, step, "result.actions = {}")
    return out


def golden() -> Golden:
    """A conforming trace; one violation per observation and revelation rule."""
    out: Golden = {}
    m = ViewMachine()
    s = Script(m).do(m.observe("SideA")).do(m.observe("SideB"))
    s.do(Reveal(7, frozenset({"SideA"}), "peek")).do(m.observe("SideA"))
    s.do(Move(7, "SideB.Hand", "Play")).do(m.observe("SideA"))
    s.do(Move(3, "SideA.Deck", "SideA.Hand")).do(Move(4, "SideA.Deck", "Bag"))
    s.do(Move(3, "SideA.Deck", "SideA.Hand")).do(Move(13, "Row", "Play"))
    s.do(Reveal(99, frozenset({"SideB"}), "none")).do(Reveal(8, frozenset(), "nobody"))
    s.do(m.observe("SideA")).do(m.observe("SideB"))
    out["turn-views-conforming.trace.jsonl"] = (s, None, "")
    cases: list[tuple[str, str, str | None, dict[str, Any], str]] = [
        ("count-missing", "SideA", "SideA.Deck", {"count": 0},
         "v.count = Cardinality(Members(st, z))"),
        ("opponent-hand-leaked", "SideA", "SideB.Hand", {"identities": [7, 8]},
         "{v.identities[i] : i \\in 1..Len(v.identities)} = ids"),
        ("identities-not-canonical", "SideA", "SideA.Hand", {"identities": [6, 5]},
         "v.identities[i] < v.identities[i + 1]"),
        ("hidden-order-shown", "SideA", "SideA.Deck",
         {"orderShown": True, "order": [0, 0, 0, 0]}, "v.orderShown = orderShown"),
        ("face-down-identity-in-order", "SideA", "Play", {"order": [10, 9]},
         "v.order = IF orderShown THEN [i \\in 1..Len(st.zones[z]) |-> Mask(st.zones[z][i])] "
         "ELSE <<>>"),
        ("slots-missing", "SideB", "Row", {"slotsShown": False, "slots": []},
         "v.slotsShown = slotsShown"),
    ]
    for name, seat, zone, change, conjunct in cases:
        m = ViewMachine()
        s = Script(m)
        step = s.bug(_tampered(m, seat, zone, **change), "accepted", keep)
        out[f"turn-views-{name}.trace.jsonl"] = (s, step, conjunct)
    out.update(_answer_violations())
    m = ViewMachine()
    s = Script(m)
    leaked = {"foe": {"choices": [[7], [8]], "truncated": False},
              **{k: v for k, v in m.observe("SideA").view["targetChoices"].items()
                 if k != "foe"}}
    step = s.bug(_tampered(m, "SideA", targetChoices=leaked), "accepted", keep)
    out["turn-views-target-choices-leak.trace.jsonl"] = (
        s, step, "t[i] \\in Candidates(spec, board)")
    m = ViewMachine()
    s = Script(m)
    actions = {*m.observe("SideA").view["actions"],
               from_python({"action": "strike", "targets": [7]})}
    step = s.bug(_tampered(m, "SideA", actions=actions), "accepted", keep)
    out["turn-views-legal-actions-leak.trace.jsonl"] = (
        s, step, "result.actions = ActionSurface(defs, specs, board)")
    m = ViewMachine()
    s = Script(m)
    step = s.bug(Reveal(7, frozenset({"SideA"}), "peek"), "accepted", assign(
        revealed={from_python({"entry": 7, "seat": "SideA"})}))
    out["turn-views-revelation-not-in-replay.trace.jsonl"] = (
        s, step,
        "replay' = Append(replay, [entry |-> p.entry, seats |-> p.seats, reason |-> p.reason])")
    m = ViewMachine()
    s = Script(m)
    after = m.variables()
    after["zones"]["SideB.Hand"] = [8]
    after["zones"]["Play"] = [7, 10, 9]
    after["revealed"] = {from_python({"entry": 7, "seat": "SideA"})}
    after["replay"] = [{"entry": 7, "seats": {"SideA"}, "reason": "peek"}]
    step = s.bug(Reveal(7, frozenset({"SideA"}), "peek"), "accepted", assign(**after))
    out["turn-views-revelation-moves-the-entry.trace.jsonl"] = (
        s, step, "UNCHANGED <<zones, faceUp>>")
    m = ViewMachine()
    s = Script(m).do(Reveal(7, frozenset({"SideA"}), "peek"))
    moved = m.variables()
    moved["zones"]["SideB.Hand"] = [8]
    moved["zones"]["Play"] = [7, 10, 9]
    step = s.bug(Move(7, "SideB.Hand", "Play"), "accepted", assign(**moved))
    out["turn-views-revelation-outlives-the-move.trace.jsonl"] = (
        s, step, "revealed' = {r \\in revealed : r.entry # p.entry}")
    m = ViewMachine()
    s = Script(m)
    step = s.bug(Move(4, "SideA.Deck", "SideA.Hand"), "rejected", keep)
    out["turn-views-legal-draw-refused.trace.jsonl"] = (s, step, None)
    out.update(readings.turn_observation_fifo())
    out.update(_field_leaks())
    out.update(_leak_checks())
    return out


def _leak_checks() -> Golden:
    """Leak checks recorded wrong: a leak reported as none, the check going on after a leak,
    a hidden deck order or the opponent's hand never compared, a world the seat can tell
    apart, a library view that is not the reading's (of the table, of a world)."""
    out: Golden = {}

    def case(name: str, check: LeakCheck, conjunct: str) -> None:
        s = Script(ViewMachine())
        step = s.bug(check, "accepted", keep)
        out[f"turn-views-{name}.trace.jsonl"] = (s, step, conjunct)

    m = ViewMachine()
    leaky = m.leak_check("SideA", 0, deck_top_shown)
    assert leaky.verdict == "leak"
    case("leak-not-reported", replace(leaky, verdict="none"),
         'p.verdict = IF \\E i \\in DOMAIN p.worlds : p.worlds[i].view # p.view THEN "leak" '
         'ELSE "none"')
    case("leak-check-goes-on-after-a-leak",
         replace(leaky, worlds=[*leaky.worlds, leaky.worlds[0]]),
         "i = Len(p.worlds)")
    honest = m.leak_check("SideA", 0)
    real = m.variables()["zones"]
    by_order = [w for w in honest.worlds if w["zones"]["SideA.Deck"] == real["SideA.Deck"]]
    case("deck-order-not-permuted", replace(honest, worlds=by_order),
         "\\E i \\in DOMAIN p.worlds : OnlyOrderOf(WorldOf(p.worlds[i]), St, z)")
    same_places = [w for w in honest.worlds
                   if all(set(w["zones"][z]) == set(real[z]) for z in real)]
    case("opponent-hand-not-compared", replace(honest, worlds=same_places),
         "\\E i \\in DOMAIN p.worlds : \\E z \\in DOMAIN zones : "
         "Members(WorldOf(p.worlds[i]), z) # Members(St, z)")
    told = copy.deepcopy(honest.worlds[0])
    told["zones"]["SideA.Hand"], told["zones"]["SideB.Hand"] = (
        real["SideB.Hand"], real["SideA.Hand"])
    case("world-the-seat-tells-apart", replace(honest, worlds=[told, *honest.worlds]),
         "Look(WorldOf(p.worlds[i]), p.seat) = Look(St, p.seat)")
    base = copy.deepcopy(honest.view)
    base["zones"]["SideA.Hand"]["identities"] = []
    case("leak-check-view-not-the-reading", replace(honest, view=base),
         "{v.identities[i] : i \\in 1..Len(v.identities)} = ids")
    wrong = copy.deepcopy(honest.worlds)
    wrong[0]["view"]["zones"]["SideA.Deck"]["count"] = 0
    case("world-view-not-the-reading", replace(honest, worlds=wrong, verdict="leak"),
         "v.count = Cardinality(Members(st, z))")
    return out


def _field_leaks() -> Golden:
    """Views that carry what SideA may not see through a field the reading does not name:
    the deck order, every zone's stored entries, each slot's occupant, every target tuple
    over the whole table, each action's hidden card."""
    out: Golden = {}
    table = ViewMachine().variables()["zones"]
    view = ViewMachine().observe("SideA").view
    row = view["zones"]["Row"]
    leaks: list[tuple[str, dict[str, Any], str]] = [
        ("deck-order-field", {**view, "deckOrder": table["SideA.Deck"]},
         "DOMAIN p.view = TurnViewFields"),
        ("zone-entries-field", {**view, "zones": {
            z: {**v, "entries": table[z]} for z, v in view["zones"].items()}},
         "DOMAIN p.view.zones[z] = ZoneViewFields"),
        # the slot row alone (every zone's slots share one record type, an empty list's too)
        ("slot-occupant-field", {**view, "zones": {"Row": {**row, "slots": [
            {**s, "occupant": table["Row"][i]} for i, s in enumerate(row["slots"])]}}},
         "DOMAIN p.view.zones[z].slots[i] = SlotViewFields"),
        ("target-choices-field", {**view, "targetChoices": {
            k: {**c, "everyTuple": [[7], [8]]} for k, c in view["targetChoices"].items()}},
         "DOMAIN p.view.targetChoices[s] = ChoiceViewFields"),
        ("action-field", {**view, "actions": {
            from_python({**dict(a.items()), "opponentHand": [7, 8]}) for a in view["actions"]}},
         "DOMAIN x = ConcreteActionFields"),
    ]
    for name, leaked, conjunct in leaks:
        s = Script(ViewMachine())
        step = s.bug(Observe("SideA", leaked), "accepted", keep)
        out[f"turn-views-{name}-leak.trace.jsonl"] = (s, step, conjunct)
    return out

