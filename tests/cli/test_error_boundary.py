"""The error boundary: user errors exit 2, anything else is an internal error (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tlaconf.cli.parse
from tests.cli.clihelp import PY_BACKEND, Cli
from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace
from tlaconf.cli.main import main


def _trace(tmp_path: Path) -> Path:
    return write_trace(tmp_path / "t.trace.jsonl", state(0), [
        ("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0)),
    ])  # fmt: skip


def _saved(err: str) -> Path:
    line = err.strip().splitlines()[-1]
    return Path(line.rsplit("traceback saved to ", 1)[1])


def test_an_internal_error_in_a_trace_exits_3_and_keeps_the_json(
    cli: Cli, tmp_path: Path
) -> None:
    good = _trace(tmp_path)
    run = cli("replay", "--spec", SPEC, "--backend", f"{BACKEND}:BuggyBackend", "--json",
              good)
    assert run.code == 3 and "Traceback" not in run.err
    doc = json.loads(run.out)
    assert doc["summary"]["exit_code"] == 3
    failure = doc["traces"][0]["failure"]
    assert doc["traces"][0]["verdict"] == "error"
    assert "internal error (a bug in tlaconf" in failure["reason"]
    assert "ZeroDivisionError: a bug in the backend" in failure["reason"]
    saved = Path(failure["traceback"])
    assert "check_action" in saved.read_text() and saved.name.startswith("tlaconf-internal-")
    saved.unlink()
    run = cli("replay", "--spec", SPEC, "--backend", PY_BACKEND, "--json", good)
    assert run.code == 0 and "traceback" not in json.loads(run.out)["traces"][0]


def test_an_internal_error_outside_a_trace_is_one_line_and_a_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("parse is broken")

    monkeypatch.setattr(tlaconf.cli.parse, "run", broken)
    assert main(["parse", str(tmp_path / "X.tla")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("tlaconf: internal error (a bug in tlaconf, please report it): "
                          "RuntimeError: parse is broken; traceback saved to ")
    saved = _saved(err)
    assert "raise RuntimeError" in saved.read_text()
    saved.unlink()
    assert main(["--debug", "parse", str(tmp_path / "X.tla")]) == 3
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last)") and "parse is broken" in err
    _saved(err).unlink()


def test_a_user_error_is_exit_2_not_3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["parse", str(tmp_path / "X.tla")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "X.tla" in err
