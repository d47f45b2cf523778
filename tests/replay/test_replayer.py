"""The Replayer: one replay loop that owns its loaded modules (keyed by the files' text),
its strategy, and the observers that ride on it (coverage)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tlaconf.replay import Replayer, get_backend
from tlaconf.replay.backend import LoadedModule, State
from tlaconf.replay.coverage import CoverageObserver, cover_traces
from tlaconf.replay.runner import setup
from tlaconf.trace.reader import Step
from tlaconf.trace.writer import TraceWriter

MODULE = """---- MODULE Up ----
EXTENDS Naturals, Limits
VARIABLES x
Inc(p) == /\\ p.by > 0
          /\\ x + p.by <= Max
          /\\ x' = x + p.by
====
"""


def _spec(tmp_path: Path, limit: int) -> Path:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True, exist_ok=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True, exist_ok=True)
    (spec / "conformance" / "Up.tla").write_text(MODULE)
    _limits(spec, limit)
    return spec


def _limits(spec: Path, limit: int) -> None:
    (spec / "conformance" / "Limits.tla").write_text(
        f"---- MODULE Limits ----\nMax == {limit}\n====\n")


def _trace(path: Path, *bys: int) -> Path:
    with TraceWriter(path, "Up", "1", {}, {}) as w:
        w.init({"x": 0})
        x = 0
        for by in bys:
            x += by
            w.step("Inc", {"by": by}, "accepted", {"x": x})
    return path


def test_an_edited_module_is_loaded_again(tmp_path: Path) -> None:
    spec = _spec(tmp_path, 10)
    trace = _trace(tmp_path / "t.trace.jsonl", 3, 4)
    replayer = Replayer(get_backend("embedded"))
    assert replayer.replay(trace, spec).verdict == "conforms"
    assert replayer.replay(trace, spec).verdict == "conforms"  # the cached load
    _limits(spec, 5)  # an EXTENDed module changes, its size and the second the same
    r = replayer.replay(trace, spec)
    assert r.verdict == "violation" and r.failure is not None and r.failure.step == 2
    _limits(spec, 10)
    assert replayer.replay(trace, spec).verdict == "conforms"


def test_two_replayers_share_nothing(tmp_path: Path) -> None:
    spec = _spec(tmp_path, 10)
    trace = _trace(tmp_path / "t.trace.jsonl", 3)
    a, b = setup("embedded"), setup("embedded")
    a.replay(trace, spec)
    assert a.modules._loaded and not b.modules._loaded


class _Seen:
    """An observer that records what the loop shows it."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def start(self, path: Path, mod: LoadedModule) -> None:
        self.events.append(("start", mod.name))

    def initial(self, mod: LoadedModule, state: State) -> None:
        self.events.append(("initial", dict(state)))

    def step(self, mod: LoadedModule, number: int, step: Step, before: State) -> None:
        self.events.append((number, step.action, dict(before)))


def test_observers_see_every_judged_step_up_to_the_failure(tmp_path: Path) -> None:
    spec = _spec(tmp_path, 5)
    trace = _trace(tmp_path / "t.trace.jsonl", 2, 2, 2, 2)  # step 3 breaks Max
    seen = _Seen()
    r = Replayer(get_backend("embedded"), observers=(seen,)).replay(trace, spec)
    assert r.verdict == "violation" and r.failure is not None and r.failure.step == 3
    assert seen.events == [("start", "Up"), ("initial", {"x": 0}), (1, "Inc", {"x": 0}),
                           (2, "Inc", {"x": 2}), (3, "Inc", {"x": 4})]


def test_coverage_is_an_observer_of_the_replay(tmp_path: Path) -> None:
    spec = _spec(tmp_path, 5)
    ok = _trace(tmp_path / "ok.trace.jsonl", 2, 2)
    bad = _trace(tmp_path / "bad.trace.jsonl", 2, 2, 2, 2)
    observer = CoverageObserver()
    replayer = Replayer(get_backend("embedded"), observers=(observer,))
    assert [replayer.replay(p, spec).verdict for p in (ok, bad)] == ["conforms", "violation"]
    (ac,) = observer.coverage.actions.values()
    assert (ac.accepted, ac.nonconforming) == (5, 1)  # 2 + 3: the bad trace stops at step 3
    assert cover_traces([ok, bad], spec).figures() == observer.coverage.figures()


def test_coverage_refuses_a_trace_it_cannot_replay(tmp_path: Path) -> None:
    spec = _spec(tmp_path, 5)
    trace = tmp_path / "t.trace.jsonl"
    with TraceWriter(trace, "Up", "1", {}, {}) as w:
        w.init({"y": 0})
    with pytest.raises(Exception, match=r"t\.trace\.jsonl:2: the state lacks variable\(s\) x"):
        cover_traces([trace], spec)


def test_cross_check_needs_a_checker() -> None:
    with pytest.raises(ValueError, match="needs a checker"):
        Replayer(get_backend("embedded"), None, cross_check=True)


def test_two_replayers_keep_their_own_debug_setting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.replay.counter_backend import SPEC, BuggyBackend, state, write_trace

    trace = write_trace(tmp_path / "t.trace.jsonl", state(0),
                        [("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0))])
    loud = Replayer(BuggyBackend(), debug=True)
    quiet = Replayer(BuggyBackend())
    for replayer, shown in ((loud, True), (quiet, False), (loud, True), (quiet, False)):
        r = replayer.replay(trace, SPEC)
        assert r.internal_error and r.failure is not None and r.failure.traceback
        Path(r.failure.traceback).unlink()
        err = capsys.readouterr().err
        assert ("Traceback (most recent call last)" in err) is shown
        assert ("ZeroDivisionError: a bug in the backend" in err) is shown


def test_debug_is_a_setting_of_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace
    from tlaconf.cli.main import main

    trace = write_trace(tmp_path / "t.trace.jsonl", state(0),
                        [("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0))])
    args = ["replay", "--spec", str(SPEC), "--backend", f"{BACKEND}:BuggyBackend", "--json",
            str(trace)]
    for flags, shown in ((["--debug"], True), ([], False)):
        assert main([*flags, *args]) == 4
        captured = capsys.readouterr()
        assert ("Traceback (most recent call last)" in captured.err) is shown
        Path(json.loads(captured.out)["traces"][0]["failure"]["traceback"]).unlink()
