"""``tlaconf check`` replays each trace once: coverage rides on the verdict's replay (an
observer of the one replay loop), with the figures ``tlaconf coverage`` gives."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.cli.clihelp import PY_BACKEND
from tests.replay.counter_backend import SCENARIOS, SPEC, PyBackend, write_trace
from tests.replay.counter_backend import state as counter_state
from tests.replay.counter_scenarios import generate_all_buggy
from tlaconf.cli.main import main
from tlaconf.replay import Replayer, get_backend, run_traces
from tlaconf.replay.coverage import CoverageObserver, cover_traces
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.report.coverage import summary_line


def _count_replays(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Counter[str]]:
    """Replays per trace path and embedded loads per module file, counted from now on."""
    replays: Counter[str] = Counter()
    loads: Counter[str] = Counter()
    replay, load = Replayer.replay, EmbeddedBackend.load

    def counted_replay(self: Replayer, path: Any, *args: Any, **kwargs: Any) -> Any:
        replays[str(path)] += 1
        return replay(self, path, *args, **kwargs)

    def counted_load(self: EmbeddedBackend, spec: Any) -> Any:
        loads[str(spec.path)] += 1
        return load(self, spec)

    monkeypatch.setattr(Replayer, "replay", counted_replay)
    monkeypatch.setattr(EmbeddedBackend, "load", counted_load)
    return replays, loads


def _check(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
           *extra: str) -> tuple[int, str, list[Path]]:
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--spec", str(SPEC), "--seed", "1", "--seed", "2", *extra])
    out = capsys.readouterr().out
    return code, out, sorted(Path(".tlaconf-out", "check").rglob("*.trace.jsonl"))


def test_check_replays_and_loads_once_with_the_coverage_of_tlaconf_coverage(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replays, loads = _count_replays(monkeypatch)
    code, out, paths = _check(monkeypatch, tmp_path, capsys, "--scenarios", SCENARIOS)
    assert code == 0 and len(paths) == 4
    assert sorted(replays) == [str(p) for p in paths] and set(replays.values()) == {1}
    assert list(loads.values()) == [1]  # Counter.tla, once for the run
    replays.clear()
    alone = summary_line(cover_traces(paths, SPEC))  # what `tlaconf coverage` says
    assert set(replays.values()) == {1} and len(replays) == 4
    assert alone in out.splitlines()
    assert "guards" in alone and "0/0 guards" not in alone


def test_a_failing_check_replays_once_and_covers_up_to_the_failure(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replays, _ = _count_replays(monkeypatch)
    code, out, paths = _check(monkeypatch, tmp_path, capsys,
                              "--scenarios", f"{SCENARIOS}:generate_all_buggy")
    assert code == 1 and "violation" in out
    assert set(replays.values()) == {1} and len(replays) == len(paths)
    line = summary_line(cover_traces(paths, SPEC))
    assert "do not conform" in line and line in out.splitlines()


def test_coverage_joined_from_worker_processes_is_the_same(tmp_path: Path) -> None:
    paths = []
    for seed in (1, 2):
        (tmp_path / str(seed)).mkdir()
        paths += generate_all_buggy(tmp_path / str(seed), seed)
    observer = CoverageObserver(strict=False)
    results = run_traces(paths, SPEC, "embedded", jobs=2, observers=(observer,))
    assert [r.verdict for r in results] == [r.verdict for r in run_traces(paths, SPEC)]
    alone = cover_traces(paths, SPEC)
    assert observer.coverage.actions == alone.actions  # every count, point by point
    assert observer.coverage.traces == alone.traces == [str(p) for p in paths]
    assert observer.coverage.figures()["nonconforming_steps"] > 0
    with pytest.raises(ValueError, match="own observers and settings"):
        run_traces(paths, SPEC, Replayer(get_backend("embedded")), observers=(observer,))


def test_a_backend_without_coverage_is_named_and_keeps_its_verdicts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _check(monkeypatch, tmp_path, capsys, "--scenarios", SCENARIOS,
                              "--backend", PY_BACKEND)
    assert code == 0 and "4 conforms" in out
    assert ("coverage: 4 traces (the first: .tlaconf-out/check/seed-1/counter-1.trace.jsonl): "
            "module Counter was loaded by a backend that cannot measure coverage") in out
    assert "guards (" not in out  # no figures: nothing was measured


def test_only_a_strict_observer_ends_a_trace_it_cannot_cover(tmp_path: Path) -> None:
    trace = write_trace(tmp_path / "t.trace.jsonl", counter_state(0),
                        [("Inc", {"by": 1, "who": "a"}, "accepted", counter_state(1, a=1, b=0))])
    lenient = CoverageObserver(strict=False)
    assert Replayer(PyBackend(), observers=(lenient,)).replay(trace, SPEC).verdict == "conforms"
    assert lenient.coverage.traces == [] and "cannot measure" in lenient.coverage.unmeasured[
        str(trace)]
    strict = Replayer(PyBackend(), observers=(CoverageObserver(),)).replay(trace, SPEC)
    assert strict.verdict == "error" and strict.failure is not None
    assert "cannot measure coverage" in strict.failure.reason
    both = Replayer(get_backend("embedded"), observers=(lenient,))
    assert both.replay(trace, SPEC).verdict == "conforms" and lenient.coverage.traces == [
        str(trace)]
