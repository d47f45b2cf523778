"""Zone configuration: four independent policy axes and the presets built from them.

A zone's behaviour is fixed by its :class:`ZoneSpec` alone.  The presets
(:func:`deck`, :func:`hand`, :func:`queue`, :func:`bag`, :func:`slot_row`,
:func:`discard`) only fill in a spec; no mechanism ever looks at a preset name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from harness.zones.errors import ZoneError

EntryId = int | str
"""An entry's stable identifier (the product mints them; the profile uses integers)."""


class Access(StrEnum):
    """Which entries may leave a zone: the top (lifo), the front (fifo), any, or by slot key."""

    LIFO = "lifo"
    FIFO = "fifo"
    ANY_INDEX = "anyIndex"
    SLOTS = "slots"


class Order(StrEnum):
    """How a zone stores its entries: an ordered list, a bag (hidden internal list), or slots."""

    ORDERED = "ordered"
    BAG = "bag"
    SPARSE = "sparse"


class Visibility(StrEnum):
    """Who may see something about a zone's entries.

    ``public``: every seat; ``owner``: the entry's controller (the zone's seat
    owner when it has one); ``face``: every seat for face-up entries, the
    controller for face-down ones; ``hidden``: nobody.
    """

    PUBLIC = "public"
    OWNER = "owner"
    FACE = "face"
    HIDDEN = "hidden"


VALID_PAIRS: frozenset[tuple[Access, Order]] = frozenset(
    {
        (Access.LIFO, Order.ORDERED),
        (Access.FIFO, Order.ORDERED),
        (Access.ANY_INDEX, Order.ORDERED),
        (Access.ANY_INDEX, Order.BAG),
        (Access.SLOTS, Order.SPARSE),
    }
)
"""Access/order pairs a zone may combine (a bag has no top or front; only slots are sparse)."""


@dataclass(frozen=True)
class ZoneSpec:
    """One zone's policies.

    ``identity`` says who may see which entries are present, ``order_visibility``
    who may see their order (or slot layout); ``capacity`` bounds the entry
    count; ``slot_keys`` are the declared slots of a sparse zone; ``owner`` is
    the seat the zone belongs to; ``custody`` zones hold entries only with a
    transit record (temporary custody, e.g. set-aside objects).
    """

    access: Access
    order: Order
    identity: Visibility
    order_visibility: Visibility
    capacity: int | None = None
    slot_keys: tuple[str, ...] = ()
    owner: str | None = None
    custody: bool = False

    def __post_init__(self) -> None:
        if (self.access, self.order) not in VALID_PAIRS:
            raise ZoneError(
                "invalid_access_order",
                f"access {self.access.value!r} cannot be combined with order {self.order.value!r}",
                access=self.access.value,
                order=self.order.value,
            )
        if self.order_visibility is Visibility.FACE:
            raise ZoneError(
                "invalid_visibility",
                "order visibility cannot depend on faces (use public, owner or hidden)",
            )
        if self.capacity is not None and self.capacity < 0:
            raise ZoneError("invalid_capacity", "capacity must be >= 0", capacity=self.capacity)
        if self.order is Order.SPARSE:
            if not self.slot_keys:
                raise ZoneError("missing_slots", "a sparse zone declares at least one slot key")
            if len(set(self.slot_keys)) != len(self.slot_keys):
                raise ZoneError(
                    "duplicate_slot", "slot keys must be distinct", slots=self.slot_keys
                )
        elif self.slot_keys:
            raise ZoneError("undeclared_slot", "only sparse zones declare slot keys")

    @property
    def is_list(self) -> bool:
        """Whether entries are kept in an ordered list (as opposed to a bag or slots)."""
        return self.order is Order.ORDERED

    def with_(self, **changes: Any) -> ZoneSpec:
        """A copy with some policies changed (validated again)."""
        return replace(self, **changes)


def deck(owner: str | None = None, **overrides: Any) -> ZoneSpec:
    """A face-down draw pile: take from the top, contents and order hidden."""
    base = ZoneSpec(Access.LIFO, Order.ORDERED, Visibility.HIDDEN, Visibility.HIDDEN, owner=owner)
    return base.with_(**overrides)


def hand(owner: str, **overrides: Any) -> ZoneSpec:
    """A seat's hand: any entry may leave; contents and order visible to the owner."""
    base = ZoneSpec(
        Access.ANY_INDEX, Order.ORDERED, Visibility.OWNER, Visibility.OWNER, owner=owner
    )
    return base.with_(**overrides)


def queue(owner: str | None = None, **overrides: Any) -> ZoneSpec:
    """First in, first out, public."""
    base = ZoneSpec(Access.FIFO, Order.ORDERED, Visibility.PUBLIC, Visibility.PUBLIC, owner=owner)
    return base.with_(**overrides)


def bag(owner: str | None = None, **overrides: Any) -> ZoneSpec:
    """A draw bag: seeded samples, contents and order hidden."""
    base = ZoneSpec(Access.ANY_INDEX, Order.BAG, Visibility.HIDDEN, Visibility.HIDDEN, owner=owner)
    return base.with_(**overrides)


def slot_row(keys: tuple[str, ...], owner: str | None = None, **overrides: Any) -> ZoneSpec:
    """A row of named slots, one entry each, public."""
    base = ZoneSpec(
        Access.SLOTS,
        Order.SPARSE,
        Visibility.PUBLIC,
        Visibility.PUBLIC,
        slot_keys=keys,
        owner=owner,
    )
    return base.with_(**overrides)


def discard(owner: str | None = None, **overrides: Any) -> ZoneSpec:
    """A discard pile: take from the top; face-up contents and the order are public."""
    base = ZoneSpec(Access.LIFO, Order.ORDERED, Visibility.FACE, Visibility.PUBLIC, owner=owner)
    return base.with_(**overrides)
