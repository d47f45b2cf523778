"""Results, state diffs and the rich report (terminal, plain text, NO_COLOR)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace
from tlaconf.replay import run_traces
from tlaconf.replay.result import BlameNode, Failure, TraceResult, exit_code, state_diff
from tlaconf.replay.result import strict_equal as eq
from tlaconf.report import ProgressDisplay, json_report, make_console, render_report
from tlaconf.values import make_fn, record

COUNTER = str(SPEC / "conformance" / "Counter.tla")
BLAME = BlameNode("Inc(p)", "is FALSE", COUNTER, 7, 1, 10, 44, children=(
    BlameNode("p.by > 0", "is FALSE", COUNTER, 8, 8, 8, 15, (("p", "[by |-> 0]"),)),))  # fmt: skip
FAIL = TraceResult("t.trace.jsonl", "Counter", "violation", 3, Failure(
    2, 4, "the step was accepted but Inc(p) is FALSE", "Inc", record(by=0), BLAME,
    state_diff({"count": 1}, {"count": 2})), 0.5)  # fmt: skip
OK = TraceResult("ok.trace.jsonl", "Counter", "conforms", 7, None, 0.25)


def test_strict_equality_never_mixes_booleans_and_integers() -> None:
    assert eq(make_fn({"a": frozenset({1})}), make_fn({"a": frozenset({1})}))
    assert not eq(True, 1) and not eq((1,), (True,)) and not eq(frozenset({1}), frozenset({True}))
    assert not eq(record(a=1), record(a=1, b=2)) and not eq(record(a=1), record(b=1))


def test_state_diff_lists_only_what_changed() -> None:
    before = {"x": 1, "occ": make_fn({"A": frozenset({1}), "B": frozenset()}), "seq": (1, 2),
              "gone": 0}  # fmt: skip
    after = {"x": 1, "occ": make_fn({"A": frozenset(), "B": frozenset({1})}), "seq": (1, 3),
             "new": True}  # fmt: skip
    assert [(c.path, c.before, c.after) for c in state_diff(before, after)] == [
        ("gone", "0", None),
        ("new", None, "TRUE"),
        ('occ["A"]', "{1}", "{}"),
        ('occ["B"]', "{}", "{1}"),
        ("seq[2]", "2", "3"),
    ]


def test_exit_codes() -> None:
    err = TraceResult("e", None, "error", 0, Failure(0, 1, "line 1: x"))
    vac = TraceResult("v", "Counter", "vacuous", 0, Failure(0, 2, "no steps"))
    assert (exit_code([OK]), exit_code([OK, vac]), exit_code([FAIL, err])) == (0, 1, 2)
    assert exit_code([]) == 0


def test_json_report() -> None:
    doc = json_report([OK, FAIL])
    assert doc["traces"][0] == {
        "path": "ok.trace.jsonl", "module": "Counter", "verdict": "conforms", "steps": 7,
        "failure": None,
    }  # fmt: skip
    failure = doc["traces"][1]["failure"]
    assert (failure["step"], failure["line"], failure["action"]) == (2, 4, "Inc")
    assert failure["blame"]["children"][0]["bindings"] == {"p": "[by |-> 0]"}
    assert failure["diff"] == [{"path": "count", "before": "1", "after": "2"}]
    assert doc["summary"]["violation"] == 1 and doc["summary"]["steps"] == 10


def render(console: Console) -> str:
    render_report(console, [OK, FAIL])
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_plain_text_off_a_terminal() -> None:
    text = render(make_console(io.StringIO()))
    assert "\x1b[" not in text
    for piece in ("ok.trace.jsonl", "conforms", "violation @ 2", "step 2", "line 4",
                  "action Inc([by |-> 0])", "p.by > 0", "p = [by |-> 0]",
                  "8 |     /\\ p.by > 0", "count", "2 trace(s), 10 step(s)", "FAILED"):  # fmt: skip
        assert piece in text


def test_colour_on_a_terminal_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = render(Console(file=io.StringIO(), force_terminal=True, width=120))
    assert "\x1b[" in coloured and "p.by > 0" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    plain = render(Console(file=io.StringIO(), force_terminal=True, width=120))
    assert "\x1b[31m" not in plain and "\x1b[1;31m" not in plain and "p.by > 0" in plain


def test_progress_display_on_a_terminal(tmp_path: Path) -> None:
    paths = [write_trace(tmp_path / f"t{i}.trace.jsonl", state(0),
                         [("Inc", {"by": 1, "who": "a"}, "accepted", state(1, a=1, b=0))])
             for i in range(3)]  # fmt: skip
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    with ProgressDisplay(console, len(paths)) as progress:
        results = run_traces(paths, SPEC, f"{BACKEND}:PyBackend", 1, progress.on_start,
                             progress.on_steps, progress.on_result)  # fmt: skip
        assert progress._progress.tasks[0].completed == 3
    assert [r.verdict for r in results] == ["conforms"] * 3
    assert "traces" in console.file.getvalue()  # type: ignore[attr-defined]
    quiet = ProgressDisplay(make_console(io.StringIO()), 1)
    assert not quiet.enabled
