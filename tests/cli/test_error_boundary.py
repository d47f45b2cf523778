"""The error boundary: user errors exit 2, anything else is an internal error (exit 4)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tlaconf.cli.parse
import tlaconf.replay.runner
from tests.cli.clihelp import PY_BACKEND, Cli
from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace
from tlaconf.cli.main import main
from tlaconf.errors import ExitCode


def _trace(tmp_path: Path) -> Path:
    return write_trace(tmp_path / "t.trace.jsonl", state(0), [
        ("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0)),
    ])  # fmt: skip


def _saved(err: str) -> Path:
    line = err.strip().splitlines()[-1]
    return Path(line.rsplit("traceback saved to ", 1)[1])


def test_an_internal_error_in_a_trace_exits_4_and_keeps_the_json(
    cli: Cli, tmp_path: Path
) -> None:
    good = _trace(tmp_path)
    run = cli("replay", "--spec", SPEC, "--backend", f"{BACKEND}:BuggyBackend", "--json",
              good)
    assert run.code == 4 and "Traceback" not in run.err
    doc = json.loads(run.out)
    assert doc["summary"]["exit_code"] == 4
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
    (tmp_path / "X.tla").write_text("---- MODULE X ----\n====\n")
    assert main(["parse", str(tmp_path / "X.tla")]) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("tlaconf: internal error (a bug in tlaconf, please report it): "
                          "RuntimeError: parse is broken; traceback saved to ")
    saved = _saved(err)
    assert "raise RuntimeError" in saved.read_text()
    saved.unlink()
    assert main(["--debug", "parse", str(tmp_path / "X.tla")]) == 4
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last)") and "parse is broken" in err
    _saved(err).unlink()


def test_a_user_error_is_exit_2_not_4(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["parse", str(tmp_path / "X.tla")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "X.tla" in err


def test_a_broken_subcommand_import_is_exit_4_reported_as_a_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Building the parser is inside the escalation point: never a traceback and exit 1."""
    real = importlib.import_module

    def broken(name: str, package: str | None = None) -> object:
        if name == "tlaconf.cli.eval":
            raise ImportError("tlaconf.cli.eval is broken on purpose")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", broken)
    assert main(["eval", "1 + 1"]) == ExitCode.INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "internal error (a bug in tlaconf" in err and "Traceback" not in err
    _saved(err).unlink()
    assert main(["parse", "--help"]) == ExitCode.OK  # the other commands still work


def test_version_imports_neither_the_evaluator_nor_pydantic_nor_rich() -> None:
    code = ("import sys; from tlaconf.cli.main import main; main(['--version']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'rich') "
            "or m.startswith(('tlaconf.evaluate', 'tlaconf.replay', 'tlaconf.cli.')) "
            "and m != 'tlaconf.cli.main'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().splitlines()[-1] == "[]", out
    code = code.replace("'--version'", "'eval', '1'")  # the check can fail: eval imports them
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "tlaconf.evaluate" in out


def test_an_option_a_command_does_not_use_is_refused(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert main(["--eval-budget", "5", "init", str(tmp_path / "x")]) == ExitCode.BAD_INPUT
    assert "--eval-budget does not apply to init" in capsys.readouterr().err
    assert main(["init", "--eval-budget", "5", str(tmp_path / "x")]) == ExitCode.BAD_INPUT
    assert not (tmp_path / "x").exists()
    assert main(["--eval-budget", "5", "eval", "1 + 1"]) == ExitCode.OK


def test_the_built_in_backend_failing_is_exit_4_not_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import tlaconf.replay.embedded

    def broken() -> None:
        raise RuntimeError("the embedded backend is broken on purpose")

    monkeypatch.setattr(tlaconf.replay.embedded, "EmbeddedBackend", broken)
    assert main(["replay", "--spec", str(SPEC), str(_trace(tmp_path))]) == ExitCode.INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "internal error" in err and "broken on purpose" in err
    _saved(err).unlink()
    run = main(["replay", "--spec", str(SPEC), "--backend", "nope", str(_trace(tmp_path))])
    assert run == ExitCode.BAD_INPUT  # a backend the user names wrongly is still bad input
