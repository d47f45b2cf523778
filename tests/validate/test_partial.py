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
    assert "count.b (the log has 2, the spec has 1)" in failure["candidates"][0]["nearest_action"]


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


def vote(src: str, dest: str, voted: str) -> dict[str, Any]:
    return {"action": "HandleRequestVote",
            "params": {"source": src, "dest": dest, "term": 1, "lastTerm": 0},
            "state": {"votedFor": {"#partial": {dest: voted}}}}


def _nodes(blame: dict[str, Any]) -> list[dict[str, Any]]:
    return [blame, *(n for c in blame["children"] for n in _nodes(c))]


def test_a_rejection_names_the_guard_that_decided(tmp_path: Path) -> None:
    """Raft's RequestVote handling: an action with an ELSE branch is always enabled, so
    the rejection of a second vote in a term must say which guard chose the branch
    (``votedFor[i] = Nil``, with its values) and which conjunct gave the value the log
    disagrees with, beside the logged one."""
    path = trace(tmp_path, vote("n1", "n2", "n1"), vote("n3", "n2", "n3"), module="Vote")
    code, report, _ = validate(path)
    assert code == 1
    failure = report["failure"]
    assert failure["log_line"] == f"{path}:4" and failure["unmatched_fields"] == ["votedFor.n2"]
    best = failure["candidates"][0]
    assert 'votedFor.n2 (the log has "n3", the spec has "n1")' in best["nearest_action"]
    nodes = _nodes(best["blame"])
    guard = next(n for n in nodes if n["text"].startswith("IF "))
    assert guard["reason"] == ("the condition is FALSE (votedFor[i] = Nil is FALSE); "
                               "the ELSE branch is FALSE")
    assert guard["values"]["votedFor"] == '[n1 |-> Nil, n2 |-> "n1", n3 |-> Nil]'
    assert guard["values"]["i"] == '"n2"'
    leaf = nodes[-1]
    assert leaf["text"] == "UNCHANGED votedFor"
    assert leaf["values"]["votedFor'"] == '[n1 |-> Nil, n2 |-> "n3", n3 |-> Nil]'
    # the text report shows the same
    run = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "validate", "--spec",
                          str(SPEC), str(path)], capture_output=True, text=True, timeout=120)
    assert "the condition is FALSE (votedFor[i] = Nil is FALSE)" in run.stdout, run.stdout
    assert "UNCHANGED votedFor  -- is FALSE" in run.stdout


def test_a_conforming_vote_is_accepted_and_a_wrong_grant_names_the_assignment(
        tmp_path: Path) -> None:
    """The THEN branch taken: the log names another candidate than the spec assigns."""
    ok = trace(tmp_path, vote("n1", "n2", "n1"), vote("n1", "n3", "n1"), module="Vote")
    assert validate(ok)[0] == 0
    wrong = trace(tmp_path, vote("n1", "n2", "n3"), module="Vote")
    code, report, _ = validate(wrong)
    assert code == 1
    nodes = _nodes(report["failure"]["candidates"][0]["blame"])
    guard = next(n for n in nodes if n["text"].startswith("IF "))
    assert guard["reason"] == "the condition is TRUE; the THEN branch is FALSE"
    assert nodes[-1]["text"] == "votedFor' = [votedFor EXCEPT ![i] = j]"
    assert nodes[-1]["values"]["j"] == '"n1"'


def test_the_library_and_replay_give_the_guard_and_the_logged_field(tmp_path: Path) -> None:
    import tlaconf

    path = trace(tmp_path, vote("n1", "n2", "n1"), vote("n3", "n2", "n3"), module="Vote")
    [result] = tlaconf.replay(path, spec=SPEC)
    assert result.verdict == "violation" and result.failure is not None
    blame = result.failure.blame
    assert blame is not None
    texts = [n.text for n in _walk(blame)]
    assert "UNCHANGED votedFor" in texts and "votedFor.n2" in texts


def _walk(node: Any) -> list[Any]:
    return [node, *(n for c in node.children for n in _walk(c))]


def test_an_unlabelled_step_is_blamed_down_the_nearest_witness(tmp_path: Path) -> None:
    """``Next == (\\E w, n : Add(...)) \\/ Tick``: the blame goes through the ``\\E`` to a
    witness's assignment, not stopping at "no witness"."""
    path = trace(tmp_path, {"state": {"count": {"#partial": {"b": 3}}}})
    code, report, _ = validate(path)
    assert code == 1
    nodes = _nodes(report["failure"]["candidates"][0]["blame"])
    assert any(n["reason"].startswith("no witness for \\E; nearest: w = ") for n in nodes)
    assert nodes[-1]["text"] == "count' = [count EXCEPT ![p.who] = @ + p.n]"
    assert nodes[-1]["values"]["count'"].endswith("b |-> 3]")


def test_the_html_report_shows_the_guard(tmp_path: Path) -> None:
    path = trace(tmp_path, vote("n1", "n2", "n1"), vote("n3", "n2", "n3"), module="Vote")
    out = tmp_path / "html"
    run = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "replay", "--spec",
                          str(SPEC), "--html", str(out), str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    page = (out / "index.html").read_text()
    assert "the condition is FALSE (votedFor[i] = Nil is FALSE)" in page
    assert "UNCHANGED votedFor" in page and "votedFor.n2" in page
