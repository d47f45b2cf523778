"""Near-miss observations (tlaconf.mbt.perturb): a guard only a wrong report makes FALSE is
covered FALSE by the harness's perturbation when the step check refuses the perturbed
step naming it; a check that accepts it, or blames something else, fails the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tlaconf.hypothesis import Options, run
from tlaconf.mbt.guard_report import check_failures
from tlaconf.mbt.perturb import neighbours
from tlaconf.values import Fn

ECHO = Path(__file__).resolve().parent / "echo"
if str(ECHO) not in sys.path:
    sys.path.insert(0, str(ECHO))

from echo import echo, loose  # noqa: E402


def _options(tmp_path: Path) -> Options:
    return Options(steps=5, examples=3, database=None, out_dir=tmp_path)


def test_a_guard_that_does_not_decide_what_it_reads_fails_the_check(tmp_path: Path) -> None:
    outcome = run(loose(), ECHO, _options(tmp_path))
    assert outcome.found is None  # the implementation conforms: the spec is what is wrong
    rows = {r.text: r for a in outcome.guards for r in a.rows}
    for text in ("p.answers[i] >= 1", "p.answers[i] <= p.q"):
        row = rows[text]
        assert row.check_failed and not row.covered and row.false_by is None
        assert row.perturbed is not None and row.perturbed.verdict == "accepted"
        assert "CHECK FAILED" in (row.reason or "")
    assert len(check_failures(outcome.guards)) == 2

    good = run(echo(), ECHO, _options(tmp_path))
    assert check_failures(good.guards) == []
    assert all(p.holds for p in good.perturbed.values()) and len(good.perturbed) == 3


def test_the_cli_reports_the_failed_check_and_exits_1(mbt_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    args = ("--examples", "3", "--steps", "5", "--no-database", "--out", tmp_path)
    bad = mbt_cli(ECHO / "EchoLoose.tla", "--driver", "echo:loose", *args)
    assert bad.code == 1, bad.out + bad.err
    out = " ".join(bad.out.split())
    assert "the step check failed on 2 near-miss observations" in out
    assert "EchoLoose.tla:12:18 p.answers[i] >= 1: CHECK FAILED" in out
    good = mbt_cli(ECHO / "Echo.tla", "--driver", "echo:echo", *args, "--json")
    assert good.code == 0, good.err
    doc = json.loads(good.out)
    assert doc["coverage"]["covered"] == 4 and doc["coverage"]["by_perturbation"] == 3
    rows = doc["runs"][0]["guards"][0]["rows"]
    assert sorted(r["false_by"] for r in rows) == [
        "implementation", "perturbation", "perturbation", "perturbation"]
    off = mbt_cli(ECHO / "Echo.tla", "--driver", "echo:echo", *args, "--json", "--no-perturb")
    assert json.loads(off.out)["coverage"]["covered"] == 1


def test_one_edit_neighbours() -> None:
    assert list(neighbours(True)) == [False]
    assert list(neighbours(3)) == [2, 4]
    assert (1, 2) in set(neighbours((1, 3))) and (3, 1) in set(neighbours((1, 3)))
    assert (1,) in set(neighbours((1, 3)))
    assert frozenset({2}) in set(neighbours(frozenset({1, 2})))
    assert Fn({"a": 1}) in set(neighbours(Fn({"a": 2})))
    assert list(neighbours("x")) == []


def test_the_library_reports_the_failed_check_as_the_cli_does(tmp_path: Path) -> None:
    import tlaconf

    args = {"spec": ECHO, "examples": 3, "steps": 5, "database": None}
    bad = tlaconf.mbt(loose(), out=tmp_path / "bad", **args)
    assert bad.found is None and len(bad.failed_checks) == 2
    assert any("p.answers[i] >= 1" in line for line in bad.failed_checks)
    good = tlaconf.mbt(echo(), out=tmp_path / "good", **args)
    assert good.found is None and good.failed_checks == []
