"""validateDeck: size, copies, tag and faction constraints, structured violations, the reading."""

from __future__ import annotations

import random

import pytest

from harness.composition.decks import DeckViolation, Submitted, submit, validate_deck
from harness.composition.errors import CompositionError
from harness.scenarios.composition.decks import CATALOG, FORMATS, LEGAL, _list
from tests.harness.composition_helpers import holds, load

DECK, SQUAD, LOADOUT = FORMATS["deck"], FORMATS["squad"], FORMATS["loadout"]


def codes(cards: tuple[str, ...], rules: object) -> set[tuple[str, str, int, int]]:
    return {(v.code, v.subject, v.limit, v.actual)
            for v in validate_deck(cards, CATALOG, rules)}  # type: ignore[arg-type]


def test_legal_lists_have_no_violations() -> None:
    for fmt, cards in LEGAL.items():
        assert validate_deck(cards, CATALOG, FORMATS[fmt]) == (), fmt


def test_size_bounds() -> None:
    assert codes(("c1",) * 11, DECK) >= {("too_many", "", 10, 11)}
    assert ("too_few", "", 1, 0) in codes((), LOADOUT)


def test_copies_with_exempt_tags() -> None:
    assert codes(("c2", "c2", "c3", "c1", "c1", "c1", "c1", "c1"), DECK) == set()
    assert codes(("c2", "c2", "c2", "c3", "c1", "c1"), DECK) == {("copies", "c2", 2, 3)}


def test_tag_minimums_and_forbidden_tags() -> None:
    assert codes(("c4", "c5", "c2"), SQUAD) >= {("tag_minimum", "elite", 1, 0)}
    assert ("tag_forbidden", "unit", 0, 1) in codes(("c4", "c5"), LOADOUT)
    assert ("tag_forbidden", "banned", 0, 1) in codes((*LEGAL["deck"], "c6"), DECK)


def test_factions_allowed_and_mixed() -> None:
    got = codes(("c3", "c7", "c2"), SQUAD)
    assert got == {("faction_count", "", 1, 2)}
    got = codes(("c2", "c2", "c5", "c1", "c1", "c7"), DECK)
    assert {("faction", "green", 0, 1), ("faction_count", "", 2, 4)} <= got


def test_unknown_cards_and_purity() -> None:
    cards = ("c2", "x9", "x9")
    assert ("unknown_card", "x9", 0, 2) in codes(cards, LOADOUT)
    assert validate_deck(cards, CATALOG, LOADOUT) == validate_deck(cards, CATALOG, LOADOUT)
    assert validate_deck(cards, CATALOG, LOADOUT) == tuple(sorted(
        validate_deck(cards, CATALOG, LOADOUT)))


def test_submission_accepts_a_legal_list_once() -> None:
    once = submit(frozenset(), Submitted("A", "deck", LEGAL["deck"]), CATALOG, DECK)
    with pytest.raises(CompositionError) as err:
        submit(once, Submitted("A", "deck", LEGAL["deck"]), CATALOG, DECK)
    assert err.value.code == "already_submitted"
    with pytest.raises(CompositionError) as err:
        submit(once, Submitted("B", "deck", ("c1",)), CATALOG, DECK)
    assert err.value.code == "illegal_list"
    assert all(isinstance(v, DeckViolation) for v in err.value.details["violations"])


@pytest.mark.parametrize("seed", range(5))
def test_the_reading_agrees_rule_by_rule(seed: int) -> None:
    ctx = load("DeckRules")
    rng = random.Random(seed)
    catalog = {k: c.value() for k, c in CATALOG.items()}
    for _ in range(6):
        fmt = rng.choice(sorted(FORMATS))
        cards = _list(rng, fmt)
        found = validate_deck(cards, CATALOG, FORMATS[fmt])
        args = (list(cards), catalog, FORMATS[fmt].value())
        assert holds(ctx, "ValidateDeckOK", {v.value() for v in found}, *args)
        if found:
            assert not holds(ctx, "ValidateDeckOK", {v.value() for v in found[1:]}, *args)
        extra = DeckViolation("copies", "c4", 1, 2)
        assert not holds(ctx, "ValidateDeckOK", {v.value() for v in (*found, extra)}, *args)
