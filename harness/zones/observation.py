"""Per-seat observations, explicit revelations and the information-leak check.

A seat always sees every zone's count.  It sees an entry's identity only when
the zone's identity policy allows it (or a revelation grants it), and a zone's
order or slot layout only when the order policy allows it.  Identities seen in
a zone whose order is hidden are listed in a canonical order, so insertion
history cannot leak.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from harness.zones.collection import Face, ZoneCollection
from harness.zones.errors import ZoneError
from harness.zones.policy import EntryId, Order, Visibility, ZoneSpec


@dataclass(frozen=True)
class Revelation:
    """An explicit grant: ``seats`` may see ``entry``'s identity (recorded for public replays)."""

    entry: EntryId
    seats: frozenset[str]
    reason: str = ""


def create_information_revelation(
    entry: EntryId, seats: Iterable[str], reason: str = ""
) -> Revelation:
    """A revelation of ``entry`` to ``seats``."""
    return Revelation(entry, frozenset(seats), reason)


@dataclass(frozen=True)
class ZoneView:
    """What one seat sees of one zone.

    ``identities``: the entries it may identify, canonical order; ``order``:
    top-first positions (None = unidentified) when it may see the order of a
    list zone; ``slots``: ``(key, occupied, entry-or-None)`` when it may see a
    sparse zone's layout.
    """

    count: int
    identities: tuple[EntryId, ...]
    order: tuple[EntryId | None, ...] | None = None
    slots: tuple[tuple[str, bool, EntryId | None], ...] | None = None


def _key(e: EntryId) -> tuple[str, str]:
    return (type(e).__name__, f"{e:>20}" if isinstance(e, int) else e)


def policy_allows(policy: Visibility, seat: str, face: Face, controller: str | None) -> bool:
    """Whether ``policy`` lets ``seat`` see something of an entry with this face and controller."""
    if policy is Visibility.PUBLIC:
        return True
    if policy is Visibility.OWNER:
        return seat == controller
    if policy is Visibility.FACE:
        return face == "up" or seat == controller
    return False


def sees_identity(
    collection: ZoneCollection, seat: str, entry: EntryId, revelations: Iterable[Revelation] = ()
) -> bool:
    """Whether ``seat`` may identify ``entry`` where it is now."""
    where = collection.location(entry)
    if where is None:
        raise ZoneError("unknown_entry", f"{entry!r} is in no zone", entry=entry)
    if any(r.entry == entry and seat in r.seats for r in revelations):
        return True
    spec = collection.zones[where].spec
    return policy_allows(spec.identity, seat, collection.face(entry), collection.controller(entry))


def _sees_order(spec: ZoneSpec, seat: str) -> bool:
    return policy_allows(spec.order_visibility, seat, "down", spec.owner)


def observe(
    collection: ZoneCollection, seat: str, revelations: Iterable[Revelation] = ()
) -> Mapping[str, ZoneView]:
    """Everything ``seat`` may see, zone by zone; nothing else of the internal state."""
    revelations = tuple(revelations)
    views: dict[str, ZoneView] = {}
    for name, zone in collection.zones.items():
        seen = {e for e in zone.members if sees_identity(collection, seat, e, revelations)}
        order = slots = None
        if _sees_order(zone.spec, seat):
            if zone.spec.order is Order.ORDERED:
                order = tuple(e if e in seen else None for e in zone.top_first)
            elif zone.spec.order is Order.SPARSE:
                slots = tuple((k, e is not None, e if e in seen else None) for k, e in zone.slots)
        views[name] = ZoneView(zone.count, tuple(sorted(seen, key=_key)), order, slots)
    return MappingProxyType(views)


class InformationLeak(ZoneError):
    """A seat's observation or legal actions differ between worlds it cannot tell apart."""


LegalActions = Callable[[ZoneCollection, str], Iterable[Hashable]]
Observer = Callable[[ZoneCollection, str, tuple[Revelation, ...]], object]


def _hidden_order_variants(
    collection: ZoneCollection, seat: str, rng: random.Random
) -> Iterable[tuple[str, ZoneCollection]]:
    for name, zone in collection.zones.items():
        if (
            zone.spec.order is not Order.SPARSE
            and not _sees_order(zone.spec, seat)
            and zone.count > 1
        ):
            entries = list(zone.entries)
            rng.shuffle(entries)
            if tuple(entries) == zone.entries:
                entries = entries[1:] + entries[:1]
            zones = dict(collection.zones)
            zones[name] = replace(zone, entries=tuple(entries))
            kind = "bag order" if zone.spec.order is Order.BAG else "hidden order"
            yield f"{kind} of {name}", replace(collection, zones=MappingProxyType(zones))


def _relabel(collection: ZoneCollection, pi: Mapping[EntryId, EntryId]) -> ZoneCollection:
    def f(e: EntryId) -> EntryId:
        return pi.get(e, e)

    zones = {
        n: replace(
            z,
            entries=tuple(f(e) for e in z.entries),
            slots=tuple((k, None if e is None else f(e)) for k, e in z.slots),
        )
        for n, z in collection.zones.items()
    }
    return replace(
        collection,
        zones=MappingProxyType(zones),
        faces=MappingProxyType({f(e): v for e, v in collection.faces.items()}),
        controllers=MappingProxyType({f(e): v for e, v in collection.controllers.items()}),
        transit=MappingProxyType({f(e): v for e, v in collection.transit.items()}),
    )


def _hidden_identity_variants(
    collection: ZoneCollection,
    seat: str,
    revelations: tuple[Revelation, ...],
    rng: random.Random,
    samples: int,
) -> Iterable[tuple[str, ZoneCollection]]:
    hidden = sorted(
        (e for e in collection.entry_ids if not sees_identity(collection, seat, e, revelations)),
        key=_key,
    )
    if len(hidden) < 2:
        return
    perms: Iterable[tuple[EntryId, ...]]
    if len(hidden) <= 4:
        perms = itertools.islice(itertools.permutations(hidden), 1, None)
    else:
        perms = (tuple(rng.sample(hidden, len(hidden))) for _ in range(samples))
    for perm in perms:
        yield (
            "hidden identities (deck contents, opponent hands)",
            _relabel(collection, dict(zip(hidden, perm, strict=True))),
        )


def assert_no_information_leak(
    collection: ZoneCollection,
    seat: str,
    *,
    revelations: Iterable[Revelation] = (),
    legal_actions: LegalActions | None = None,
    observer: Observer = observe,
    seed: int = 0,
    samples: int = 8,
) -> int:
    """Raise :class:`InformationLeak` unless ``seat`` sees the same in all indistinguishable worlds.

    The worlds permute hidden list order (decks), bag order and the identities
    ``seat`` may not see (deck contents, opponent hands, face-down cards); the
    seat's observation (by ``observer``, the library's :func:`observe` unless a
    product projects its own view) and, when given, its ``legal_actions`` must
    not change.
    Returns how many worlds were compared.
    """
    revelations = tuple(revelations)
    rng = random.Random(seed)
    base_view = observer(collection, seat, revelations)
    base_actions = frozenset(legal_actions(collection, seat)) if legal_actions else frozenset()
    compared = 0
    variants = itertools.chain(
        _hidden_order_variants(collection, seat, rng),
        _hidden_identity_variants(collection, seat, revelations, rng, samples),
    )
    for what, world in variants:
        compared += 1
        if observer(world, seat, revelations) != base_view:
            raise InformationLeak(
                "information_leak",
                f"{seat}'s observation depends on the {what}",
                seat=seat,
                what=what,
            )
        if legal_actions is not None:
            actions = frozenset(legal_actions(world, seat))
            if actions != base_actions:
                raise InformationLeak(
                    "information_leak",
                    f"{seat}'s legal actions depend on the {what}",
                    seat=seat,
                    what=what,
                    difference=sorted(map(repr, actions ^ base_actions)),
                )
    return compared
