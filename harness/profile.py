"""The reference profile (input revision 2) built on the zone library, and its refinement mapping.

Every seat has a deck, hand, discard pile and objective row; play, bank,
set-aside and removed are shared: 12 zone instances for two seats.  Requests
are plain data; :func:`apply` answers ``(state, outcome)`` and a rejected
request returns the very same state.  The ``*_vars`` functions map a state
onto the variables of the conformance modules (ordered zones top first).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, assert_never

from harness.deal import CardMove, DealRequest, deal
from harness.zones import (
    Access,
    Custody,
    EntryId,
    Order,
    Revelation,
    Transfer,
    Visibility,
    ZoneCollection,
    ZoneError,
    ZoneSpec,
    bag,
    create_information_revelation,
    deck,
    define_zones,
    discard,
    hand,
    observe,
    plan_transfer,
    reorder,
    set_faces,
    shuffle,
    slot_row,
)
from harness.zones import commit_transfer as _commit

SEATS: tuple[str, ...] = ("SideA", "SideB")
SEAT_KINDS = ("Deck", "Hand", "Discard", "Objective")
SHARED = ("Play", "Bank", "SetAside", "Removed")
UNPILED = ("Objective", "Bank", "SetAside")
"""Zone kinds that are not ordered piles of the profile (slots, a bag, custody)."""


def zone_instances(seats: Sequence[str] = SEATS) -> tuple[str, ...]:
    """The profile's zone instance names."""
    return tuple(f"{s}.{k}" for s in seats for k in SEAT_KINDS) + SHARED


def pile_zones(seats: Sequence[str] = SEATS) -> tuple[str, ...]:
    """The ordered piles: decks, hands, discard piles, play and removed."""
    return tuple(z for z in zone_instances(seats) if z.rsplit(".", 1)[-1] not in UNPILED)


def profile_specs(seats: Sequence[str], n_objects: int) -> dict[str, ZoneSpec]:
    """Every zone instance's policies (an objective row has a slot per object, at least one)."""
    keys = tuple(str(i) for i in range(1, max(n_objects, 1) + 1))
    specs: dict[str, ZoneSpec] = {}
    for s in seats:
        specs[f"{s}.Deck"] = deck(s, access=Access.ANY_INDEX)
        specs[f"{s}.Hand"] = hand(s)
        specs[f"{s}.Discard"] = discard(s, access=Access.ANY_INDEX)
        specs[f"{s}.Objective"] = slot_row(keys, s, identity=Visibility.FACE)
    specs["Play"] = ZoneSpec(Access.ANY_INDEX, Order.ORDERED, Visibility.FACE, Visibility.PUBLIC)
    specs["Bank"] = bag(identity=Visibility.FACE)
    specs["SetAside"] = ZoneSpec(
        Access.ANY_INDEX, Order.ORDERED, Visibility.FACE, Visibility.HIDDEN, custody=True
    )
    specs["Removed"] = ZoneSpec(Access.ANY_INDEX, Order.ORDERED, Visibility.FACE, Visibility.PUBLIC)
    return specs


@dataclass(frozen=True)
class ProfileState:
    """The whole implementation state: the zone collection and the revelations granted."""

    zones: ZoneCollection
    seats: tuple[str, ...] = SEATS
    revealed: frozenset[tuple[str, int]] = frozenset()


def new_game(
    decks: Mapping[str, Sequence[int]],
    *,
    others: Mapping[str, Sequence[int]] | None = None,
    face_up: Iterable[int] = (),
) -> ProfileState:
    """A game whose decks hold ``decks[seat]`` (top first); ``others`` fills other piles."""
    seats = tuple(decks)
    contents: dict[str, Sequence[int]] = {f"{s}.Deck": list(decks[s]) for s in seats}
    for z, ids in (others or {}).items():
        contents[z] = list(ids)
    ids = [i for v in contents.values() for i in v]
    owner = {i: s for s in seats for i in decks[s]}
    controllers: dict[EntryId, str] = {i: owner.get(i, seats[0]) for i in ids}
    specs = profile_specs(seats, len(ids))
    stored = {
        z: (v if specs[z].order is Order.SPARSE else list(reversed(v))) for z, v in contents.items()
    }
    zones = define_zones(specs, stored, faces={i: "up" for i in face_up}, controllers=controllers)
    return ProfileState(zones, seats)


# --- requests ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Move one object between zone instances (``ZoneMembership.Move``)."""

    id: int
    source: str
    destination: str
    movementAuthorized: bool = True
    revealRequired: bool = False
    revealedBeforeMove: bool = False
    custody: Custody | None = field(default=None, compare=False)

    action = "Move"

    def params(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self.source,
            "destination": self.destination,
            "movementAuthorized": self.movementAuthorized,
            "revealRequired": self.revealRequired,
            "revealedBeforeMove": self.revealedBeforeMove,
        }


@dataclass(frozen=True)
class SetAside:
    """Move an object into set-aside custody with its transit record (``Custody.SetAside``)."""

    id: int
    source: str
    effectInstance: str
    owningAbility: str
    cleanup: str = "none"
    movementAuthorized: bool = True

    action = "SetAside"

    def params(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class ExitSetAside:
    """Move an object out of set-aside; ``observerQualifies`` selects the reported exit view."""

    id: int
    destination: str
    observerQualifies: bool
    movementAuthorized: bool = True

    action = "Exit"

    def params(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Draw:
    """A seat draws the top card of its deck into its hand (``DeckOrder.Draw``)."""

    seat: str
    movementAuthorized: bool = True

    action = "Draw"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat, "movementAuthorized": self.movementAuthorized}


@dataclass(frozen=True)
class Shuffle:
    """Shuffle a deck with an explicit seed (``DeckOrder.Shuffle``)."""

    zone: str
    seed: int

    action = "Shuffle"

    def params(self) -> dict[str, Any]:
        return {"zone": self.zone, "seed": self.seed}


@dataclass(frozen=True)
class Reorder:
    """Put a deck in a given order, top first (``DeckOrder.Reorder``)."""

    zone: str
    order: tuple[int, ...]
    reorderContext: bool
    searchCompletion: bool = False
    shuffleOccurred: bool = False

    action = "Reorder"

    def params(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Locate:
    """Ask where an object is: a deck position or a zone (``DeckOrder.Locate``)."""

    id: int

    action = "Locate"

    def params(self) -> dict[str, Any]:
        return {"id": self.id}


@dataclass(frozen=True)
class Deal:
    """A TCS ``deal`` (``Deals.Deal``; ``Deals.DealCard`` for each card when recorded singly)."""

    request: DealRequest
    movementAuthorized: bool = True

    action = "Deal"

    def params(self) -> dict[str, Any]:
        """The ``Deals.Deal`` params: union-typed TCS parameters split into a tag and a number
        (a count that is neither an integer nor ``all`` is recorded as -1, a position that is
        neither an integer nor a name by its ``repr``)."""
        r = self.request
        sp = r.source_position
        indexed = type(sp) is int
        return {
            "source": r.source,
            "piles": list(r.pile_list),
            "countAll": r.count == "all",
            "count": r.count if type(r.count) is int else 0 if r.count == "all" else -1,
            "distribution": r.distribution,
            "sourcePosition": "index" if indexed else sp if isinstance(sp, str) else repr(sp),
            "sourceIndex": sp if indexed else 0,
            "pilePosition": r.pile_position,
            "face": r.face,
            "movementAuthorized": self.movementAuthorized,
        }


def card_params(move: CardMove, authorized: bool = True) -> dict[str, Any]:
    """The ``Deals.DealCard`` params of one dealt card."""
    return {
        "id": move.entry,
        "source": move.source,
        "index": move.index,
        "pile": move.pile,
        "pilePosition": move.pile_position,
        "face": move.face,
        "movementAuthorized": authorized,
    }


@dataclass(frozen=True)
class Flip:
    """Turn an object face ``Up`` or ``Down`` (``Observation.Flip``)."""

    id: int
    face: str

    action = "Flip"

    def params(self) -> dict[str, Any]:
        return {"id": self.id, "face": self.face}


@dataclass(frozen=True)
class Reveal:
    """Explicitly reveal an object to a seat (``Observation.Reveal``)."""

    id: int
    seat: str

    action = "Reveal"

    def params(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat}


@dataclass(frozen=True)
class Observe:
    """Ask what a seat sees (``Observation.Observe``; the view is added to the params)."""

    seat: str

    action = "Observe"

    def params(self) -> dict[str, Any]:
        return {"seat": self.seat}


Request = (
    Move
    | SetAside
    | ExitSetAside
    | Draw
    | Shuffle
    | Reorder
    | Locate
    | Deal
    | Flip
    | Reveal
    | Observe
)


@dataclass(frozen=True)
class Answer:
    """The answer to a request: accepted or not, why not, and what to record as its params."""

    accepted: bool
    params: Mapping[str, Any]
    reason: str | None = None
    result: Any = None


class Rejected(Exception):
    """A request the profile refuses (carries the reason)."""


def exit_view(origin: str, observer_qualifies: bool) -> str:
    """Where a set-aside object's exit is reported from: set-aside, or its origin."""
    return "SetAside" if observer_qualifies else origin


def _require(cond: bool, reason: str) -> None:
    if not cond:
        raise Rejected(reason)


def _is_seat_zone(state: ProfileState, zone: str, kind: str) -> bool:
    return any(zone == f"{s}.{kind}" for s in state.seats)


def _move(state: ProfileState, t: Transfer) -> ProfileState:
    z = state.zones
    dst = z.zone(t.destination)
    if dst.spec.order is Order.SPARSE:
        free = dst.free_slots()
        _require(bool(free), f"{t.destination} has no free slot")
        t = replace(t, slot=free[0])
    plan = plan_transfer(z, t)
    if not plan.ok:
        raise Rejected(plan.error.message)
    moved = set(t.entries)
    revealed = frozenset((s, i) for s, i in state.revealed if i not in moved)
    return replace(state, zones=_commit(z, plan), revealed=revealed)


def _known_zone(state: ProfileState, *zones: str) -> None:
    for z in zones:
        _require(z in state.zones.zones, f"{z!r} is not a zone instance")


def _guarded_move(state: ProfileState, r: Move) -> ProfileState:
    _known_zone(state, r.source, r.destination)
    _require(r.source != r.destination, "source and destination are the same zone")
    _require(state.zones.location(r.id) == r.source, f"{r.id} is not in {r.source}")
    _require(r.movementAuthorized, "the move is not authorized")
    _require(not r.revealRequired or r.revealedBeforeMove, "a required reveal did not happen")
    return _move(state, Transfer((r.id,), r.source, r.destination, custody=r.custody))


def _apply(state: ProfileState, r: Request) -> tuple[ProfileState, dict[str, Any], Any]:
    """The new state, extra params to record and a result; raises Rejected."""
    z = state.zones
    match r:
        case Move():
            return _guarded_move(state, r), {}, None
        case SetAside():
            custody = Custody(r.effectInstance, r.owningAbility, r.cleanup)
            move = Move(r.id, r.source, "SetAside", r.movementAuthorized, custody=custody)
            return _guarded_move(state, move), {}, None
        case ExitSetAside():
            record = z.transit.get(r.id)
            _require(record is not None and z.location(r.id) == "SetAside",
                     f"{r.id} is not set aside")
            assert record is not None
            view = exit_view(record.origin, r.observerQualifies)
            new = _guarded_move(state, Move(r.id, "SetAside", r.destination, r.movementAuthorized))
            return new, {"reported": view}, view
        case Draw():
            _require(r.seat in state.seats, f"{r.seat!r} is not a seat")
            _require(r.movementAuthorized, "the draw is not authorized")
            d = f"{r.seat}.Deck"
            _require(z.zone(d).count > 0, f"{d} is empty")
            top = z.zone(d).top_first[0]
            return _move(state, Transfer((top,), d, f"{r.seat}.Hand")), {}, top
        case Shuffle():
            _require(_is_seat_zone(state, r.zone, "Deck"), f"{r.zone!r} is not a deck")
            _require(type(r.seed) is int and r.seed >= 0, "a shuffle seed is an integer >= 0")
            new = replace(state, zones=shuffle(z, r.zone, r.seed))
            shuffled = list(new.zones.zone(r.zone).top_first)
            return new, {"result": shuffled}, shuffled
        case Reorder():
            _require(_is_seat_zone(state, r.zone, "Deck"), f"{r.zone!r} is not a deck")
            current = z.zone(r.zone).top_first
            _require(len(set(r.order)) == len(r.order), "a deck order repeats an object")
            _require(r.order == current or r.reorderContext,
                     "changing the order needs a direction or search")
            _require(not r.searchCompletion or r.shuffleOccurred,
                     "search completion needs a shuffle")
            try:
                return replace(state, zones=reorder(z, r.zone, r.order)), {}, None
            except ZoneError as err:
                raise Rejected(err.message) from None
        case Locate():
            where = location(state, r.id)
            _require(where is not None, f"{r.id} is not in the game")
            return state, {"location": where}, where
        case Deal():
            _require(r.movementAuthorized, "the deal is not authorized")
            _known_zone(state, r.request.source, *r.request.pile_list)
            for name in (r.request.source, *r.request.pile_list):
                _require(name in pile_zones(state.seats), f"{name!r} is not a pile")
            try:
                dealt = deal(z, r.request)
            except ZoneError as err:
                raise Rejected(err.message) from None
            moved = {m.entry for m in dealt.moves}
            revealed = frozenset((s, i) for s, i in state.revealed if i not in moved)
            return replace(state, zones=dealt.collection, revealed=revealed), {}, dealt.moves
        case Flip():
            _require(z.location(r.id) is not None, f"{r.id} is not in the game")
            _require(r.face in ("Up", "Down"), "a face is Up or Down")
            faces = set_faces(z, [(r.id, "up" if r.face == "Up" else "down")])
            return replace(state, zones=faces), {}, None
        case Reveal():
            _require(r.seat in state.seats, f"{r.seat!r} is not a seat")
            _require(z.location(r.id) is not None, f"{r.id} is not in the game")
            return replace(state, revealed=state.revealed | {(r.seat, r.id)}), {}, None
        case Observe():
            _require(r.seat in state.seats, f"{r.seat!r} is not a seat")
            seen = seat_view(state, r.seat)
            return state, {"view": seen}, seen
        case _:
            assert_never(r)


def _refused(state: ProfileState, r: Request) -> dict[str, Any]:
    """What a refused request records beyond its params (the answer it still gives)."""
    match r:
        case Shuffle():
            zone = state.zones.zones.get(r.zone)
            return {"result": list(zone.top_first) if zone and zone.spec.is_list else []}
        case ExitSetAside():
            record = state.zones.transit.get(r.id)
            return {"reported": "none" if record is None
                    else exit_view(record.origin, r.observerQualifies)}
        case Observe():
            return {"view": {}}
        case Locate():
            return {"location": {"kind": "nowhere", "host": 0, "zone": "", "position": 0}}
        case Move() | SetAside() | Draw() | Reorder() | Deal() | Flip() | Reveal():
            return {}
        case _:
            assert_never(r)


def apply(state: ProfileState, request: Request) -> tuple[ProfileState, Answer]:
    """Carry out ``request``; a rejected request returns ``state`` itself, untouched."""
    try:
        new, extra, result = _apply(state, request)
    except Rejected as why:
        return state, Answer(False, {**request.params(), **_refused(state, request)}, str(why))
    return new, Answer(True, {**request.params(), **extra}, None, result)


def location(state: ProfileState, entry: int) -> dict[str, Any] | None:
    """Where ``entry`` is: its deck and position from the top, else its zone (no hosting here)."""
    where = state.zones.location(entry)
    if where is None:
        return None
    if _is_seat_zone(state, where, "Deck"):
        position = state.zones.zone(where).top_first.index(entry) + 1
        return {"kind": "deck", "host": 0, "zone": where, "position": position}
    return {"kind": "zone", "host": 0, "zone": where, "position": 0}


# --- observations and legal actions ---------------------------------------------------


def revelations(state: ProfileState) -> list[Revelation]:
    """The profile's revelations as library revelations."""
    return [create_information_revelation(i, [s]) for s, i in sorted(state.revealed)]


def seat_view(state: ProfileState, seat: str) -> dict[str, dict[str, Any]]:
    """The observation of ``seat`` in the ``Observation`` module's shape: count, identities
    and the identities as listed (canonical order)."""
    views = observe(state.zones, seat, revelations(state))
    return {z: {"count": v.count, "ids": set(v.identities), "listed": list(v.identities)}
            for z, v in views.items()}


def legal_actions(zones: ZoneCollection, seat: str) -> Iterable[Hashable]:
    """What ``seat`` may ask for: draw if its deck is not empty, play or discard a hand card."""
    actions: list[Hashable] = []
    if zones.zone(f"{seat}.Deck").count:
        actions.append(("Draw", seat))
    for i in zones.zone(f"{seat}.Hand").members:
        actions += [
            ("Move", i, f"{seat}.Hand", "Play"),
            ("Move", i, f"{seat}.Hand", f"{seat}.Discard"),
        ]
    return actions


# --- refinement mapping -----------------------------------------------------------------


def membership_vars(state: ProfileState) -> dict[str, Any]:
    """``ZoneMembership``: inGameIds and occupants (every zone instance, empty ones included)."""
    z = state.zones
    return {
        "inGameIds": set(z.entry_ids),
        "occupants": {name: set(zone.members) for name, zone in z.zones.items()},
    }


def pile_vars(state: ProfileState) -> dict[str, Any]:
    """``DeckOrder``: membership plus ``piles``, every ordered pile top first."""
    z = state.zones
    piles = {name: list(z.zone(name).top_first) for name in pile_zones(state.seats)}
    return {**membership_vars(state), "piles": piles}


def deal_vars(state: ProfileState) -> dict[str, Any]:
    """``Deals``: piles plus ``faceUp``."""
    z = state.zones
    return {**pile_vars(state), "faceUp": {i for i in z.entry_ids if z.face(i) == "up"}}


def observation_vars(state: ProfileState) -> dict[str, Any]:
    """``Observation``: membership, faceUp, each object's controller, revelations per seat."""
    z = state.zones
    return {
        **membership_vars(state),
        "faceUp": {i for i in z.entry_ids if z.face(i) == "up"},
        "controller": {i: z.controllers[i] for i in z.entry_ids},
        "revealed": {s: {i for t, i in state.revealed if t == s} for s in state.seats},
    }


def custody_vars(state: ProfileState) -> dict[str, Any]:
    """``Custody``: membership plus the transit record of every set-aside object."""
    z = state.zones
    transit = {
        i: {
            "origin": t.origin,
            "effectInstance": t.effect_instance,
            "owningAbility": t.owning_ability,
            "cleanup": t.cleanup or "none",
        }
        for i, t in z.transit.items()
    }
    return {**membership_vars(state), "transit": transit}
