"""DeckValidation scenarios: decks, squads and loadouts, legal and one change away from
legal, validated (the structured violations) and submitted."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from harness.composition.decks import (
    CardInfo,
    DeckRules,
    DeckViolation,
    Submitted,
    submit,
    validate_deck,
)
from harness.composition.errors import CompositionError
from harness.scenarios.composition.common import (
    Golden,
    Request,
    Script,
    assign,
    keep,
    record_walk,
)


def _card(faction: str, *tags: str) -> CardInfo:
    return CardInfo(frozenset(tags), faction)


CATALOG = {
    "c1": _card("neutral", "basic"), "c2": _card("red", "unit"),
    "c3": _card("red", "unit", "elite"), "c4": _card("blue", "spell"),
    "c5": _card("blue", "unit"), "c6": _card("red", "banned"),
    "c7": _card("green", "spell", "elite"), "c8": _card("neutral", "basic"),
}
FORMATS = {
    "deck": DeckRules(6, 10, 2, frozenset({"basic"}), {"unit": 2}, frozenset({"banned"}),
                      frozenset({"red", "blue", "neutral"}), 2),
    "squad": DeckRules(3, 4, 1, required_tags={"elite": 1},
                       factions=frozenset({"red", "green"}), max_factions=1),
    "loadout": DeckRules(1, 3, 1, forbidden_tags=frozenset({"unit"}),
                         factions=frozenset({"red", "blue", "green", "neutral"}),
                         max_factions=4),
}
LEGAL = {"deck": ("c2", "c2", "c3", "c1", "c1", "c1"), "squad": ("c3", "c2", "c6"),
         "loadout": ("c4", "c7")}
OWNERS = ("SideA", "SideB")


@dataclass(frozen=True)
class Validate:
    """``validate_deck``'s answer for ``cards`` under ``format``'s rules."""

    cards: tuple[str, ...]
    format: str
    violations: tuple[DeckViolation, ...]
    kind: str = ""
    label = "Validate"

    def params(self) -> dict[str, Any]:
        """The list's kind (deck, squad or loadout) is its format's unless given."""
        return {"kind": self.kind or self.format, "cards": list(self.cards),
                "rules": FORMATS[self.format].value(),
                "violations": {v.value() for v in self.violations}}


@dataclass(frozen=True)
class Submit:
    owner: str
    format: str
    cards: tuple[str, ...]
    label = "Submit"

    def params(self) -> dict[str, Any]:
        return {"owner": self.owner, "format": self.format, "cards": list(self.cards),
                "rules": FORMATS[self.format].value()}


DeckRequest = Validate | Submit


@dataclass
class DeckMachine:
    """``DeckValidation``: the submitted lists."""

    registered: frozenset[Submitted] = field(default_factory=frozenset)
    module = "DeckValidation"
    constants: ClassVar[dict[str, Any]] = {"Catalog": {k: c.value() for k, c in CATALOG.items()}}

    def apply(self, r: DeckRequest) -> bool:
        if isinstance(r, Validate):
            try:
                validate_deck(r.cards, CATALOG, FORMATS[r.format], r.kind or r.format)
            except CompositionError:
                return False
        if isinstance(r, Submit):
            try:
                self.registered = submit(self.registered, Submitted(r.owner, r.format, r.cards),
                                         CATALOG, FORMATS[r.format])
            except CompositionError:
                return False
        return True

    def variables(self) -> dict[str, Any]:
        return {"registered": {s.value() for s in self.registered}}


def validate(cards: tuple[str, ...], fmt: str) -> Validate:
    return Validate(cards, fmt, validate_deck(cards, CATALOG, FORMATS[fmt]))


def _list(rng: random.Random, fmt: str) -> tuple[str, ...]:
    """A legal list, often changed once (a card added, dropped or replaced)."""
    cards = list(LEGAL[fmt])
    rng.shuffle(cards)
    pool = [*CATALOG, "x9"]
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        roll = rng.random()
        if roll < 0.4:
            cards.insert(rng.randrange(len(cards) + 1), rng.choice(pool))
        elif roll < 0.7 and cards:
            cards.pop(rng.randrange(len(cards)))
        elif cards:
            cards[rng.randrange(len(cards))] = rng.choice(pool)
    return tuple(cards)


#: the requests every walk makes first: a list of no kind validateDeck takes, an illegal
#: list submitted, a legal one, a second list of that owner in that format
SITUATIONS: tuple[DeckRequest, ...] = (
    Validate(LEGAL["squad"], "squad", (), "sideboard"),
    Submit("SideA", "deck", ("c1",) * 11), Submit("SideA", "deck", LEGAL["deck"]),
    Submit("SideA", "deck", LEGAL["deck"]),
)


def requests(rng: random.Random, steps: int) -> Iterator[Request]:
    """The situations, then a validation of every list and (usually) its submission."""
    yield from SITUATIONS
    for _ in range(steps):
        fmt = rng.choice(sorted(FORMATS))
        cards = _list(rng, fmt)
        yield validate(cards, fmt)
        if rng.random() < 0.7:
            yield Submit(rng.choice(OWNERS), fmt, cards)


def walk(rng: random.Random) -> tuple[DeckMachine, Iterator[Request]]:
    return DeckMachine(), requests(rng, 30)


def generate(out_dir: Path, seed: int) -> list[Path]:
    """This helper's scenario trace for ``seed``."""
    return [record_walk(out_dir, "decks", seed, walk)]


def _without(v: Validate, code: str) -> Validate:
    return Validate(v.cards, v.format, tuple(x for x in v.violations if x.code != code))


def golden() -> Golden:
    """A conforming trace; one violation per constraint kind, a spurious violation, and the
    submission rules."""
    out: Golden = {}
    m = DeckMachine()
    s = Script(m)
    bad_deck = ("c2", "c3", "c3", "c3", "c6", "c4", "c7", "x9")
    s.do(validate(LEGAL["deck"], "deck")).do(validate(bad_deck, "deck"))
    s.do(validate(("c3", "c5", "c7", "c2", "c2"), "squad")).do(validate(("c2",), "loadout"))
    s.do(validate(("c1",) * 11, "deck")).do(validate((), "loadout"))
    s.do(Submit("SideA", "deck", LEGAL["deck"])).do(Submit("SideA", "deck", LEGAL["deck"]))
    s.do(Submit("SideB", "deck", bad_deck)).do(Submit("SideB", "squad", LEGAL["squad"]))
    out["decks-conforming.trace.jsonl"] = (s, None, "")
    for name, cards, fmt, code, conjunct in (
        ("size", ("c1",) * 11, "deck", "too_many",
         'coded({"too_few", "too_many"}) = SizeViolations(cards, rules)'),
        ("copies", bad_deck, "deck", "copies",
         'coded({"copies"}) = CopyViolations(cards, catalog, rules)'),
        ("tag", ("c4", "c5", "c2"), "squad", "tag_minimum",
         'coded({"tag_minimum", "tag_forbidden"}) = TagViolations(cards, catalog, rules)'),
        ("faction", bad_deck, "deck", "faction",
         'coded({"faction", "faction_count"}) = FactionViolations(cards, catalog, rules)'),
        ("unknown-card", bad_deck, "deck", "unknown_card",
         'coded({"unknown_card"}) = UnknownCards(cards, catalog)'),
    ):
        s = Script(DeckMachine())
        step = s.bug(_without(validate(cards, fmt), code), "accepted", keep)
        out[f"decks-{name}-violation-missing.trace.jsonl"] = (s, step, conjunct)
    s = Script(DeckMachine())
    basics = ("c2", "c2", "c3", "c1", "c1", "c1", "c1")
    spurious = Validate(basics, "deck", (DeckViolation("copies", "c1", 2, 4),))
    step = s.bug(spurious, "accepted", keep)
    out["decks-exempt-copies-reported.trace.jsonl"] = (
        s, step, 'coded({"copies"}) = CopyViolations(cards, catalog, rules)')
    s = Script(DeckMachine())
    honest = validate(LEGAL["deck"], "deck")
    unknown = Validate(honest.cards, honest.format, (DeckViolation("too_old", "c1", 0, 1),))
    step = s.bug(unknown, "accepted", keep)
    out["decks-unknown-code-reported.trace.jsonl"] = (
        s, step, "violations = DeckViolations(cards, catalog, rules)")
    s = Script(DeckMachine())
    step = s.bug(Submit("SideA", "deck", bad_deck), "accepted", assign(registered={
        Submitted("SideA", "deck", bad_deck).value()}))
    out["decks-illegal-list-accepted.trace.jsonl"] = (
        s, step, "DeckViolations(p.cards, Catalog, p.rules) = {}")
    s = Script(DeckMachine())
    step = s.bug(Submit("SideB", "loadout", LEGAL["loadout"]), "rejected", keep)
    out["decks-legal-list-refused.trace.jsonl"] = (s, step, None)
    out.update(_every_kind())
    return out


def _every_kind() -> Golden:
    """"validateDeck applies pure size, copies, tag, and faction constraints to decks,
    squads, or loadouts": the same list under the same rules gets the same violations
    whatever its kind; a helper that checks decks only lets a squad through."""
    out: Golden = {}
    cards = ("c3", "c5", "c7", "c2", "c2")
    s = Script(DeckMachine())
    for kind in ("deck", "squad", "loadout"):
        s.do(replace(validate(cards, "squad"), kind=kind))
    out["decks-every-kind-validated-alike.trace.jsonl"] = (s, None, "")
    s = Script(DeckMachine())
    s.do(replace(validate(cards, "squad"), kind="deck"))
    step = s.bug(Validate(cards, "squad", (), "squad"), "accepted", keep)
    out["decks-squad-not-validated.trace.jsonl"] = (
        s, step, 'coded({"too_few", "too_many"}) = SizeViolations(cards, rules)')
    s = Script(DeckMachine())
    step = s.bug(replace(validate(cards, "squad"), kind="sideboard"), "accepted", keep)
    out["decks-unknown-list-kind-validated.trace.jsonl"] = (s, step, "p.kind \\in ListKinds")
    return out
