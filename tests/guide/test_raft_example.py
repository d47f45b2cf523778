"""The guide's worked example: pysyncobj (a third-party Raft library, a pinned dev
dependency) checked online against ``examples/raft/spec/RaftVote.tla``; a planted bug
(monkeypatched, the library unchanged) is caught at the event that shows it."""

from __future__ import annotations

import importlib.util
import traceback
from pathlib import Path

import pytest

import tlaconf

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("raft_election", ROOT / "examples/raft/election.py")
assert _spec is not None and _spec.loader is not None
election = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(election)


def test_an_election_conforms(tmp_path: Path) -> None:
    path = tmp_path / "election.trace.jsonl"
    result = election.elect(path, seconds=10.0)
    assert result.verdict == "conforms", result
    assert result.steps >= 3  # a Timeout and two votes at least
    [again] = tlaconf.replay(path, spec=election.SPEC)
    assert again.verdict == "conforms" and again.steps == result.steps


def test_the_planted_bug_is_caught_at_its_event(tmp_path: Path) -> None:
    path = tmp_path / "election.trace.jsonl"
    with election.planted_bug(), pytest.raises(tlaconf.ConformanceError) as info:
        election.elect(path, seconds=10.0)
    err = info.value
    assert err.result.verdict == "violation" and err.failure is not None
    assert err.failure.action == "HandleRequestVote"
    assert "currentTerm[" in err.failure.reason and "(the log has 0, the spec has 1)" in \
        err.failure.reason
    frames = [f.name for f in traceback.extract_tb(err.__traceback__)]
    assert "doTick" in frames and "on_message" in frames  # inside the library's own call
    assert "currentTerm' = [currentTerm EXCEPT ![i] = term]" in str(err)
    [again] = tlaconf.replay(path, spec=election.SPEC)  # the log written up to the event
    assert (again.verdict, again.failure and again.failure.line) == \
        ("violation", err.failure.line)


def test_the_command_exits_1_on_the_bug() -> None:
    assert election.main(["--bug", "--seconds", "10"]) == 1
