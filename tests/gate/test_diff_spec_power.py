"""``tlaconf diff-spec``: the gate's power against each modified definition; revision folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.revision.build import build_revision, write_revision

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "revise" / "pages"
ONCE = "u.definition = definitionId /\\ u.source = source /\\ u.turn = turn"
REVEAL = "/\\ movementAuthorized /\\ (revealRequired => revealedBeforeMove)"


def planted(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of spec/ with one definition's text changed in revision 2."""
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    for tla in (spec / "reference-profile" / "rev2").glob("*.tla"):
        text = tla.read_text(encoding="utf-8")
        if old in text:
            tla.write_text(text.replace(old, new), encoding="utf-8")
            return spec
    raise AssertionError(f"{old!r} is not in revision 2")


def diff(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["diff-spec", *map(str, args), "--traces", str(ROOT / "traces")])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_change_no_golden_trace_tells_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = planted(tmp_path, ONCE, "u.definition = definitionId /\\ u.turn = turn")
    code, out, _ = diff(capsys, ROOT / "spec", new)
    assert code == 0
    assert "gate power: 1 modified definition(s)" in out
    assert (
        "reference-profile/rev2/Abilities9.tla  OncePerTurnOpen9: no golden trace tells the old "
        "and new definitions apart" in out
    )


def test_a_change_a_golden_trace_tells_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = planted(tmp_path, REVEAL, "/\\ movementAuthorized")
    code, out, _ = diff(capsys, ROOT / "spec", new, "--json")
    assert code == 0
    (power,) = json.loads(out)["power"]
    assert (power["operator"], power["told_apart"]) == ("AtomicZoneMove4", True)
    assert power["trace"].endswith(".trace.jsonl") and power["step"] >= 1
    assert power["old"] != power["new"] and "Move(p) FALSE" in power["old"]
    code, out, _ = diff(capsys, ROOT / "spec", new, "--json", "--no-power")
    assert json.loads(out)["power"] is None


def test_a_module_header_change_is_not_a_change_of_its_definitions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = planted(tmp_path, "EXTENDS Naturals, Sequences\n", "EXTENDS Naturals, Sequences, TLC\n")
    code, out, _ = diff(capsys, ROOT / "spec", new, "--json")
    assert code == 0
    power = json.loads(out)["power"]
    assert power and all(not p["told_apart"] for p in power)
    assert all(p["note"].startswith("the definition is the same") for p in power)


def test_two_revision_folders_of_one_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    pages = [PAGES / "zones-rev3.txt", PAGES / "abilities-rev3.txt"]
    write_revision(build_revision(spec, pages, "2"))
    profile = spec / "reference-profile"
    code, out, _ = diff(capsys, profile / "rev2", profile / "rev3", "--json")
    assert code == 0
    doc = json.loads(out)
    assert {(m["module"], m["operator"]) for m in doc["modified"]} == {
        ("reference-profile/rev3/Zones4.tla", "AtomicZoneMove4"),
        ("reference-profile/rev3/Abilities9.tla", "AbilityShape9"),
        ("reference-profile/rev3/Abilities9.tla", "ReturnAbility9"),
    }
    assert {a["operator"] for a in doc["added"]} == {"ZoneCount4", "SeatZoneNames4",
                                                    "UsesThisTurn9"}  # fmt: skip
    assert doc["removed"] == [] and doc["cfg_changed"] == []
    assert all(p["told_apart"] for p in doc["power"])
    told = {p["operator"]: p for p in doc["power"]}
    move = told["AtomicZoneMove4"]
    where = f"{Path(move['trace']).parent.name}/{Path(move['trace']).name}"
    code, out, _ = diff(capsys, profile / "rev2", profile / "rev3")
    # the first golden trace (in path order) whose replay differs, at a Move step
    assert f"told apart by {where} step {move['step']} (old: " in out
    assert "Move(p)" in move["old"]


def test_a_revision_folder_and_a_tree_do_not_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = diff(capsys, ROOT / "spec" / "reference-profile" / "rev2", ROOT / "spec")
    assert code == 2 and "compare two spec/ directories or two revision folders" in err
