"""Progress of long runs: shown on a terminal's stderr (a pseudo-terminal here), never
under ``--json`` and never when stderr is not a terminal; the report on stdout is the
same either way."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tlaconf.report.progress import log_lines_text, trace_spec_text

TESTS = Path(__file__).resolve().parents[1]
DATA = TESTS / "validate" / "data"
LIB = TESTS / "library" / "data" / "lib"
BANK = TESTS / "mbt" / "bank"
PARTIAL = TESTS.parent / "traces" / "partial"
VALIDATE = ("validate", "--library", str(LIB), "--env", "JSON=good.ndjson", "CounterTrace.tla")
MBT = ("mbt", str(BANK / "Bank.tla"), "--driver", "bank:correct", "--steps", "6",
       "--examples", "5", "--no-database", "--random")


def tlaconf(*args: str, terminal: bool = True) -> tuple[int, str, str]:
    """``tlaconf ARGS`` in tests/validate/data with stderr on a pseudo-terminal (or a
    pipe): exit code, stdout, stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("TLACONF_LIBRARY", "JSON")}
    env["PYTHONPATH"] = os.pathsep.join([str(BANK), *sys.path])
    command = [sys.executable, "-m", "tlaconf.cli.main", *args]
    if not terminal:
        run = subprocess.run(command, cwd=DATA, env=env, capture_output=True, text=True,
                             timeout=300, check=False)
        return run.returncode, run.stdout, run.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(command, cwd=DATA, env=env, stdout=subprocess.PIPE,
                            stderr=follower, text=True)
    os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    os.close(leader)
    assert proc.stdout is not None
    out = proc.stdout.read()
    return proc.wait(timeout=300), out, err.decode(errors="replace")


def test_the_texts() -> None:
    assert trace_spec_text(3, 2, 41, 6) == \
        "log line 3 of 6, 2 candidate states alive, 41 distinct states"
    assert trace_spec_text(7, 1, 7, 6).startswith("log line 6 of 6, 1 candidate state alive")
    assert trace_spec_text(4, 1, 5, 0).startswith("log line 4, ")  # no log read (yet)
    assert log_lines_text(12, 1500, 3) == "log line 12 of 1,500, 3 candidate states alive"


def test_validate_shows_the_log_lines_consumed_on_a_terminal() -> None:
    code, out, err = tlaconf(*VALIDATE)
    assert code == 0 and "CounterTrace: accepted" in out
    assert "log line 6 of 6" in err and "distinct states" in err


@pytest.mark.parametrize("terminal", [True, False])
def test_validate_shows_nothing_under_json_or_off_a_terminal(terminal: bool) -> None:
    code, out, err = tlaconf(*VALIDATE, *(("--json",) if terminal else ()), terminal=terminal)
    assert code == 0 and ('"result": "accepted"' if terminal else "accepted") in out
    assert "log line" not in err and "validating" not in err
    assert err.strip() == ""


def test_validate_of_a_partial_trace_shows_its_lines() -> None:
    trace = PARTIAL / "moved-id-not-in-source.trace.jsonl"
    lines = len(trace.read_text().splitlines())
    code, out, err = tlaconf("validate", str(trace), "--spec", str(TESTS.parent / "spec"))
    assert code == 1 and "rejected" in out
    assert f"of {lines}, " in err and "candidate state" in err
    code, out, err = tlaconf("validate", str(trace), "--spec", str(TESTS.parent / "spec"),
                             "--json")
    assert code == 1 and "log line" not in err


def test_replay_counts_the_traces_done_and_not_under_json() -> None:
    traces = [str(p) for p in sorted(PARTIAL.glob("*.trace.jsonl"))]
    code, out, err = tlaconf("replay", "--spec", str(TESTS.parent / "spec"), *traces)
    assert code == 1 and "traces" in err and f"/{len(traces)}" in err
    code, out, err = tlaconf("replay", "--spec", str(TESTS.parent / "spec"), "--json", *traces)
    assert code == 1 and '"traces"' in out and err.strip() == ""


def test_mbt_counts_examples_and_steps_and_not_under_json() -> None:
    code, out, err = tlaconf(*MBT)
    assert code == 0 and "mbt Bank (bank:correct): 5 runs" in out
    assert "mbt Bank" in err and "/5" in err and " steps" in err
    code, out, err = tlaconf(*MBT, "--json")
    assert code == 0 and "mbt Bank" not in err


def test_the_api_reports_progress_and_refuses_the_other_kinds_callback() -> None:
    import tlaconf

    seen: list[tuple[int, int, int]] = []
    trace = PARTIAL / "moves-logged-zones.trace.jsonl"
    outcome = tlaconf.validate(trace, spec=TESTS.parent / "spec",
                               on_line=lambda *figures: seen.append(figures))
    lines = len(trace.read_text().splitlines())
    assert outcome.result == "accepted"
    assert [line for line, _, _ in seen] == list(range(3, lines + 1))
    assert {total for _, total, _ in seen} == {lines} and all(c >= 1 for _, _, c in seen)
    with pytest.raises(tlaconf.UserError, match="on_level does not apply"):
        tlaconf.validate(trace, on_level=lambda *figures: None)
    with pytest.raises(tlaconf.UserError, match="on_line does not apply"):
        tlaconf.validate(DATA / "CounterTrace.tla", on_line=lambda *figures: None)


def test_replay_reports_a_partial_traces_steps() -> None:
    import tlaconf

    trace = PARTIAL / "moves-logged-zones.trace.jsonl"
    steps: list[int] = []
    [result] = tlaconf.replay(trace, spec=TESTS.parent / "spec",
                              on_steps=lambda path, n: steps.append(n))
    assert result.verdict == "conforms"
    assert steps == list(range(1, result.steps + 1))
