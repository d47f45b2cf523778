"""Partial traces: some variables, ``#partial`` fields, silent steps, candidates, Observe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SPEC = Path(__file__).with_name("data") / "pspec"


def header(module: str = "Tally") -> dict[str, Any]:
    return {"format": "tlaconf-trace", "version": 1, "module": module, "revision": "1",
            "partial": True}


def add(who: str, n: int, state: dict[str, Any]) -> dict[str, Any]:
    return {"action": "Add", "params": {"who": who, "n": n}, "state": state}


def trace(tmp: Path, *lines: dict[str, Any], initial: dict[str, Any] | None = None,
          module: str = "Tally") -> Path:
    path = tmp / "t.trace.jsonl"
    first = {"state": {} if initial is None else initial}
    path.write_text("".join(json.dumps(x) + "\n" for x in (header(module), first, *lines)))
    return path


def validate(path: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    environ = {k: v for k, v in os.environ.items() if k != "TLACONF_LIBRARY"}
    run = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "validate", "--json",
                          "--spec", str(SPEC), str(path), *args],
                         capture_output=True, text=True, env=environ, timeout=120)
    report = json.loads(run.stdout) if run.stdout.strip() else {}
    return run.returncode, report, run.stderr


def test_partial_states_are_accepted(tmp_path: Path) -> None:
    path = trace(tmp_path,
                 add("a", 2, {"count": {"#partial": {"a": 2}}}),
                 add("b", 1, {}),
                 {"state": {"count": {"a": 2, "b": 1}}})  # unlabelled: Next (a silent Tick)
    code, report, err = validate(path)
    assert code == 0, (report, err)
    assert report["log"]["entries_checked"] == 3
    assert report["result"] == "accepted"
    assert report["candidates_per_entry"][0] == 1


def test_a_changed_field_fails_at_its_line(tmp_path: Path) -> None:
    path = trace(tmp_path,
                 add("a", 2, {"count": {"#partial": {"a": 2}}}),
                 add("b", 1, {"count": {"#partial": {"a": 2, "b": 2}}}))
    code, report, _ = validate(path)
    assert code == 1
    failure = report["failure"]
    assert failure["entry"] == 2 and failure["log_line"] == f"{path}:4"
    assert failure["unmatched_fields"] == ["count.b"]
    assert "count.b (the spec has 1)" in failure["candidates"][0]["nearest_action"]


def test_an_action_the_spec_does_not_allow_is_blamed(tmp_path: Path) -> None:
    path = trace(tmp_path, add("a", 5, {}))
    code, report, _ = validate(path)
    assert code == 1
    blame = report["failure"]["candidates"][0]["blame"]
    while blame["children"]:
        blame = blame["children"][0]
    assert blame["text"] == "p.n \\in 1..2"


def test_silent_steps_within_the_bound(tmp_path: Path) -> None:
    two = trace(tmp_path, add("a", 1, {"ticks": 2}))
    assert validate(two)[0] == 0
    three = trace(tmp_path, add("a", 1, {"ticks": 3}))  # SilentBound == 2
    code, report, _ = validate(three)
    assert code == 1
    assert report["failure"]["unmatched_fields"] == ["ticks"]


def test_too_many_candidates_is_undecided(tmp_path: Path) -> None:
    path = trace(tmp_path, add("a", 1, {}), add("a", 1, {}))
    code, report, _ = validate(path, "--max-candidates", "2")
    assert code == 3
    assert report["result"] == "undecided"
    assert "more than 2 candidate states" in report["reason"]
    assert validate(path, "--max-candidates", "100")[0] == 0


def test_observe_and_the_fields_it_never_compares(tmp_path: Path) -> None:
    path = trace(tmp_path, add("a", 2, {"total": 2, "note": "x"}), module="TallyView")
    code, report, _ = validate(path)
    assert code == 0
    assert any("the logged note is never compared" in w for w in report["warnings"])
    assert report["unconstrained_fields"] == {"note": [f"{path}:3"]}
    assert validate(path, "--strict")[0] == 1
    bad = trace(tmp_path, add("a", 2, {"total": 3, "note": "x"}), module="TallyView")
    assert validate(bad)[0] == 1


@pytest.mark.parametrize(("line", "message"), [
    ({"action": "Add", "params": {"who": "a", "n": 1}, "state": {"nope": 1}},
     "t.trace.jsonl:3: nope is not a variable of module Tally"),
    ({"action": "Add", "state": {}}, "t.trace.jsonl:3: action and params come together"),
    ({"state": {"count": {"#partial": [1]}}}, "t.trace.jsonl:3: "),
    ({"action": "Nope", "params": {}, "state": {}}, "unknown action 'Nope'"),
])
def test_bad_partial_traces(tmp_path: Path, line: dict[str, Any], message: str) -> None:
    code, _, err = validate(trace(tmp_path, line))
    assert code == 2
    assert message in err and "Traceback" not in err


def test_a_partial_initial_state_needs_init(tmp_path: Path) -> None:
    path = tmp_path / "z.trace.jsonl"
    path.write_text(json.dumps({**header("ZoneMembership"), "revision": "2",
                                "constants": {"Seats4": {"#set": ["SideA", "SideB"]}}})
                    + "\n" + json.dumps({"state": {"inGameIds": {"#set": []}}}) + "\n")
    run = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "validate", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "has no Init" in run.stderr
