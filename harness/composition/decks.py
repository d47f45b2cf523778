"""``validateDeck``: pure size, copies, tag and faction constraints on decks, squads or loadouts.

The same function checks any list of card (or unit, or item) ids against a
catalog and a ``DeckRules``; it changes nothing and returns every violation as
a structured ``DeckViolation`` (``code``, ``subject``, ``limit``, ``actual``), sorted.
An empty result means the list is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.composition.errors import CompositionError
from tlaconf.values import from_python


@dataclass(frozen=True)
class CardInfo:
    """What deck rules read of a catalog entry: its tags and faction."""

    tags: frozenset[str]
    faction: str

    def value(self) -> dict[str, Any]:
        return {"tags": set(self.tags), "faction": self.faction}


@dataclass(frozen=True)
class DeckRules:
    """Size bounds, copies per card (tags in ``copy_exempt`` are unlimited), tag minimums,
    forbidden tags, allowed factions and how many distinct factions a list may mix."""

    min_size: int
    max_size: int
    max_copies: int
    copy_exempt: frozenset[str] = frozenset()
    required_tags: Mapping[str, int] = field(default_factory=dict)
    forbidden_tags: frozenset[str] = frozenset()
    factions: frozenset[str] = frozenset()
    max_factions: int = 1

    def value(self) -> dict[str, Any]:
        return {"minSize": self.min_size, "maxSize": self.max_size,
                "maxCopies": self.max_copies, "copyExempt": set(self.copy_exempt),
                "requiredTags": dict(self.required_tags),
                "forbiddenTags": set(self.forbidden_tags), "factions": set(self.factions),
                "maxFactions": self.max_factions}


@dataclass(frozen=True, order=True)
class DeckViolation:
    """One broken constraint: ``subject`` is the card, tag or faction ("" for the list)."""

    code: str
    subject: str
    limit: int
    actual: int

    def value(self) -> Any:
        return from_python({"code": self.code, "subject": self.subject, "limit": self.limit,
                            "actual": self.actual})


Catalog = Mapping[str, CardInfo]


def unknown_cards(cards: Sequence[str], catalog: Catalog) -> set[DeckViolation]:
    counts = Counter(cards)
    return {DeckViolation("unknown_card", c, 0, n) for c, n in counts.items() if c not in catalog}


def size_violations(cards: Sequence[str], rules: DeckRules) -> set[DeckViolation]:
    out = set()
    if len(cards) < rules.min_size:
        out.add(DeckViolation("too_few", "", rules.min_size, len(cards)))
    if len(cards) > rules.max_size:
        out.add(DeckViolation("too_many", "", rules.max_size, len(cards)))
    return out


def copy_violations(cards: Sequence[str], catalog: Catalog, rules: DeckRules) -> set[DeckViolation]:
    return {DeckViolation("copies", c, rules.max_copies, n) for c, n in Counter(cards).items()
            if c in catalog and not catalog[c].tags & rules.copy_exempt and n > rules.max_copies}


def tag_violations(cards: Sequence[str], catalog: Catalog, rules: DeckRules) -> set[DeckViolation]:
    counts = Counter(t for c in cards if c in catalog for t in catalog[c].tags)
    return ({DeckViolation("tag_minimum", t, n, counts[t])
             for t, n in rules.required_tags.items() if counts[t] < n}
            | {DeckViolation("tag_forbidden", t, 0, counts[t])
               for t in rules.forbidden_tags if counts[t] > 0})


def faction_violations(cards: Sequence[str], catalog: Catalog,
                       rules: DeckRules) -> set[DeckViolation]:
    counts = Counter(catalog[c].faction for c in cards if c in catalog)
    out = {DeckViolation("faction", f, 0, n) for f, n in counts.items() if f not in rules.factions}
    if len(counts) > rules.max_factions:
        out.add(DeckViolation("faction_count", "", rules.max_factions, len(counts)))
    return out


#: The lists validate_deck takes; each kind is held to the same constraints.
LIST_KINDS = ("deck", "squad", "loadout")


def validate_deck(cards: Sequence[str], catalog: Catalog, rules: DeckRules,
                  kind: str = "deck") -> tuple[DeckViolation, ...]:
    """Every violation of ``rules`` by the list ``cards`` of ``kind`` (pure; empty: legal).
    The kind changes nothing but must be one validate_deck takes."""
    if kind not in LIST_KINDS:
        raise CompositionError("unknown_kind", f"{kind!r} is not a deck, squad or loadout",
                               kind=kind)
    return tuple(sorted(unknown_cards(cards, catalog) | size_violations(cards, rules)
                        | copy_violations(cards, catalog, rules)
                        | tag_violations(cards, catalog, rules)
                        | faction_violations(cards, catalog, rules)))


@dataclass(frozen=True)
class Submitted:
    """A list accepted for ``owner`` in ``format`` (deck, squad, loadout...)."""

    owner: str
    format: str
    cards: tuple[str, ...]

    def value(self) -> Any:
        return from_python({"owner": self.owner, "format": self.format, "cards": self.cards})


def submit(registered: frozenset[Submitted], entry: Submitted, catalog: Catalog,
           rules: DeckRules) -> frozenset[Submitted]:
    """Accept a legal list, one per owner and format; refuse (nothing changes) otherwise."""
    violations = validate_deck(entry.cards, catalog, rules)
    if violations:
        raise CompositionError("illegal_list", f"{len(violations)} violation(s)",
                               violations=violations)
    if any((r.owner, r.format) == (entry.owner, entry.format) for r in registered):
        raise CompositionError("already_submitted",
                               f"{entry.owner} already has a {entry.format}")
    return registered | {entry}
