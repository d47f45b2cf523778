"""Fragments: definitions after 'reference-profile' markers on pages, into modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import SEEDS
from tlaconf.cli.main import main
from tlaconf.errors import UserError
from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.fragments import extract, module_name, write_module
from tlaconf.tla.parser import load_module_file

MARK = "reference-profile · input revision 2 · CC0 1.0"
TRAILER = "Definition and resolved references · Exact module download · Source bundle"

# The published definitions are CC0; the surrounding prose is a stand-in.
PAGE = f"""Some prose before.

{MARK}

ZonePartition4(inGameIds, occupants) ==
    /\\ DOMAIN occupants = ZoneInstances4
    /\\ UNION {{occupants[z] : z \\in ZoneInstances4}} = inGameIds
    /\\ \\A a,b \\in ZoneInstances4 : a # b => occupants[a] \\intersect occupants[b] = {{}}

{TRAILER}

More prose: reference-profile is mentioned here but this is not a marker.
{MARK}
AbilityShape9(kind,instructions) ==
kind \\in AbilityKinds9 /\\ IF kind = "Static" THEN Len(instructions) = 0 ELSE Len(instructions) > 0{TRAILER}
Prose again.
{MARK}
ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller) ==
/\\ before.complete /\\ ~before.returned /\\ actualFinalCheckpointAndChainsComplete /\\ caller = before.caller
/\\ after = [before EXCEPT !.returned = TRUE]{TRAILER}
The end.
"""  # noqa: E501


def test_extract_strips_trailers_and_keeps_page_lines() -> None:
    frags = extract(PAGE, "page.txt")
    assert [f.names() for f in frags] == [
        ("ZonePartition4",),
        ("AbilityShape9",),
        ("ReturnAbility9",),
    ]
    assert [f.line for f in frags] == [5, 14, 18]
    assert all((f.revision, f.licence) == ("2", "CC0 1.0") for f in frags)
    assert "Definition" not in frags[1].text
    unit = frags[2].units[0]
    assert isinstance(unit, ast.OpDef) and unit.span.line == 18


def test_parse_error_points_at_the_page_line() -> None:
    page = f"prose\n{MARK}\n\nBroken == 1 +\n{TRAILER}\n"
    with pytest.raises(ParseError) as info:
        extract(page, "p.txt")
    assert info.value.location == "p.txt:4:14"


def test_empty_fragment_is_an_error() -> None:
    with pytest.raises(UserError, match="empty fragment"):
        extract(f"{MARK}\n\n{TRAILER}\n", "p.txt")


def test_write_module_round_trips(tmp_path: Path) -> None:
    page = tmp_path / "003_abc.txt"
    page.write_text(PAGE, encoding="utf-8")
    written = write_module(page, tmp_path / "out")
    assert written is not None
    path, _ = written
    assert path.name == "Fragments_003_abc.tla" and module_name(page) == "Fragments_003_abc"
    text = path.read_text(encoding="utf-8")
    assert (
        "\\* source: 003_abc.txt line 14; reference-profile input revision 2; licence CC0 1.0"
        in text
    )
    m = load_module_file(path)
    assert list(m.definitions()) == ["ZonePartition4", "AbilityShape9", "ReturnAbility9"]


def test_page_without_marker(tmp_path: Path) -> None:
    page = tmp_path / "p.txt"
    page.write_text("no fragments here\n", encoding="utf-8")
    assert write_module(page, tmp_path / "out") is None


def test_cli_fragments_and_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["fragments", str(page), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "3 definition(s)" in out and "AbilityShape9  (line 14, revision 2, CC0 1.0)" in out
    module = tmp_path / "out" / "Fragments_page.tla"
    assert main(["parse", "--no-resolve", str(module), str(page)]) == 0
    out = capsys.readouterr().out
    assert "ReturnAbility9/4" in out and "(fragment at line 5, revision 2)" in out


def test_the_four_seeds_give_exactly_the_six_operators(tmp_path: Path) -> None:
    names: list[str] = []
    for page in sorted(SEEDS.glob("*.txt")):
        written = write_module(page, tmp_path)
        if written is not None:
            names.extend(load_module_file(written[0]).definitions())
    assert names == [
        "ZonePartition4",
        "AtomicZoneMove4",
        "DefaultZoneLook4",
        "AbilityShape9",
        "AbilitySource9",
        "ReturnAbility9",
    ]


def test_fragments_module_extends_the_standard_modules_it_uses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["fragments", str(page), "-o", str(tmp_path / "out")]) == 0
    module = tmp_path / "out" / "Fragments_page.tla"
    assert "\nEXTENDS Naturals, Sequences\n" in module.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["parse", str(module)]) == 0  # Len and > resolve; the profile's names are listed
    out = capsys.readouterr().out
    assert "defined elsewhere in the profile: 2 name(s)" in out
    assert "ZoneInstances4  (used at " in out and "AbilityKinds9  (used at " in out
    assert main(["parse", str(page)]) == 0  # the page itself, located at its own lines
    out = capsys.readouterr().out
    assert f"AbilityKinds9  (used at {page}:15:10)" in out


def test_parse_of_fragments_still_reports_real_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.txt"
    wrong = PAGE.replace("Len(instructions) > 0", "Len(instructions, 2) > 0")
    page.write_text(wrong, encoding="utf-8")
    assert main(["fragments", str(page), "-o", str(tmp_path / "out")]) == 0
    module = tmp_path / "out" / "Fragments_page.tla"
    for target in (module, page):
        capsys.readouterr()
        assert main(["parse", str(target)]) == 2
        captured = capsys.readouterr()
        assert "operator Len takes 1 argument(s), given 2" in captured.err
        assert "undefined name AbilityKinds9" not in captured.err
        assert "AbilityKinds9  (used at" in captured.out
    stripped = module.read_text(encoding="utf-8").replace("EXTENDS Naturals, Sequences\n", "")
    module.write_text(stripped, encoding="utf-8")
    assert main(["parse", str(module)]) == 2  # a standard name left undefined is a real error
    assert "undefined operator Len" in capsys.readouterr().err


REVISION_PAGES = sorted((Path(__file__).parents[1] / "revise" / "pages").glob("*.txt"))


@pytest.mark.parametrize("page", REVISION_PAGES, ids=lambda p: p.name)
def test_fragments_of_revision_pages_parse(
    page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fragments", str(page), "-o", str(tmp_path)]) == 0
    (module,) = tmp_path.glob("*.tla")
    capsys.readouterr()
    assert main(["parse", str(module)]) == 0, capsys.readouterr().err


def test_fragments_of_the_seeds_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = sorted(SEEDS.glob("*.txt"))
    assert main(["fragments", *map(str, pages), "-o", str(tmp_path)]) == 0
    modules = sorted(tmp_path.glob("*.tla"))
    assert len(modules) == 2
    capsys.readouterr()
    assert main(["parse", *map(str, modules)]) == 0
    out = capsys.readouterr().out
    assert "ZoneInstances4  (used at" in out and "in Zones4 (revision 2)" in out
