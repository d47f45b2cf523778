"""The TCS taxonomy v0.8 ``deal`` verb on top of the zone library.

Cards leave the source one at a time from ``source_position`` and land on the
target piles at ``pile_position``; every card's transfer is its own atomic
plan/commit.  With ``pile_position="top"`` each pile ends up holding its
arrivals in reverse departure order, with ``"bottom"`` in departure order.
Identities never change; only faces change, and only when ``face`` says so.

Decisions where the published contract is silent:

* ``pile_by_pile`` with a count that does not divide evenly: piles get the
  same number of cards as ``round_robin`` would give them (the first
  ``count mod len(piles)`` piles one more), but each pile receives a contiguous
  block of departures, the first pile first.
* ``source_position`` is counted from the top, 1 being the top card.  An
  integer ``k`` deals repeatedly from position ``k``: the cards at positions
  ``k, k+1, ...`` of the original order leave, in that order.  ``count="all"``
  means every card from ``source_position`` on (all of them for ``top`` and
  ``bottom``).
* A request is rejected with a :class:`~harness.zones.ZoneError` and nothing
  moves when a parameter is outside its domain, ``source_position`` is beyond
  the source, ``count`` exceeds the cards available from that position, there
  is nothing to deal (``"all"`` of an empty source), a pile is named twice, the
  source is also a pile, or a zone is not an ordered list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from harness.zones import (
    EntryId,
    Face,
    Order,
    Transfer,
    ZoneCollection,
    ZoneError,
    commit_transfer,
    plan_transfer,
)

DealCount = int | Literal["all"]
SourcePosition = Literal["top", "bottom"] | int
Distribution = Literal["round_robin", "pile_by_pile"]
PilePosition = Literal["top", "bottom"]
DealFace = Literal["face_up", "face_down", "kept"]

DISTRIBUTIONS: tuple[Distribution, ...] = ("round_robin", "pile_by_pile")
PILE_POSITIONS: tuple[PilePosition, ...] = ("top", "bottom")
DEAL_FACES: tuple[DealFace, ...] = ("face_up", "face_down", "kept")
_FACE: dict[str, Face | None] = {"face_up": "up", "face_down": "down", "kept": None}


@dataclass(frozen=True)
class DealRequest:
    """A ``deal`` with every TCS parameter and its default (``piles`` defaults to ``target``)."""

    source: str
    target: str | None = None
    piles: tuple[str, ...] | None = None
    count: DealCount = "all"
    distribution: Distribution = "round_robin"
    source_position: SourcePosition = "top"
    pile_position: PilePosition = "top"
    face: DealFace = "kept"

    @property
    def pile_list(self) -> tuple[str, ...]:
        """The target piles: ``piles`` if given, else the single ``target``."""
        if self.piles is not None:
            return tuple(self.piles)
        return () if self.target is None else (self.target,)


@dataclass(frozen=True)
class CardMove:
    """One card's departure; ``index``: its 1-based position from the source's top as it leaves."""

    entry: EntryId
    source: str
    pile: str
    index: int
    pile_position: PilePosition
    face: DealFace


@dataclass(frozen=True)
class DealResult:
    """The collection after the deal and its card moves in departure order."""

    collection: ZoneCollection
    moves: tuple[CardMove, ...]


def _bad(name: str, value: object, domain: str) -> ZoneError:
    return ZoneError(
        "bad_parameter", f"{name} must be {domain}, not {value!r}", parameter=name, value=value
    )


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def pile_assignment(n: int, piles: int, distribution: Distribution) -> tuple[int, ...]:
    """For each of ``n`` departures, the 0-based index of the pile that receives it."""
    if distribution == "round_robin":
        return tuple(i % piles for i in range(n))
    q, r = divmod(n, piles)
    sizes = [q + 1] * r + [q] * (piles - r)
    return tuple(j for j, size in enumerate(sizes) for _ in range(size))


def plan_deal(collection: ZoneCollection, request: DealRequest) -> tuple[CardMove, ...]:
    """Validate ``request`` and list its card moves, mutation-free (``ZoneError`` if invalid)."""
    r = request
    if r.count != "all" and not (_is_int(r.count) and r.count >= 1):
        raise _bad("count", r.count, "an integer >= 1 or 'all'")
    if r.distribution not in DISTRIBUTIONS:
        raise _bad("distribution", r.distribution, "round_robin or pile_by_pile")
    sp = r.source_position
    if not (
        sp in ("top", "bottom") or (isinstance(sp, int) and not isinstance(sp, bool) and sp >= 1)
    ):
        raise _bad("source_position", sp, "top, bottom or an integer >= 1")
    if r.pile_position not in PILE_POSITIONS:
        raise _bad("pile_position", r.pile_position, "top or bottom")
    if r.face not in DEAL_FACES:
        raise _bad("face", r.face, "face_up, face_down or kept")
    piles = r.pile_list
    if not piles:
        raise ZoneError("no_destination", "a deal needs a target or at least one pile")
    if r.source in piles:
        raise ZoneError(
            "source_is_destination", f"{r.source!r} cannot also be a pile", zone=r.source
        )
    if len(set(piles)) != len(piles):
        raise ZoneError("duplicate_destination", "each pile is named once", piles=piles)
    for name in (r.source, *piles):
        if collection.zone(name).spec.order is not Order.ORDERED:
            raise ZoneError("not_ordered", f"{name!r} is not an ordered pile", zone=name)
    src = collection.zone(r.source).top_first
    if _is_int(sp):
        assert isinstance(sp, int)
        if sp > len(src):
            raise ZoneError(
                "source_position_out_of_range",
                f"{r.source!r} holds {len(src)} cards; there is no position {sp}",
                source_position=sp,
                size=len(src),
            )
        available = len(src) - sp + 1
    else:
        available = len(src)
    n = available if r.count == "all" else r.count
    assert isinstance(n, int)
    if n == 0:
        raise ZoneError("nothing_to_deal", f"{r.source!r} is empty", zone=r.source)
    if n > available:
        raise ZoneError(
            "not_enough_cards",
            f"{available} cards available from {sp!r} of {r.source!r}, {n} requested",
            count=n,
            available=available,
        )
    if sp == "top":
        order, indices = src[:n], [1] * n
    elif sp == "bottom":
        order = tuple(reversed(src))[:n]
        indices = [len(src) - i for i in range(n)]
    else:
        assert isinstance(sp, int)
        order, indices = src[sp - 1 : sp - 1 + n], [sp] * n
    targets = pile_assignment(n, len(piles), r.distribution)
    return tuple(
        CardMove(e, r.source, piles[j], i, r.pile_position, r.face)
        for e, i, j in zip(order, indices, targets, strict=True)
    )


def card_transfer(move: CardMove) -> Transfer:
    """The zone transfer of one dealt card."""
    return Transfer(
        (move.entry,), move.source, move.pile, move.pile_position, face=_FACE[move.face]
    )


def deal_steps(
    collection: ZoneCollection, request: DealRequest
) -> tuple[tuple[CardMove, ZoneCollection], ...]:
    """Carry out ``request`` card by card: each card's move with the complete collection after it.

    Every card is its own plan/commit; on any error (``ZoneError``) nothing is
    returned, so nothing has moved.
    """
    current = collection
    steps: list[tuple[CardMove, ZoneCollection]] = []
    for move in plan_deal(collection, request):
        plan = plan_transfer(current, card_transfer(move))
        if not plan.ok:
            raise plan.error
        current = commit_transfer(current, plan)
        steps.append((move, current))
    return tuple(steps)


def deal(collection: ZoneCollection, request: DealRequest) -> DealResult:
    """Carry out ``request``; on any error nothing has moved (``ZoneError``)."""
    steps = deal_steps(collection, request)
    return DealResult(steps[-1][1], tuple(m for m, _ in steps))
