"""The guide's worked example: pysyncobj (a third-party Raft library, a pinned dev
dependency) checked online against ``examples/raft/spec/RaftElection.tla``, unchanged,
through the conformance module ``PySyncObjRaft.tla`` that EXTENDS it; a planted bug
(monkeypatched, the library unchanged) is caught at the event that shows it."""

from __future__ import annotations

import importlib.util
import json
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
    # the loop ends once a leader is followed by all (about a second); 30 s bounds it
    result = election.elect(path, seconds=30.0)
    assert result.verdict == "conforms", result
    assert result.steps >= 8  # a timeout, two requests sent and received, a vote, a win
    actions = [json.loads(line).get("action") for line in path.read_text().splitlines()]
    assert {"ElectionTimeout", "SendRequestVote", "ReceiveRequestVote", "ReceiveVote",
            "WinElection"} <= set(actions)
    [again] = tlaconf.replay(path, spec=election.SPEC)
    assert again.verdict == "conforms" and again.steps == result.steps


def test_a_contended_election_conforms(tmp_path: Path) -> None:
    """Short election timeouts: split votes, several terms, a leader's log ahead of a
    later candidate's (pysyncobj's extra log guard) -- still no rejection."""
    result = election.elect(tmp_path / "election.trace.jsonl", 10.0, (0.04, 0.06))
    assert result.verdict == "conforms", result


def test_the_planted_bug_is_caught_at_its_event(tmp_path: Path) -> None:
    path = tmp_path / "election.trace.jsonl"
    with election.planted_bug(), pytest.raises(tlaconf.ConformanceError) as info:
        election.elect(path, seconds=30.0)
    err = info.value
    assert err.result.verdict == "violation" and err.failure is not None
    assert err.failure.action == "ReceiveRequestVote"
    frames = [f.name for f in traceback.extract_tb(err.__traceback__)]
    assert "doTick" in frames and "on_message" in frames  # inside the library's own call
    # the guard of the spec's own action, in the spec's file, with the term it read
    assert "m.mterm <= currentTerm[i]  -- is FALSE  [" in str(err)
    assert "RaftElection.tla:" in str(err).split("m.mterm <= currentTerm[i]  -- is FALSE")[1]
    [again] = tlaconf.replay(path, spec=election.SPEC)  # the log written up to the event
    assert (again.verdict, again.failure and again.failure.line) == \
        ("violation", err.failure.line)


def test_the_command_exits_1_on_the_bug() -> None:
    assert election.main(["--bug", "--seconds", "30"]) == 1


def test_the_spec_is_extended_unchanged() -> None:
    """The conformance module EXTENDS the election spec and defines no variable or
    action of its own name: the spec's actions are used as written."""
    conformance = (election.SPEC / "PySyncObjRaft.tla").read_text()
    assert "EXTENDS RaftElection" in conformance and "VARIABLE" not in conformance
    base = (election.SPEC / "RaftElection.tla").read_text()
    assert "pysyncobj" not in base.lower()


def test_the_spec_stands_alone() -> None:
    """The election spec is model-checked on its own (3 servers, terms up to 1): TLC
    finds 2,410 distinct states of 29,632, depth 17, and no violation; so does
    tlaconf."""
    result = tlaconf.explore(election.SPEC / "RaftElection.tla")
    assert result.violation is None
    assert (result.distinct_states, result.total_states, result.depth) == (2410, 29632, 17)
