"""``--revision R`` on replay, gate and check; the gate's verdict-change table (text, JSON, JUnit).

Revision 3 is built by ``tlaconf revise`` from revision 2 and the test pages of
``tests/revise/pages`` (a changed guard in ``AbilityShape9``, a conjunct removed
from ``AtomicZoneMove4`` and from ``ReturnAbility9``), so the golden traces that
pinned those conjuncts newly conform and conforming ability traces newly violate.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.replay.counter_backend import SCENARIOS
from tlaconf.cli.main import main
from tlaconf.revision.build import build_revision, write_revision

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "revise" / "pages"
COUNTER_SPEC = ROOT / "tests" / "replay" / "spec"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of spec/ (with revision 3 built from the test pages) and of traces/."""
    root = tmp_path_factory.mktemp("gate")
    shutil.copytree(ROOT / "spec", root / "spec")
    shutil.copytree(ROOT / "traces", root / "traces")
    pages = [PAGES / "zones-rev3.txt", PAGES / "abilities-rev3.txt"]
    write_revision(build_revision(root / "spec", pages, "2"))
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([*map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def gate(capsys: pytest.CaptureFixture[str], tree: Path, *args: str | Path) -> tuple[int, str, str]:
    return run(capsys, "gate", "--spec", tree / "spec", "--traces", tree / "traces", *args)


def test_gate_against_the_headers_revision_has_no_change(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = gate(capsys, tree, "--revision", "2")
    assert code == 0
    assert "gate against revision 2:" in out and "0 changed" in out
    assert out.count(" unchanged") == 1


def test_gate_revision_3_prints_the_verdict_change_table(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    code, out, _ = gate(capsys, tree, "--revision", "3")
    assert code == 1
    assert "gate: verdict changes against revision 3" in out
    groups: dict[str, list[str]] = {}
    for line in out.splitlines():
        if line.startswith("  ") and not line.startswith("    ") and line.endswith(")"):
            groups[line.strip().rsplit(" (", 1)[0]] = current = []
        elif line.startswith("    ") and ".trace.jsonl" in line and groups:
            current.append(line.strip())
    conforms = {row.split()[0] for row in groups["newly conforms"]}
    assert {"zones/reveal-missing.trace.jsonl", "abilities/return-wrong-caller.trace.jsonl"} <= \
        conforms  # the conjuncts removed  # fmt: skip
    assert any(row.startswith("abilities/activity-conforming.trace.jsonl ") and
               "step 0  blames Len(instructions) > 1" in row
               for row in groups["newly violates"])  # fmt: skip
    assert "(expected violation @ step 1, blaming revealedBeforeMove)" in \
        next(r for r in groups["newly conforms"] if r.startswith("zones/reveal"))  # fmt: skip
    assert "zones/leaves-11-in-hand.trace.jsonl" not in out  # unchanged: not listed
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("gate against revision 3: ") and "unchanged" in summary


def test_gate_revision_json_and_junit(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "gate.xml"
    code, out, _ = gate(capsys, tree, "--revision", "3", "--json", "--junit", junit)
    assert code == 1
    doc = json.loads(out)
    assert doc["revision"] == "3"
    changes = {c["path"]: c for c in doc["changes"]}
    assert doc["traces"] == doc["unchanged"] + len(changes)
    assert doc["counts"]["newly conforms"] >= 2 and doc["counts"]["newly violates"] >= 1
    reveal = changes["zones/reveal-missing.trace.jsonl"]
    assert (reveal["change"], reveal["expected"], reveal["actual"]) == (
        "newly conforms", "violation @ step 1", "conforms"
    )  # fmt: skip
    lifecycle = changes["abilities/lifecycle-conforming.trace.jsonl"]
    assert (lifecycle["change"], lifecycle["step"], lifecycle["action"]) == (
        "newly violates", 6, "Return"
    )  # fmt: skip
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "tlaconf gate (revision 3)"
    assert suite.get("failures") == str(len(changes))
    assert suite.get("tests") == str(doc["traces"])
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props == {"revision": "3"}
    failed = {c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None}
    assert failed == set(changes)


def test_gate_and_replay_refuse_an_unknown_revision(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = gate(capsys, tree, "--revision", "9")
    assert code == 2 and "unknown revision '9'" in err
    trace = tree / "traces" / "zones" / "leaves-11-in-hand.trace.jsonl"
    code, _, err = run(capsys, "replay", trace, "--spec", tree / "spec", "--revision", "9")
    assert code == 2 and "unknown revision '9'" in err


def test_replay_revision_is_said_in_every_report(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tree / "traces" / "zones" / "reveal-missing.trace.jsonl"
    code, out, _ = run(capsys, "replay", trace, "--spec", tree / "spec")
    assert code == 1 and "--revision" not in out
    code, out, _ = run(capsys, "replay", trace, "--spec", tree / "spec", "--revision", "3")
    assert code == 0  # the revealed-before-move conjunct is gone in revision 3
    assert "against revision 3 of the profile (--revision)" in out
    junit = tmp_path / "r.xml"
    args = ("replay", trace, "--spec", tree / "spec", "--revision", "3", "--json", "--junit")
    code, out, _ = run(capsys, *args, junit)
    assert code == 0 and json.loads(out)["summary"]["revision"] == "3"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "tlaconf (revision 3)"
    code, out, _ = run(capsys, "replay", trace, "--spec", tree / "spec", "--json")
    assert json.loads(out)["summary"]["revision"] is None


def test_check_revision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(COUNTER_SPEC, spec)
    strict = spec / "reference-profile" / "rev1b"
    strict.mkdir()
    (strict / "CounterOps.tla").write_text(
        "---- MODULE CounterOps ----\nEXTENDS Naturals\nAdd(n, k) == n + k + 1\n====\n"
    )
    base = ("check", "--spec", spec, "--scenarios", SCENARIOS, "--seed", "1")
    out_dir = ("--out", tmp_path / "out")
    assert run(capsys, *base, *out_dir)[0] == 0
    code, out, _ = run(capsys, *base, *out_dir, "--revision", "1b")
    assert code == 1 and "against revision 1b of the profile (--revision)" in out
    code, _, err = run(capsys, *base, "--revision", "7", "--out", tmp_path / "o7")
    assert code == 2 and "unknown revision '7'" in err
    assert not (tmp_path / "o7").exists()  # refused before any scenario ran


def test_plain_gate_json_and_junit(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "g.xml"
    code, out, _ = gate(capsys, tree, "--json", "--junit", junit)
    assert code == 0
    doc = json.loads(out)
    assert doc["revision"] is None and doc["changes"] == []
    assert doc["unchanged"] == doc["traces"] > 0
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "tlaconf gate"
    assert (suite.get("tests"), suite.get("failures")) == (str(doc["traces"]), "0")
