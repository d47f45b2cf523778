"""Immutable zone collections, plan/commit transfers, seeded shuffle, draw and deals.

List zones store their entries canonically **bottom to top** (``entries[-1]``
is the top); positions in requests are counted from the top.  A bag keeps one
internal list (insertion order) so seeded draws replay; its visibility policy
hides that order.  A sparse zone stores every declared slot key with an entry
or ``None``.  Every operation returns a new collection; nothing is mutated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from harness.zones.errors import ZoneError
from harness.zones.policy import Access, EntryId, Order, ZoneSpec

Face = Literal["up", "down"]
FACES: tuple[Face, ...] = ("up", "down")
Insert = Literal["top", "bottom"] | int


@dataclass(frozen=True)
class Custody:
    """Why an entry is in custody: the effect instance, its ability, the cleanup owed."""

    effect_instance: str
    owning_ability: str
    cleanup: str | None = None


@dataclass(frozen=True)
class TransitRecord:
    """A custody entry's transit record: where it came from and who is responsible for it."""

    origin: str
    effect_instance: str
    owning_ability: str
    cleanup: str | None = None


@dataclass(frozen=True)
class Zone:
    """One zone's immutable state."""

    name: str
    spec: ZoneSpec
    entries: tuple[EntryId, ...] = ()
    slots: tuple[tuple[str, EntryId | None], ...] = ()

    @property
    def members(self) -> tuple[EntryId, ...]:
        """The entries present (storage order; slot order for sparse zones)."""
        if self.spec.order is Order.SPARSE:
            return tuple(e for _, e in self.slots if e is not None)
        return self.entries

    @property
    def top_first(self) -> tuple[EntryId, ...]:
        """A list zone's entries from the top down."""
        return tuple(reversed(self.entries))

    @property
    def count(self) -> int:
        """How many entries are present."""
        return len(self.members)

    def free_slots(self) -> tuple[str, ...]:
        """Declared slot keys holding no entry, in declaration order."""
        return tuple(k for k, e in self.slots if e is None)


@dataclass(frozen=True)
class ZoneCollection:
    """Every zone, per-entry faces, controllers and transit records, and a version number."""

    zones: Mapping[str, Zone]
    version: int = 0
    faces: Mapping[EntryId, Face] = field(default_factory=lambda: MappingProxyType({}))
    controllers: Mapping[EntryId, str] = field(default_factory=lambda: MappingProxyType({}))
    transit: Mapping[EntryId, TransitRecord] = field(default_factory=lambda: MappingProxyType({}))
    _where: Mapping[EntryId, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        where: dict[EntryId, str] = {}
        for name, zone in self.zones.items():
            for e in zone.members:
                where[e] = name
        object.__setattr__(self, "_where", MappingProxyType(where))

    def zone(self, name: str) -> Zone:
        """The zone called ``name`` (``unknown_zone`` otherwise)."""
        try:
            return self.zones[name]
        except KeyError:
            raise ZoneError("unknown_zone", f"no zone {name!r}", zone=name) from None

    def location(self, entry: EntryId) -> str | None:
        """The zone holding ``entry``, or None."""
        return self._where.get(entry)

    @property
    def entry_ids(self) -> frozenset[EntryId]:
        """Every entry in every zone."""
        return frozenset(self._where)

    def face(self, entry: EntryId) -> Face:
        """An entry's face (face down unless recorded otherwise)."""
        return self.faces.get(entry, "down")

    def controller(self, entry: EntryId) -> str | None:
        """Who controls ``entry``: its zone's owner, else its recorded controller."""
        where = self.location(entry)
        owner = self.zones[where].spec.owner if where is not None else None
        return owner if owner is not None else self.controllers.get(entry)


def _frozen(d: Mapping[EntryId, Any]) -> MappingProxyType[EntryId, Any]:
    return MappingProxyType(dict(d))


def define_zones(
    specs: Mapping[str, ZoneSpec],
    contents: Mapping[str, Sequence[EntryId] | Mapping[str, EntryId | None]] | None = None,
    *,
    faces: Mapping[EntryId, Face] | None = None,
    controllers: Mapping[EntryId, str] | None = None,
    transit: Mapping[EntryId, TransitRecord] | None = None,
) -> ZoneCollection:
    """A validated collection: list contents bottom to top, sparse contents as ``{slot: entry}``.

    Rejects (``ZoneError``) unknown zones, duplicate entries (within or across
    zones), excess capacity, undeclared slots, custody entries without a
    transit record and faces other than ``up``/``down``.
    """
    contents = contents or {}
    for name in contents:
        if name not in specs:
            raise ZoneError(
                "unknown_zone", f"contents given for undefined zone {name!r}", zone=name
            )
    zones: dict[str, Zone] = {}
    seen: dict[EntryId, str] = {}
    for name, spec in specs.items():
        raw = contents.get(name, ())
        if spec.order is Order.SPARSE:
            if not isinstance(raw, Mapping):
                raw = dict(zip(spec.slot_keys, raw, strict=False))
            for key in raw:
                if key not in spec.slot_keys:
                    raise ZoneError(
                        "undeclared_slot", f"zone {name!r} has no slot {key!r}", zone=name, slot=key
                    )
            slots = tuple((k, raw.get(k)) for k in spec.slot_keys)
            zone = Zone(name, spec, slots=slots)
        else:
            if isinstance(raw, Mapping):
                raise ZoneError("undeclared_slot", f"zone {name!r} has no slots", zone=name)
            zone = Zone(name, spec, entries=tuple(raw))
        for e in zone.members:
            if e in seen:
                raise ZoneError(
                    "duplicate_entry",
                    f"entry {e!r} appears in {seen[e]!r} and {name!r}",
                    entry=e,
                    zones=(seen[e], name),
                )
            seen[e] = name
        if spec.capacity is not None and zone.count > spec.capacity:
            raise ZoneError(
                "capacity_exceeded",
                f"zone {name!r} holds {zone.count} entries, capacity {spec.capacity}",
                zone=name,
                capacity=spec.capacity,
            )
        zones[name] = zone
    faces = dict(faces or {})
    for e, f in faces.items():
        if f not in FACES:
            raise ZoneError("invalid_face", f"face of {e!r} must be 'up' or 'down'", entry=e)
    transit = dict(transit or {})
    for name, zone in zones.items():
        if zone.spec.custody:
            for e in zone.members:
                if e not in transit:
                    raise ZoneError(
                        "transit_required", f"{e!r} in {name!r} has no transit record", entry=e
                    )
    return ZoneCollection(
        MappingProxyType(zones),
        0,
        _frozen(faces),
        _frozen(dict(controllers or {})),
        _frozen(transit),
    )


@dataclass(frozen=True)
class Transfer:
    """A request to move ``entries`` (in departure order) from ``source`` to ``destination``.

    ``insert`` places list-zone arrivals: ``top`` (each arrival on top, so the
    zone receives them reversed), ``bottom`` (in departure order) or a depth from
    the top (``anyIndex`` destinations only).  ``slot`` names a sparse
    destination's slot; ``face`` turns the moved entries; ``custody`` is
    required when the destination holds entries in custody.
    """

    entries: tuple[EntryId, ...]
    source: str
    destination: str
    insert: Insert = "top"
    slot: str | None = None
    face: Face | None = None
    custody: Custody | None = None


@dataclass(frozen=True)
class TransferPlan:
    """A checked transfer and the complete collection it would produce."""

    transfer: Transfer
    version: int
    result: ZoneCollection
    ok: Literal[True] = True


@dataclass(frozen=True)
class PlanFailure:
    """A transfer that cannot happen: why, and the untouched collection."""

    transfer: Transfer
    error: ZoneError
    collection: ZoneCollection
    ok: Literal[False] = False


@dataclass(frozen=True)
class Arrival:
    """What a committed transfer delivered, passed to arrival callbacks."""

    entries: tuple[EntryId, ...]
    source: str
    destination: str


def _taken(zone: Zone, entries: tuple[EntryId, ...]) -> None:
    """Check that ``entries`` may leave ``zone`` in this order under its access policy."""
    members = zone.members
    for e in entries:
        if e not in members:
            raise ZoneError(
                "not_in_source", f"{e!r} is not in {zone.name!r}", entry=e, zone=zone.name
            )
    k = len(entries)
    access = zone.spec.access
    if access is Access.LIFO and entries != zone.top_first[:k]:
        raise ZoneError(
            "access_violation",
            f"{zone.name!r} is lifo: only its top entries may leave",
            zone=zone.name,
            access=access.value,
        )
    if access is Access.FIFO and entries != zone.entries[:k]:
        raise ZoneError(
            "access_violation",
            f"{zone.name!r} is fifo: only its front entries may leave",
            zone=zone.name,
            access=access.value,
        )


def _remove(zone: Zone, entries: tuple[EntryId, ...]) -> Zone:
    gone = set(entries)
    if zone.spec.order is Order.SPARSE:
        return replace(zone, slots=tuple((k, None if e in gone else e) for k, e in zone.slots))
    return replace(zone, entries=tuple(e for e in zone.entries if e not in gone))


def _add(zone: Zone, t: Transfer) -> Zone:
    """``zone`` with the transfer's entries arrived (after access, slot and capacity checks)."""
    spec, k = zone.spec, len(t.entries)
    if spec.capacity is not None and zone.count + k > spec.capacity:
        raise ZoneError(
            "capacity_exceeded",
            f"{zone.name!r} holds {zone.count} of {spec.capacity}; {k} more do not fit",
            zone=zone.name,
            capacity=spec.capacity,
        )
    if spec.order is Order.SPARSE:
        if t.slot is None or t.slot not in spec.slot_keys:
            raise ZoneError(
                "undeclared_slot",
                f"{zone.name!r} has no slot {t.slot!r}",
                zone=zone.name,
                slot=t.slot,
            )
        if k != 1:
            raise ZoneError("slot_occupied", "a slot takes exactly one entry", slot=t.slot)
        if dict(zone.slots)[t.slot] is not None:
            raise ZoneError(
                "slot_occupied",
                f"slot {t.slot!r} of {zone.name!r} is taken",
                zone=zone.name,
                slot=t.slot,
            )
        return replace(
            zone, slots=tuple((s, t.entries[0] if s == t.slot else e) for s, e in zone.slots)
        )
    if t.slot is not None:
        raise ZoneError(
            "undeclared_slot", f"{zone.name!r} has no slots", zone=zone.name, slot=t.slot
        )
    if spec.order is Order.BAG:
        return replace(zone, entries=zone.entries + t.entries)
    top = zone.top_first
    if t.insert == "top":
        new_top = tuple(reversed(t.entries)) + top
    elif t.insert == "bottom":
        new_top = top + t.entries
    elif isinstance(t.insert, int) and not isinstance(t.insert, bool):
        if spec.access is not Access.ANY_INDEX:
            raise ZoneError(
                "access_violation",
                f"{zone.name!r} accepts arrivals only at its top or bottom",
                zone=zone.name,
                access=spec.access.value,
            )
        if not 0 <= t.insert <= len(top):
            raise ZoneError(
                "bad_position", f"depth {t.insert} is outside {zone.name!r}", depth=t.insert
            )
        new_top = top[: t.insert] + t.entries + top[t.insert :]
    else:
        raise ZoneError("bad_position", f"insert must be top, bottom or a depth, not {t.insert!r}")
    return replace(zone, entries=tuple(reversed(new_top)))


def plan_transfer(collection: ZoneCollection, transfer: Transfer) -> TransferPlan | PlanFailure:
    """Check ``transfer`` against ``collection`` without changing it.

    Source membership, access rules, destination capacity, slot availability,
    global entry uniqueness and custody are all checked before a plan exists.
    """
    try:
        return TransferPlan(transfer, collection.version, _apply(collection, transfer))
    except ZoneError as err:
        return PlanFailure(transfer, err, collection)


def _apply(c: ZoneCollection, t: Transfer) -> ZoneCollection:
    if not t.entries:
        raise ZoneError("empty_transfer", "a transfer moves at least one entry")
    if len(set(t.entries)) != len(t.entries):
        raise ZoneError("duplicate_entry", "a transfer names an entry twice", entries=t.entries)
    src, dst = c.zone(t.source), c.zone(t.destination)
    if t.source == t.destination:
        raise ZoneError("same_zone", "source and destination must differ", zone=t.source)
    _taken(src, t.entries)
    for e in t.entries:
        if c.location(e) != t.source:
            raise ZoneError("duplicate_entry", f"{e!r} is also in {c.location(e)!r}", entry=e)
    if t.face is not None and t.face not in FACES:
        raise ZoneError("invalid_face", f"face must be 'up' or 'down', not {t.face!r}")
    transit = dict(c.transit)
    for e in t.entries:
        transit.pop(e, None)
    if dst.spec.custody:
        if t.custody is None:
            raise ZoneError(
                "transit_required",
                f"{t.destination!r} holds entries only with a transit record",
                zone=t.destination,
            )
        for e in t.entries:
            transit[e] = TransitRecord(
                t.source, t.custody.effect_instance, t.custody.owning_ability, t.custody.cleanup
            )
    zones = dict(c.zones)
    zones[t.source] = _remove(src, t.entries)
    zones[t.destination] = _add(dst, t)
    faces = dict(c.faces)
    if t.face is not None:
        for e in t.entries:
            faces[e] = t.face
    return ZoneCollection(
        MappingProxyType(zones), c.version + 1, _frozen(faces), c.controllers, _frozen(transit)
    )


def commit_transfer(
    collection: ZoneCollection,
    plan: TransferPlan,
    arrive: Callable[[Arrival, ZoneCollection], None] | None = None,
) -> ZoneCollection:
    """The plan's result; ``arrive`` runs once the whole new collection exists.

    A plan made from another version of the collection is refused (``stale_plan``).
    """
    if plan.version != collection.version:
        raise ZoneError(
            "stale_plan",
            f"plan was made at version {plan.version}, the collection is at {collection.version}",
            plan_version=plan.version,
            version=collection.version,
        )
    result = plan.result
    if arrive is not None:
        t = plan.transfer
        arrive(Arrival(t.entries, t.source, t.destination), result)
    return result


def transfer(collection: ZoneCollection, request: Transfer) -> ZoneCollection:
    """Plan and commit in one call; raises the plan's ``ZoneError`` when it fails."""
    plan = plan_transfer(collection, request)
    if not plan.ok:
        raise plan.error
    return commit_transfer(collection, plan)


def _ordered_list(collection: ZoneCollection, name: str) -> Zone:
    zone = collection.zone(name)
    if zone.spec.order is not Order.ORDERED:
        raise ZoneError(
            "not_ordered",
            f"{name!r} is not an ordered list zone",
            zone=name,
            order=zone.spec.order.value,
        )
    return zone


def _with_zone(collection: ZoneCollection, zone: Zone) -> ZoneCollection:
    zones = dict(collection.zones)
    zones[zone.name] = zone
    return replace(collection, zones=MappingProxyType(zones), version=collection.version + 1)


def shuffle(collection: ZoneCollection, name: str, seed: int) -> ZoneCollection:
    """Shuffle an ordered list zone with an explicit seed (same seed, same order)."""
    zone = _ordered_list(collection, name)
    entries = list(zone.entries)
    random.Random(seed).shuffle(entries)
    return _with_zone(collection, replace(zone, entries=tuple(entries)))


def reorder(collection: ZoneCollection, name: str, top_first: Sequence[EntryId]) -> ZoneCollection:
    """Put an ordered list zone in the given order (a permutation of its entries, top first)."""
    zone = _ordered_list(collection, name)
    new = tuple(top_first)
    if len(new) != len(zone.entries) or set(new) != set(zone.entries):
        raise ZoneError(
            "not_a_permutation",
            f"the new order of {name!r} must hold exactly its entries",
            zone=name,
        )
    return _with_zone(collection, replace(zone, entries=tuple(reversed(new))))


def drawable(
    collection: ZoneCollection, source: str, count: int, seed: int | None
) -> tuple[EntryId, ...]:
    """The entries a draw of ``count`` would take, in departure order (nothing moves)."""
    zone = collection.zone(source)
    if count < 1:
        raise ZoneError("bad_count", "a draw takes at least one entry", count=count)
    if count > zone.count:
        raise ZoneError(
            "not_enough_entries",
            f"{source!r} holds {zone.count}, cannot draw {count}",
            zone=source,
            count=count,
        )
    if zone.spec.order is Order.BAG:
        if seed is None:
            raise ZoneError(
                "seed_required", "drawing from a bag takes an explicit seed", zone=source
            )
        return tuple(random.Random(seed).sample(zone.entries, count))
    if zone.spec.order is Order.SPARSE:
        raise ZoneError(
            "not_ordered", f"{source!r} is sparse: move slot entries explicitly", zone=source
        )
    if zone.spec.access is Access.FIFO:
        return zone.entries[:count]
    return zone.top_first[:count]


def draw(
    collection: ZoneCollection,
    source: str,
    destination: str,
    count: int = 1,
    *,
    seed: int | None = None,
    insert: Insert = "top",
    face: Face | None = None,
) -> tuple[ZoneCollection, tuple[EntryId, ...]]:
    """Take the top (front for fifo) of an ordered zone, or a seeded sample of a bag."""
    entries = drawable(collection, source, count, seed)
    return transfer(collection, Transfer(entries, source, destination, insert, face=face)), entries


def _prepare_deal(
    collection: ZoneCollection,
    source: str,
    destinations: Sequence[str],
    per_destination: int,
    shuffle_seed: int | None,
) -> ZoneCollection:
    """Check the deal's targets, shuffle ``source`` when seeded, and check it holds enough."""
    _check_targets(source, destinations)
    if shuffle_seed is not None:
        collection = shuffle(collection, source, shuffle_seed)
    drawable(collection, source, per_destination * len(destinations), None)
    return collection


def _check_targets(source: str, destinations: Sequence[str]) -> None:
    if not destinations:
        raise ZoneError("no_destination", "a deal needs at least one destination")
    if source in destinations:
        raise ZoneError(
            "source_is_destination", f"{source!r} cannot also be a destination", zone=source
        )
    if len(set(destinations)) != len(destinations):
        raise ZoneError("duplicate_destination", "each destination is named once")


def deal_round_robin(
    collection: ZoneCollection,
    source: str,
    destinations: Sequence[str],
    per_destination: int,
    *,
    shuffle_seed: int | None = None,
    face: Face | None = None,
) -> ZoneCollection:
    """Optionally shuffle ``source`` (seeded), then deal one entry at a time around."""
    collection = _prepare_deal(collection, source, destinations, per_destination, shuffle_seed)
    for _ in range(per_destination):
        for d in destinations:
            collection, _drawn = draw(collection, source, d, 1, face=face)
    return collection


def deal_batches(
    collection: ZoneCollection,
    source: str,
    destinations: Sequence[str],
    batch: int,
    *,
    shuffle_seed: int | None = None,
    face: Face | None = None,
) -> ZoneCollection:
    """Optionally shuffle ``source`` (seeded), then give each destination a batch at once."""
    collection = _prepare_deal(collection, source, destinations, batch, shuffle_seed)
    for d in destinations:
        collection, _drawn = draw(collection, source, d, batch, face=face)
    return collection


def set_faces(collection: ZoneCollection, faces: Iterable[tuple[EntryId, Face]]) -> ZoneCollection:
    """Turn entries face up or down."""
    new = dict(collection.faces)
    for e, f in faces:
        if collection.location(e) is None:
            raise ZoneError("unknown_entry", f"{e!r} is in no zone", entry=e)
        if f not in FACES:
            raise ZoneError("invalid_face", f"face must be 'up' or 'down', not {f!r}", entry=e)
        new[e] = f
    return replace(collection, faces=_frozen(new), version=collection.version + 1)
