"""``tlaconf validate --max-states N --max-seconds S``: a search that exceeds a bound is
undecided (exit 3), including the infinite one a .cfg without its ACTION_CONSTRAINT makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.validate import tracespec

DATA = Path(__file__).with_name("data")
LIB = Path(__file__).parents[1] / "library" / "data" / "lib"
UNBOUNDED = "SPECIFICATION TraceSpec\nVIEW TraceView\nPOSTCONDITION TraceAccepted\n"
"""CounterTrace.cfg without ``ACTION_CONSTRAINT TraceNextConstraint``: every behaviour of
the counter, an infinite state space."""


def validate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
             *args: str | Path) -> tuple[int, dict[str, object], str]:
    monkeypatch.delenv("TLACONF_LIBRARY", raising=False)
    monkeypatch.chdir(DATA)
    code = main(["validate", "--library", str(LIB), "--json", "--env", "JSON=good.ndjson",
                 *map(str, args)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


@pytest.fixture
def unbounded(tmp_path: Path) -> Path:
    cfg = tmp_path / "Unbounded.cfg"
    cfg.write_text(UNBOUNDED)
    return cfg


def test_the_infinite_search_stops_at_max_states(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  unbounded: Path) -> None:
    code, report, _ = validate(capsys, monkeypatch, "-c", unbounded, "--max-states", "2000",
                               "CounterTrace.tla")
    assert code == 3
    assert report["result"] == "undecided"
    assert report["distinct_states"] == 2001
    reason = str(report["reason"])
    assert "went past 2000 distinct states (--max-states)" in reason
    assert "ACTION_CONSTRAINT" in reason


def test_the_infinite_search_stops_at_max_seconds(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  unbounded: Path) -> None:
    code, report, _ = validate(capsys, monkeypatch, "-c", unbounded, "--max-states", "0",
                               "--max-seconds", "0.5", "CounterTrace.tla")
    assert code == 3
    assert "went past 0.5 s (--max-seconds)" in str(report["reason"])
    assert float(report["seconds"]) >= 0.5  # type: ignore[arg-type]


def test_the_default_bound_ends_an_infinite_search(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   unbounded: Path) -> None:
    """No option given: the default --max-states applies (made small here to be quick)."""
    monkeypatch.setattr(tracespec, "DEFAULT_MAX_STATES", 300)
    code, report, _ = validate(capsys, monkeypatch, "-c", unbounded, "CounterTrace.tla")
    assert code == 3
    assert "went past 300 distinct states" in str(report["reason"])


@pytest.mark.parametrize(("bound", "code", "result"), [
    ("7", 0, "accepted"),  # the good log's search holds exactly 7 distinct states
    ("0", 0, "accepted"),  # no bound
    ("6", 3, "undecided"),
])
def test_a_bound_the_search_stays_within_is_no_verdict_change(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bound: str,
        code: int, result: str) -> None:
    got, report, _ = validate(capsys, monkeypatch, "--max-states", bound, "--max-seconds",
                              "600", "CounterTrace.tla")
    assert (got, report["result"]) == (code, result)


@pytest.mark.parametrize(("args", "message"), [
    (("--max-states", "-1"), "argument --max-states: -1 is not a positive number"),
    (("--max-states", "many"), "argument --max-states: 'many' is not a whole number"),
    (("--max-seconds", "0"), "argument --max-seconds: expected a positive number of seconds"),
    (("--max-seconds", "inf"), "argument --max-seconds: expected a positive number of seconds"),
    (("--max-seconds", "nan"), "argument --max-seconds: expected a positive number of seconds"),
])
def test_bad_bounds_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...],
                                     message: str) -> None:
    code, _, err = validate(capsys, monkeypatch, *args, "CounterTrace.tla")
    assert code == 2 and message in err


def test_the_bounds_do_not_apply_to_a_partial_trace(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    trace = tmp_path / "p.trace.jsonl"
    trace.write_text('{"format": "tlaconf-trace", "version": 1, "module": "M", '
                     '"revision": "1", "partial": true}\n{"state": {}}\n')
    monkeypatch.chdir(tmp_path)
    code = main(["validate", "--max-states", "5", "--max-seconds", "3", str(trace)])
    err = capsys.readouterr().err
    assert code == 2
    assert "--max-states, --max-seconds does not apply to a partial trace" in err
