"""``TurnView``: what one seat may see and do, and the information-leak check over all of it.

``TurnView.zones`` is the zone library's observation: every zone's count, and
identities, order or slots only where the seat's independent policies allow
(hidden list order canonicalized).  ``TurnView.target_choices`` and ``actions``
are enumerated over the entries the seat may identify, so they cannot leak a
hidden identity; ``actions`` is None when the generic enumeration refused a
truncated choice list.  ``assert_no_turn_view_leak`` compares the whole view
across worlds that permute deck order, bag order and the identities the seat
cannot see (opponent hands).  A public replay records revelations made with
``create_information_revelation``; the authoritative zone state stays the source
of truth (a revelation changes no zone, and a moved entry is no longer revealed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from harness.composition.errors import CompositionError
from harness.composition.targets import (
    ActionDefinition,
    ConcreteAction,
    TargetChoices,
    TargetSpec,
    enumerate_actions,
    target_choices,
)
from harness.zones import (
    EntryId,
    InformationLeak,
    Revelation,
    Transfer,
    ZoneCollection,
    ZoneView,
    assert_no_information_leak,
    observe,
    sees_identity,
    transfer,
)


@dataclass(frozen=True)
class TurnView:
    """One seat's view for a turn: zones, target choices, concrete actions (None: refused)."""

    seat: str
    zones: Mapping[str, ZoneView]
    target_choices: Mapping[str, TargetChoices]
    actions: frozenset[ConcreteAction] | None


@dataclass(frozen=True)
class Rules:
    """The product's target specs and action definitions a TurnView enumerates."""

    specs: Mapping[str, TargetSpec] = field(default_factory=dict)
    definitions: tuple[ActionDefinition, ...] = ()


def seat_may_target(collection: ZoneCollection, seat: str, revelations: tuple[Revelation, ...],
                    entry: EntryId) -> bool:
    """A seat's choices only name entries it may identify."""
    return sees_identity(collection, seat, entry, revelations)


def create_turn_view(collection: ZoneCollection, seat: str, rules: Rules = Rules(),
                     revelations: tuple[Revelation, ...] = ()) -> TurnView:
    """``seat``'s TurnView of ``collection``."""
    choices = target_choices(rules.specs, collection,
                             lambda e: seat_may_target(collection, seat, revelations, e))
    try:
        actions: frozenset[ConcreteAction] | None = enumerate_actions(rules.definitions, choices)
    except CompositionError:
        actions = None
    return TurnView(seat, observe(collection, seat, revelations), MappingProxyType(choices),
                    actions)


#: A product's own TurnView, made from the library's (``None``: the library's view as is).
Projection = Callable[[ZoneCollection, TurnView], TurnView]


@dataclass(frozen=True)
class LeakReport:
    """What the leak check compared: ``seat``'s view of the real table, every world it
    compared with that seat's view there (in order), and the leak it found (None: none)."""

    view: TurnView
    worlds: tuple[tuple[ZoneCollection, TurnView], ...]
    leak: InformationLeak | None


def check_turn_view_leak(collection: ZoneCollection, seat: str, rules: Rules = Rules(),
                         revelations: tuple[Revelation, ...] = (), *, seed: int = 0,
                         samples: int = 8, projection: Projection | None = None) -> LeakReport:
    """Compare ``seat``'s whole TurnView (zones, target choices, legal actions; a product's
    ``projection`` of it when given) across the worlds it cannot tell apart (permuted deck
    and bag order, its hidden identities elsewhere), stopping at the first that differs."""
    seen: list[tuple[ZoneCollection, TurnView]] = []

    def turn_view(c: ZoneCollection, s: str, r: tuple[Revelation, ...]) -> TurnView:
        v = create_turn_view(c, s, rules, r)
        return v if projection is None else projection(c, v)

    def view(c: ZoneCollection, s: str, r: tuple[Revelation, ...]) -> object:
        v = turn_view(c, s, r)
        seen.append((c, v))
        return (dict(v.zones), dict(v.target_choices))

    def actions(c: ZoneCollection, s: str) -> frozenset[ConcreteAction]:
        return turn_view(c, s, revelations).actions or frozenset()

    try:
        assert_no_information_leak(collection, seat, revelations=revelations,
                                   legal_actions=actions, observer=view, seed=seed,
                                   samples=samples)
        leak = None
    except InformationLeak as err:
        leak = err
    return LeakReport(seen[0][1], tuple(seen[1:]), leak)


def assert_no_turn_view_leak(collection: ZoneCollection, seat: str, rules: Rules = Rules(),
                             revelations: tuple[Revelation, ...] = (), *, seed: int = 0,
                             samples: int = 8) -> int:
    """Raise ``InformationLeak`` unless ``seat``'s whole TurnView (zones, target choices,
    legal actions) is the same in every world it cannot tell apart; how many were compared."""
    report = check_turn_view_leak(collection, seat, rules, revelations, seed=seed,
                                  samples=samples)
    if report.leak is not None:
        raise report.leak
    return len(report.worlds)


@dataclass(frozen=True)
class Table:
    """Authoritative zones, the seats, the revelations in force and the public replay."""

    zones: ZoneCollection
    seats: frozenset[str]
    revelations: tuple[Revelation, ...] = ()
    replay: tuple[Revelation, ...] = ()

    def turn_view(self, seat: str, rules: Rules = Rules()) -> TurnView:
        """``seat``'s TurnView of the table; only a seat of the table may observe it."""
        if seat not in self.seats:
            raise CompositionError("unknown_seat", f"{seat!r} is not a seat", seat=seat)
        return create_turn_view(self.zones, seat, rules, self.revelations)

    def reveal(self, revelation: Revelation) -> Table:
        """Reveal an entry (recorded in the public replay); no zone changes."""
        if self.zones.location(revelation.entry) is None:
            raise CompositionError("unknown_entry", f"{revelation.entry!r} is in no zone",
                                   entry=revelation.entry)
        if not revelation.seats:
            raise CompositionError("no_seats", "a revelation is made to at least one seat")
        if not revelation.seats <= self.seats:
            raise CompositionError("unknown_seat", "a revelation is made to seats only",
                                   seats=sorted(revelation.seats - self.seats))
        return replace(self, revelations=(*self.revelations, revelation),
                       replay=(*self.replay, revelation))

    def leak_check(self, seat: str, rules: Rules = Rules(), *, seed: int = 0,
                   projection: Projection | None = None) -> LeakReport:
        """The leak check of ``seat``'s TurnView of the table (seats only)."""
        if seat not in self.seats:
            raise CompositionError("unknown_seat", f"{seat!r} is not a seat", seat=seat)
        return check_turn_view_leak(self.zones, seat, rules, self.revelations, seed=seed,
                                    projection=projection)

    def move(self, request: Transfer) -> Table:
        """A zone transfer; revelations of the moved entries end (the replay keeps them)."""
        zones = transfer(self.zones, request)
        kept = tuple(r for r in self.revelations if r.entry not in request.entries)
        return replace(self, zones=zones, revelations=kept)
