"""Every command's exit codes as CI reads them: 3 undecided, 4 internal error (with where
its traceback was saved, never the traceback itself), 130 interrupted, 2 for a path that
does not exist and for an unknown option (named as such)."""

from __future__ import annotations

import argparse
import importlib
import signal
import tempfile
from pathlib import Path

import pytest

from tests.replay.counter_backend import SPEC, state, write_trace
from tlaconf.cli.main import COMMANDS, main
from tlaconf.errors import ExitCode, Undecided
from tlaconf.signals import Interrupted

ROOT = Path(__file__).resolve().parents[2]


def _argv(command: str, tmp: Path) -> list[str]:
    """A command line of ``command`` that its parser accepts (every input exists)."""
    trace = write_trace(tmp / "t.trace.jsonl", state(0), [
        ("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0))])  # fmt: skip
    module = tmp / "M.tla"
    module.write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    page = tmp / "page.txt"
    page.write_text("nothing\n")
    return {
        "init": ["init", str(tmp / "new")],
        "check": ["check"],
        "replay": ["replay", "--spec", str(SPEC), str(trace)],
        "coverage": ["coverage", "--spec", str(SPEC), str(trace)],
        "gate": ["gate", "--traces", str(ROOT / "traces")],
        "eval": ["eval", "1 + 1"],
        "parse": ["parse", str(module)],
        "fragments": ["fragments", str(page), "-o", str(tmp / "out")],
        "revise": ["revise", str(page), "--from", "2"],
        "convert": ["convert", str(trace), str(tmp / "t.itf.json")],
        "export": ["export", str(trace), "-o", str(tmp / "T.tla")],
        "diff-spec": ["diff-spec", str(SPEC), str(SPEC)],
        "explore": ["explore", str(module)],
        "validate": ["validate", str(module)],
        "mbt": ["mbt"],
    }[command]


def _inject(monkeypatch: pytest.MonkeyPatch, command: str, exc: BaseException) -> None:
    """The function ``command`` runs (its parser's ``run`` default) raises ``exc``."""
    module = importlib.import_module(f"tlaconf.cli.{command.replace('-', '_')}")
    parser = argparse.ArgumentParser()
    module.register(parser)
    name = parser.get_default("run").__name__

    def broken(args: object) -> int:
        raise exc

    monkeypatch.setattr(module, name, broken)


def test_every_command_is_listed_here(tmp_path: Path) -> None:
    for command in COMMANDS:
        assert _argv(command, tmp_path)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_internal_error_is_exit_4_and_names_the_saved_traceback(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    _inject(monkeypatch, command, RuntimeError(f"{command} is broken on purpose"))
    assert main(_argv(command, tmp_path)) == ExitCode.INTERNAL_ERROR == 4
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert f"internal error (a bug in tlaconf, please report it): RuntimeError: {command} " \
           "is broken on purpose; traceback saved to " in err
    saved = Path(err.strip().rsplit("traceback saved to ", 1)[1])
    assert saved.parent == Path(tempfile.gettempdir())
    assert "Traceback (most recent call last)" in saved.read_text()
    assert "broken on purpose" in saved.read_text()
    saved.unlink()


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_is_exit_130(command: str, signum: int, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _inject(monkeypatch, command, Interrupted(signum))
    assert main(_argv(command, tmp_path)) == ExitCode.INTERRUPTED == 130
    name = signal.Signals(signum).name
    assert capsys.readouterr().err == f"tlaconf: interrupted by {name}: nothing was decided\n"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_undecided_is_exit_3(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _inject(monkeypatch, command, Undecided("the cluster went away"))
    assert main(_argv(command, tmp_path)) == ExitCode.UNDECIDED == 3
    assert capsys.readouterr().err == "tlaconf: cannot decide: the cluster went away\n"


def test_a_search_over_its_bound_is_exit_3_not_4(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "Up.tla"
    module.write_text("---- MODULE Up ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                      "Next == x' = x + 1\n====\n")
    (tmp_path / "Up.cfg").write_text("INIT Init\nNEXT Next\n")
    assert main(["validate", "--max-states", "50", str(module)]) == ExitCode.UNDECIDED
    out = capsys.readouterr().out
    assert "50" in out and "internal error" not in out


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_path_that_does_not_exist_is_exit_2(command: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    argv = _argv(command, tmp_path)
    paths = [i for i, a in enumerate(argv) if Path(a).exists() and i > 0]
    if not paths:
        pytest.skip(f"{command} takes no input path here")
    missing = str(tmp_path / "no" / "such-file")
    for i in paths:
        bad = [*argv[:i], missing, *argv[i + 1:]]
        assert main(bad) == ExitCode.BAD_INPUT, bad
        assert f"{missing} does not exist" in capsys.readouterr().err


def test_diff_spec_of_a_missing_folder_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff-spec", "/nonexistent", str(SPEC)]) == ExitCode.BAD_INPUT
    assert "/nonexistent does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unknown_option_is_named_as_such(command: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = _argv(command, tmp_path)
    missing = str(tmp_path / "missing")  # the wrong path is not blamed for the option
    for bad in ([argv[0], "--nope", *argv[1:]], [argv[0], "--nope", missing],
                [argv[0], "--nope=3", *argv[1:]], ["--nope", *argv]):
        assert main(bad) == ExitCode.BAD_INPUT, bad
        err = capsys.readouterr().err
        assert "error: unknown option --nope" in err, (bad, err)
        assert "does not exist" not in err


def test_an_option_value_that_looks_like_an_option_is_not_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-1"]) == ExitCode.OK
    assert capsys.readouterr().out.strip() == "-1"


@pytest.mark.parametrize("argv", [["convert", "{t}", "{tmp}/out.itf.json"],
                                  ["coverage", "{t}"]], ids=lambda a: a[0])
def test_a_command_that_needs_full_states_names_a_partial_trace(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = ROOT / "traces" / "partial" / "moves-logged-zones.trace.jsonl"
    args = [a.format(t=trace, tmp=tmp_path) for a in argv]
    assert main(args) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert f"{trace}:1: a partial trace (its header says \"partial\": true)" in err
    assert "#partial" not in err and f"tlaconf replay {trace}" in err
    full = ROOT / "traces" / "zones" / "custody-7.trace.jsonl"
    assert main([a.format(t=full, tmp=tmp_path) for a in argv]) == ExitCode.OK
