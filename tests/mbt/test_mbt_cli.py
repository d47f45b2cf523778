"""``tlaconf mbt`` end to end: exit codes, the text and JSON reports, the trace written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BANK = Path(__file__).resolve().parent / "bank"
SMALL = ("--steps", "6", "--examples", "30", "--no-database")


def test_a_conforming_driver_exits_0_with_its_figures(mbt_cli) -> None:  # type: ignore[no-untyped-def]
    run = mbt_cli(BANK / "Bank.tla", "--driver", "bank:correct", "--steps", "6",
                  "--examples", "5", "--no-database", "--random")
    assert run.code == 0, run.err
    assert "mbt Bank (bank:correct): 5 runs" in run.out
    assert "steps/s: no failure" in run.out


def test_a_failure_exits_1_and_its_trace_replays_to_the_same_failure(
        mbt_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    run = mbt_cli(BANK / "Bank.tla", "--driver", "bank:capped_at_2", *SMALL, "--json")
    assert run.code == 1, run.err
    doc = json.loads(run.out)
    (one,) = doc["runs"]
    assert one["result"] == "failed" and doc["summary"]["exit_code"] == 1
    failure = one["failure"]
    assert failure["steps_after"] <= failure["steps_before"]
    trace = tmp_path / failure["trace"]
    assert trace.is_file() and (tmp_path / failure["unshrunk"]).is_file()
    replay = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", str(trace), "--spec", str(BANK),
         "--json"], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert replay.returncode == 1
    (again,) = json.loads(replay.stdout)["traces"]
    mine = failure["replay"]["failure"]
    assert again["verdict"] == "violation"
    assert (again["failure"]["step"], again["failure"]["reason"], again["failure"]["blame"]) == (
        mine["step"], mine["reason"], mine["blame"])


def test_the_text_report_shows_the_shrunk_failure(mbt_cli) -> None:  # type: ignore[no-untyped-def]
    # random requests only: the directed run's boundary values find the cap at once
    run = mbt_cli(BANK / "Bank.tla", "--driver", "bank:capped_at_2", *SMALL, "--random")
    assert run.code == 1
    assert "FAILURE, shrunk from" in run.out
    assert "Deposit is FALSE" in run.out or "Transfer is FALSE" in run.out


@pytest.mark.parametrize(("args", "message"), [
    (("--driver", "bank"), "expected module:attr"),
    (("--driver", "nosuchmodule:x"), "cannot import nosuchmodule"),
    (("--driver", "bank:nothing"), "bank has no attribute nothing"),
    (("--driver", "bank:BankDriver.module"), "is not a driver"),
    (("Other", "--driver", "bank:correct"), "no driver for module Other"),
    (("--driver", "bank:correct", "--steps", "0"), "0 is not a positive number"),
    ((), "tlaconf mbt has no driver"),
])
def test_bad_input_exits_2_with_a_message(mbt_cli, args: tuple[str, ...],
                                          message: str) -> None:  # type: ignore[no-untyped-def]
    run = mbt_cli("--spec", BANK, *args)
    assert run.code == 2
    assert message in run.err
    assert "Traceback" not in run.err


def test_a_module_without_params_exits_2(mbt_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = tmp_path / "spec"
    spec.mkdir()
    text = (BANK / "Bank.tla").read_text()
    (spec / "Bank.tla").write_text("\n".join(line for line in text.splitlines()
                                             if not line.startswith("Params_")))
    (spec / "Bank.cfg").write_text((BANK / "Bank.cfg").read_text())
    run = mbt_cli("--spec", spec, "--driver", "bank:correct")
    assert run.code == 2
    assert "module Bank defines no params domain" in run.err


def test_a_driver_that_raises_while_being_made_is_a_crash(mbt_cli) -> None:  # type: ignore[no-untyped-def]
    run = mbt_cli("--spec", BANK, "--driver", "bank:Bank")
    assert run.code == 1
    assert "driver 'bank:Bank': Bank() (making the driver) raised TypeError" in run.err
