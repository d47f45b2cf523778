"""``tlaconf.Recorder(check=True)``: each event checked as it is recorded, with the verdict
``tlaconf.replay`` gives the written file; the first nonconforming event raises
``tlaconf.ConformanceError`` from the implementation's own call."""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import pytest

import tlaconf
from tlaconf.trace.partial import Partial, read_partial
from tlaconf.trace.reader import open_trace
from tlaconf.values import Fn

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "traces").rglob("*.trace.jsonl"))
PSPEC = ROOT / "tests" / "validate" / "data" / "pspec"


def _some(v: Any) -> Any:
    """A logged ``#partial`` value as the recorder is given it."""
    if isinstance(v, Partial):
        return tlaconf.Some({k: _some(x) for k, x in v.entries})
    return v


def _params(p: Any) -> dict[str, Any]:
    assert isinstance(p, Fn)
    return dict(p.items())


def _record_again(golden: Path, out: Path) -> tlaconf.TraceResult:
    """Record ``golden``'s states through a checking Recorder: the online result."""
    with open_trace(golden) as t:
        h = t.header
    rec = tlaconf.Recorder(out, h.module, constants=dict(h.constants), meta=dict(h.meta),
                           revision=h.revision, partial=h.partial, check=True)
    try:
        with rec:
            if h.partial:
                p = read_partial(golden)
                rec.init({k: _some(v) for k, v in p.initial.items()})
                for s in p.steps:
                    state = {k: _some(v) for k, v in s.state.items()}
                    if s.action is None:
                        rec.unlabelled(state, "accepted" if s.outcome == "accepted"
                                       else "rejected")
                    else:
                        rec.record(s.action, _params(s.params),
                                   "accepted" if s.outcome == "accepted" else "rejected", state)
            else:
                with open_trace(golden) as t:
                    rec.init(t.initial)
                    for step in t.steps():
                        if step.action is None:
                            rec.unlabelled(step.state, step.outcome)
                        else:
                            rec.record(step.action, _params(step.params), step.outcome,
                                       step.state)
    except tlaconf.ConformanceError as err:
        assert rec.result is err.result
        return err.result
    assert rec.result is not None
    return rec.result


def _key(r: tlaconf.TraceResult) -> tuple[Any, ...]:
    f = r.failure
    return (r.verdict, r.steps, r.undecided, None if f is None else (f.step, f.line, f.reason),
            None if f is None or f.blame is None else f.blame.to_json())


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: str(p.relative_to(ROOT / "traces")))
def test_online_verdict_equals_replay_of_the_written_log(golden: Path, tmp_path: Path) -> None:
    out = tmp_path / golden.name
    online = _record_again(golden, out)
    [afterwards] = tlaconf.replay(out)
    assert _key(online) == _key(afterwards)
    [original] = tlaconf.replay(golden)
    # the golden verdict and failing step; a violation stops the recording at its line
    assert (online.verdict, online.failure and online.failure.step) == \
        (original.verdict, original.failure and original.failure.step)


def test_golden_corpus_is_full_and_partial() -> None:
    kinds = {open_trace(p).header.partial for p in GOLDEN}
    assert kinds == {True, False} and len(GOLDEN) > 100


def _vote_recorder(path: Path) -> tlaconf.Recorder[dict[str, str | None]]:
    return tlaconf.Recorder(
        path, "Vote", refine=lambda votes: {},
        observe=lambda action, p, votes: {"votedFor": tlaconf.Some({p["dest"]: votes[p["dest"]]})},
        check=True, spec=PSPEC)


def grant(rec: tlaconf.Recorder[dict[str, str | None]], votes: dict[str, str | None],
          source: str, dest: str, twice: bool = False) -> None:
    """An implementation's RequestVote handler (``twice``: the bug of granting a second
    vote in a term)."""
    if votes.get(dest) is None or twice:
        votes[dest] = source
    rec.accepted("HandleRequestVote",
                 {"source": source, "dest": dest, "term": 1, "lastTerm": 0}, votes)


def test_the_first_nonconforming_event_raises_at_the_implementations_call(
        tmp_path: Path) -> None:
    path = tmp_path / "vote.trace.jsonl"
    votes: dict[str, str | None] = {"n1": None, "n2": None, "n3": None}
    with pytest.raises(tlaconf.ConformanceError) as info, _vote_recorder(path) as rec:
        rec.init(votes)
        grant(rec, votes, "n1", "n2")
        grant(rec, votes, "n1", "n3")
        grant(rec, votes, "n3", "n2", twice=True)
        grant(rec, votes, "n2", "n1")  # never reached
    err = info.value
    assert err.result.verdict == "violation" and err.failure is not None
    assert (err.failure.step, err.failure.line) == (3, 5)
    assert "the condition is FALSE (votedFor[i] = Nil is FALSE)" in str(err)
    frames = [f.name for f in traceback.extract_tb(err.__traceback__)]
    assert "grant" in frames  # the implementation's own stack
    # the trace up to the failing event is written, and replay agrees
    assert len(path.read_text().splitlines()) == 5
    [after] = tlaconf.replay(path, spec=PSPEC)
    assert (after.verdict, after.failure and after.failure.line) == ("violation", 5)


def test_a_conforming_run_has_a_result_once_closed(tmp_path: Path) -> None:
    path = tmp_path / "vote.trace.jsonl"
    votes: dict[str, str | None] = {"n1": None, "n2": None, "n3": None}
    with _vote_recorder(path) as rec:
        rec.init(votes)
        grant(rec, votes, "n1", "n2")
        grant(rec, votes, "n3", "n2")  # refused: votedFor stays
        assert rec.result is None  # not decided until closed
    assert rec.result is not None and rec.result.verdict == "conforms"
    assert rec.result.steps == 2


def test_bad_input_raises_as_an_error_verdict(tmp_path: Path) -> None:
    """An action the module does not have: the error verdict replay gives, at the call."""
    with pytest.raises(tlaconf.ConformanceError) as info, tlaconf.Recorder(
            tmp_path / "t.trace.jsonl", "Vote", partial=True, check=True, spec=PSPEC) as rec:
        rec.init({})
        rec.accepted("Vote", {"x": 1}, {})
    assert info.value.result.verdict == "error"
    assert "unknown action 'Vote'" in str(info.value)
    with pytest.raises(tlaconf.ConformanceError) as missing:
        tlaconf.Recorder(tmp_path / "u.trace.jsonl", "NoSuchModule", check=True, spec=PSPEC)
    assert missing.value.result.verdict == "error"
    assert "NoSuchModule" in str(missing.value)
    assert not (tmp_path / "u.trace.jsonl.part").exists()
    [after] = tlaconf.replay(tmp_path / "u.trace.jsonl", spec=PSPEC)  # the header alone
    assert (after.verdict, after.failure and after.failure.reason) == \
        ("error", missing.value.failure and missing.value.failure.reason)


def test_without_check_nothing_is_checked(tmp_path: Path) -> None:
    votes: dict[str, str | None] = {"n2": None}
    with tlaconf.Recorder(tmp_path / "t.trace.jsonl", "Vote", partial=True) as rec:
        rec.init({})
        rec.accepted("HandleRequestVote", {"source": "n3", "dest": "n2", "term": 1,
                                           "lastTerm": 0}, {"votedFor": tlaconf.Some({"n2": "x"})})
    assert rec.result is None and votes == {"n2": None}
