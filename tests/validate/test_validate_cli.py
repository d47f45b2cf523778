"""``tlaconf validate`` on a small TLC trace-validation spec of our own (data/CounterTrace)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).with_name("data")
LIB = Path(__file__).parents[1] / "library" / "data" / "lib"
GOOD = (DATA / "good.ndjson").read_text().splitlines()


def validate(*args: str | Path, cwd: Path = DATA) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("TLACONF_LIBRARY", "JSON")}
    return subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "validate", "--library", str(LIB),
         *map(str, args)], cwd=cwd, capture_output=True, text=True, env=environ, timeout=120)


def log(tmp: Path, lines: list[str]) -> Path:
    path = tmp / "log.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_log_is_accepted() -> None:
    run = validate("--json", "--env", "JSON=good.ndjson", "CounterTrace.tla")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["result"] == "accepted"
    assert report["log"] == {"files": [{"path": "good.ndjson", "lines": 6}], "lines_read": 6,
                             "entries_checked": 6}
    assert report["depth"] == 7
    assert report["postcondition"] == "TraceAccepted"
    assert report["failure"] is None and report["warnings"] == []


def test_a_changed_value_is_rejected_at_its_line_with_the_blame(tmp_path: Path) -> None:
    lines = list(GOOD)
    lines[2] = lines[2].replace('"value": 2', '"value": 3')
    path = log(tmp_path, lines)
    run = validate("--json", "--env", f"JSON={path}", "CounterTrace.tla")
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert report["result"] == "rejected"
    assert report["log"]["entries_checked"] == 2
    failure = report["failure"]
    assert failure["entry"] == 3
    assert failure["log_line"] == f"{path}:3"
    nearest = failure["candidates"][0]
    assert nearest["nearest_action"] == "IncX"
    blame = nearest["blame"]
    while blame["children"]:
        blame = blame["children"][0]
    assert blame["text"] == "x' = l.value"
    assert blame["values"]["x'"] == "2"
    text = validate("--env", f"JSON={path}", "CounterTrace.tla")
    assert "rejected at log entry 3" in text.stdout and "x' = l.value" in text.stdout


def test_an_entry_no_action_explains(tmp_path: Path) -> None:
    lines = [*GOOD[:3], '{"node": "a", "vc": {"a": 3}, "op": "reset"}',
             '{"node": "a", "vc": {"a": 4}, "op": "reset"}']  # x = 0: Reset is not enabled
    run = validate("--json", "--env", f"JSON={log(tmp_path, lines)}", "CounterTrace.tla")
    assert run.returncode == 1
    report = json.loads(run.stdout)
    assert report["failure"]["entry"] == 5
    assert report["candidates_per_entry"] == [1, 1, 1, 1, 1]


def test_a_cut_log_is_a_warning_and_strict_fails(tmp_path: Path) -> None:
    # two lines whose clocks need each other: CausalOrder drops them, as TLC's override does
    lines = [*GOOD, '{"node": "a", "vc": {"a": 5, "b": 3}, "op": "x", "value": 2}',
             '{"node": "b", "vc": {"a": 5, "b": 3}, "op": "note"}']
    path = log(tmp_path, lines)
    run = validate("--json", "--env", f"JSON={path}", "CounterTrace.tla")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["log"]["lines_read"] == 8 and report["log"]["entries_checked"] == 6
    assert any("CausalOrder ordered 6 of 8" in w for w in report["warnings"])
    assert report["unconstrained_fields"] == {}  # the dropped lines' fields: the cut says it
    strict = validate("--strict", "--env", f"JSON={path}", "CounterTrace.tla")
    assert strict.returncode == 1
    assert "warning: CausalOrder ordered 6 of 8 log lines" in strict.stdout


def test_an_invariant_and_no_postcondition(tmp_path: Path) -> None:
    cfg = tmp_path / "t.cfg"
    cfg.write_text("SPECIFICATION TraceSpec\nVIEW TraceView\nACTION_CONSTRAINT "
                   "TraceNextConstraint\nINVARIANT XSmall\n")
    lines = [json.dumps({"node": "a", "vc": {"a": i}, "op": "x", "value": i})
             for i in range(1, 8)]
    run = validate("--json", "-c", cfg, "--env", f"JSON={log(tmp_path, lines)}",
                   "CounterTrace.tla")
    assert run.returncode == 1
    report = json.loads(run.stdout)
    assert report["reason"] == "invariant XSmall is violated at level 6"
    assert any("no POSTCONDITION" in w for w in report["warnings"])


@pytest.mark.parametrize(("args", "message"), [
    (("--env", "JSON"), "--env 'JSON': expected NAME=VALUE"),
    (("--env", "JSON=missing.ndjson"), "cannot read missing.ndjson"),
    (("-c", "nope.cfg"), "config file nope.cfg not found"),
    (("--library", "nope"), "--library nope: no such folder or jar"),
])
def test_bad_input_exits_2(args: tuple[str, ...], message: str) -> None:
    run = validate(*args, "CounterTrace.tla")
    assert run.returncode == 2, run.stdout
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_a_postcondition_that_is_not_defined(tmp_path: Path) -> None:
    cfg = tmp_path / "t.cfg"
    cfg.write_text("SPECIFICATION TraceSpec\nPOSTCONDITION Nope\n")
    run = validate("-c", cfg, "--env", "JSON=good.ndjson", "CounterTrace.tla")
    assert run.returncode == 2
    assert f"{cfg}:2: POSTCONDITION Nope is not a definition" in run.stderr


def test_a_logged_field_the_spec_never_reads_is_a_warning(tmp_path: Path) -> None:
    lines = list(GOOD)
    lines[3] = lines[3].replace('"op": "note"', '"op": "note", "by": "b"')  # IsNote: op only
    lines[0] = lines[0].replace('"op": "x"', '"op": "x", "by": "a"')  # read nowhere either
    path = log(tmp_path, lines)
    run = validate("--json", "--env", f"JSON={path}", "CounterTrace.tla")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["result"] == "accepted"
    assert report["unconstrained_fields"] == {"by": [f"{path}:1", f"{path}:4"]}
    assert report["warnings"] == [
        f"logged field by is never read by the trace spec on 2 of 6 log lines ({path}: "
        "lines 1, 4): any value there is accepted"]
    assert validate("--strict", "--env", f"JSON={path}", "CounterTrace.tla").returncode == 1
    # the published log: every field is read somewhere on every line
    assert validate("--strict", "--env", "JSON=good.ndjson", "CounterTrace.tla").returncode == 0
