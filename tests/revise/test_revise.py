"""``tlaconf revise``: a new revision of the profile from revision 2 and pages in the seeds' format.

The pages under ``pages/`` are tlaconf's own (prose written for these tests,
definitions CC0): a changed guard (``AbilityShape9``), a removed conjunct
(``AtomicZoneMove4``, ``ReturnAbility9``), new operators (one using a name
defined elsewhere in the profile), lines that lost their indentation and
trailers glued to the last line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.paths import SEEDS
from tlaconf.cli.main import main
from tlaconf.tla.parser import load_module_file
from tlaconf.tla.resolve import load

ROOT = Path(__file__).resolve().parents[2]
PAGES = Path(__file__).with_name("pages")
MARK2 = "reference-profile · input revision 2 · CC0 1.0"
MARK3 = "reference-profile · input revision 3 · CC0 1.0"
TRAILER = "Definition and resolved references · Exact module download"
SIX = ["ZonePartition4", "AtomicZoneMove4", "DefaultZoneLook4", "AbilityShape9",
       "AbilitySource9", "ReturnAbility9"]  # fmt: skip


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """A copy of the repository's spec/ tree."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    return tmp_path / "spec"


def revise(
    capsys: pytest.CaptureFixture[str], spec: Path, *args: str | Path
) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["revise", *map(str, args), "--spec", str(spec)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def page(tmp_path: Path, name: str, *blocks: str, title: str = "A test page") -> Path:
    """A page in the seeds' format: title, then (section, definition text) blocks."""
    lines = ["On this page", "", title, "", "Prose written for this test.", ""]
    for block in blocks:
        section, _, text = block.partition("\n")
        lines += [section, "", "Some prose.", MARK3, text, TRAILER, ""]
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def operators(out: str) -> dict[str, tuple[str, str]]:
    return {o["name"]: (o["module"], o["status"]) for o in json.loads(out)["operators"]}


def test_republished_definitions_are_unchanged(
    spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.name: p.read_bytes() for p in (spec / "reference-profile" / "rev2").iterdir()}
    code, out, _ = revise(capsys, spec, PAGES / "published-rev2.txt", "--from", "2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["from"], doc["to"], doc["written"]) == ("2", "2", False)
    assert [(o["name"], o["status"]) for o in doc["operators"]] == [(n, "unchanged") for n in SIX]
    after = {p.name: p.read_bytes() for p in (spec / "reference-profile" / "rev2").iterdir()}
    assert after == before


def test_the_four_seed_pages_into_revision_2(
    spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = revise(capsys, spec, *sorted(SEEDS.glob("*.txt")), "--from", "2", "--json")
    assert code == 0
    assert operators(out) == {
        "ZonePartition4": ("Zones4", "unchanged"), "AtomicZoneMove4": ("Zones4", "unchanged"),
        "DefaultZoneLook4": ("ZoneLook4", "unchanged"),
        "AbilityShape9": ("Abilities9", "unchanged"),
        "AbilitySource9": ("Abilities9", "unchanged"),
        "ReturnAbility9": ("Abilities9", "unchanged"),
    }  # fmt: skip
    code, out, _ = revise(capsys, spec, *sorted(SEEDS.glob("*.txt")), "--from", "2", "--to", "9")
    assert code == 0 and "0 changed, 0 new, 6 unchanged" in out
    for tla in (spec / "reference-profile" / "rev2").glob("*.tla"):  # the same text again
        assert (spec / "reference-profile" / "rev9" / tla.name).read_text() == tla.read_text()


def test_revision_3_from_two_pages(spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = [PAGES / "zones-rev3.txt", PAGES / "abilities-rev3.txt"]
    code, out, err = revise(capsys, spec, *pages, "--from", "2", "--json")
    assert code == 0, err
    assert operators(out) == {
        "ZonePartition4": ("Zones4", "unchanged"),
        "ZoneCount4": ("Zones4", "new"),
        "SeatZoneNames4": ("Zones4", "new"),
        "AtomicZoneMove4": ("Zones4", "changed"),
        "AbilityShape9": ("Abilities9", "changed"),
        "ReturnAbility9": ("Abilities9", "changed"),
        "UsesThisTurn9": ("Abilities9", "new"),
    }
    rev3 = spec / "reference-profile" / "rev3"
    zones = (rev3 / "Zones4.tla").read_text(encoding="utf-8")
    assert "(revealRequired => revealedBeforeMove)" not in zones
    assert f"\\* verbatim: zones-rev3.txt, {MARK3}\nAtomicZoneMove4(" in zones
    assert "\\* authored: 000_06548165aa2c0842.txt" in zones  # authored definitions stay
    abilities = (rev3 / "Abilities9.tla").read_text(encoding="utf-8")
    # the flattened body is indented again; the definition is the page's
    assert "\n    /\\ after = [before EXCEPT !.returned = TRUE]\n" in abilities
    assert "caller = before.caller" not in abilities.split("ReturnAbility9(")[1]
    assert abilities.index("UsesThisTurn9(") > abilities.index("ReturnAbility9(")
    # untouched modules are copied; the new revision resolves with the conformance modules
    for name in ("DeckOrder4.tla", "Locations4.tla", "SetAside4.tla"):
        assert (rev3 / name).read_bytes() == (spec / "reference-profile/rev2" / name).read_bytes()
    for module in ("ZoneMembership", "AbilityLifecycle", "Deals"):
        load(spec / "conformance" / f"{module}.tla", [spec / "conformance", rev3, spec / "tcs"])
    assert "UsesThisTurn9" in load_module_file(rev3 / "Abilities9.tla").definitions()


def test_text_report_and_dry_run(spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = revise(capsys, spec, PAGES / "zones-rev3.txt", "--from", "2", "--dry-run")
    assert code == 0
    assert "revise: revision 2 -> 3" in out
    assert "changed    Zones4  AtomicZoneMove4" in out
    assert "new        Zones4  ZoneCount4" in out
    assert "placed: with ZonePartition4 (same section of the page)" in out
    assert "would write" in out and "1 changed, 2 new, 1 unchanged (--dry-run)" in out
    assert not (spec / "reference-profile" / "rev3").exists()


def test_an_existing_revision_is_never_overwritten(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zones = PAGES / "zones-rev3.txt"
    assert revise(capsys, spec, zones, "--from", "2")[0] == 0
    code, out, _ = revise(capsys, spec, zones, "--from", "2")
    assert code == 0 and "is up to date" in out  # the CI job can run revise again
    text = zones.read_text(encoding="utf-8").replace("/\\ movementAuthorized\n", "/\\ TRUE\n")
    other = tmp_path / "zones-rev3b.txt"
    other.write_text(text, encoding="utf-8")
    code, _, err = revise(capsys, spec, other, "--from", "2")
    assert code == 2 and "already exists and does not hold the pages' definitions" in err


def test_an_authored_definition_is_replaced_by_published_text(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = 'Seats\nSeatZones4(s) == {s \\o "-" \\o k : k \\in SeatZoneKinds4}'
    p = page(tmp_path, "p.txt", seats)
    code, out, _ = revise(capsys, spec, p, "--from", "2")
    assert code == 0 and "replaces an authored definition" in out
    zones = (spec / "reference-profile" / "rev3" / "Zones4.tla").read_text(encoding="utf-8")
    assert '\\* verbatim: p.txt, reference-profile · input revision 3 · CC0 1.0\nSeatZones4(s) == {s \\o "-"' in zones  # noqa: E501
    assert zones.count("SeatZones4(s) ==") == 1


def test_placement_rules(spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = page(
        tmp_path, "deck.txt",
        "Keep order where it carries information\nTopCard4(seq) == seq[1]",
        "Keep order where it carries information\n"
        "HostedCount4(id, hostOf, deckOrder, occupants) ==\n"
        "    Cardinality({ObjectLocation4(id, hostOf, deckOrder, occupants)})",
        title="Zones, locations and observations",
    )  # fmt: skip
    abilities = page(
        tmp_path, "abilities.txt", "A section no module cites\nNoKinds9 == AbilityKinds9 = {}",
        "Another section\nSeatCount4 == Cardinality(Seats4)",
        title="Ability definitions, instances and returns",
    )  # fmt: skip
    code, out, err = revise(capsys, spec, deck, abilities, "--from", "2", "--json")
    assert code == 0, err
    assert operators(out) == {
        "TopCard4": ("DeckOrder4", "new"),  # authored comments cite the section
        "HostedCount4": ("Locations4", "new"),  # the one of those that sees ObjectLocation4
        "NoKinds9": ("Abilities9", "new"),
        "SeatCount4": ("Zones4", "new"),  # the module declaring the CONSTANT it uses
    }
    locations = (spec / "reference-profile" / "rev3" / "Locations4.tla").read_text()
    assert "\nEXTENDS Naturals, Sequences, FiniteSets\n" in locations  # for Cardinality


def test_placement_by_topic_and_number(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = page(tmp_path, "deck.txt", "Shuffles\nShuffleRounds4 == 3",
                title="Deck order and shuffles")  # fmt: skip
    zones = page(tmp_path, "zones.txt", "Hand size\nMaxHandSize4 == 7",
                 title="Zones, locations and observations")  # fmt: skip
    other = page(tmp_path, "other.txt", "Misc\nThrottle9 == 2", title="Miscellany")
    code, out, err = revise(capsys, spec, deck, zones, other, "--from", "2")
    assert code == 0, err
    rows = {line.split()[2]: line for line in out.splitlines()[1:-1]}
    assert rows["ShuffleRounds4"].split()[1] == "DeckOrder4"
    assert "its name is the page's topic" in rows["ShuffleRounds4"]
    assert rows["MaxHandSize4"].split()[1] == "Zones4"
    assert rows["Throttle9"].split()[1] == "Abilities9"
    assert "its name ends in 9, as the definition's" in rows["Throttle9"]


def test_new_definitions_using_each_other(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    defs = "Counts\nTwiceHand4(o) == HandCount4(o) * 2\n" \
        'HandCount4(o) == Cardinality(o["SideA.Hand"])'  # fmt: skip
    p = page(tmp_path, "p.txt", defs, title="Zones, locations and observations")
    code, out, err = revise(capsys, spec, p, "--from", "2", "--json")
    assert code == 0, err
    assert operators(out) == {"TwiceHand4": ("Zones4", "new"), "HandCount4": ("Zones4", "new")}
    zones = (spec / "reference-profile" / "rev3" / "Zones4.tla").read_text(encoding="utf-8")
    assert zones.index("HandCount4(o) ==") < zones.index("TwiceHand4(o) ==")  # defined before use


def test_bad_pages_write_nothing(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rev3 = spec / "reference-profile" / "rev3"
    undefined = page(tmp_path, "u.txt", "S\nUses4 == NoSuchOperator4 + 1")
    code, _, err = revise(capsys, spec, undefined, "--from", "2")
    assert code == 2 and "cannot place the new definition Uses4" not in err
    assert "revision 3 would not parse and resolve; nothing was written" in err
    assert f"undefined name NoSuchOperator4 (published at {undefined}:" in err
    both = page(tmp_path, "b.txt", "S\nBoth4(a) == ObjectLocation4(a, a, a, a) = AbilityKinds9")
    code, _, err = revise(capsys, spec, both, "--from", "2")
    assert code == 2 and f"{both}:" in err and "cannot place the new definition Both4" in err
    broken = page(tmp_path, "x.txt", "S\nBroken4 == (1 +")
    code, _, err = revise(capsys, spec, broken, "--from", "2")
    assert code == 2 and f"{broken}:" in err
    assert not rev3.exists() and not list(rev3.parent.glob(".rev3*"))
    assert revise(capsys, spec, undefined, "--from", "7")[2].count("unknown revision") == 1
    mixed = tmp_path / "m.txt"
    mixed.write_text(
        (PAGES / "zones-rev3.txt").read_text(encoding="utf-8").replace(MARK3, MARK2, 1)
    )
    code, _, err = revise(capsys, spec, mixed, "--from", "2")
    assert code == 2 and "name revisions 2, 3: give --to R" in err
    empty = tmp_path / "e.txt"
    empty.write_text("no markers here\n")
    code, _, err = revise(capsys, spec, empty, "--from", "2")
    assert code == 2 and "publish no definition" in err
    code, _, err = revise(capsys, spec, tmp_path / "missing.txt", "--from", "2")
    assert code == 2 and "cannot read page" in err
    code, _, err = revise(capsys, spec, undefined, "--from", "2", "--to", "../x")
    assert code == 2 and "is not a revision name" in err
    code, _, err = revise(capsys, spec, PAGES / "zones-rev3.txt", "--from", "2", "--to", "2")
    assert code == 2 and "the pages change revision 2 itself (ZoneCount4, SeatZoneNames4," in err
    declares = page(tmp_path, "c.txt", "S\nCONSTANT Extra4")
    code, _, err = revise(capsys, spec, declares, "--from", "2")
    assert code == 2 and f"{declares}:" in err and "this is a CONSTANT declaration" in err
