"""A failure panel fits the terminal: a long conjunction is elided around the conjunct
that failed (the JSON report keeps it whole), a long log line is cut around the field
whose caret points at it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import tlaconf
from tlaconf.report.text import around, make_console, render_failure

ROOT = Path(__file__).resolve().parents[2]


def _panel(result: tlaconf.TraceResult, width: int) -> list[str]:
    out = io.StringIO()
    make_console(out, width).print(render_failure(result))
    return out.getvalue().splitlines()


@pytest.mark.parametrize("width", [60, 100, 160])
def test_a_long_conjunction_fits_and_shows_the_failing_conjunct(width: int) -> None:
    [r] = tlaconf.replay(ROOT / "traces" / "library" / "top-not-reversed.trace.jsonl",
                         spec=ROOT / "spec")
    assert r.failure is not None and r.failure.blame is not None
    conjunction = r.failure.blame.children[0]
    assert len(conjunction.text) > 900  # whole in --json
    assert r.to_json()["failure"]["blame"]["children"][0]["text"] == conjunction.text
    lines = _panel(r, width)
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    shown = next(line for line in lines if "lists' = [z \\in DOMAIN lists" in line
                 and "p.planVersion" not in line)
    assert "…" in shown  # elided around conjunct 13 of 18, not cut after conjunct 1
    assert not any("/\\ p.planVersion = version /\\ src \\in Zones" in line for line in lines)


def test_around() -> None:
    text = "/\\ a = 1 /\\ bb = 2 /\\ ccc = 3 /\\ dddd = 4 /\\ eeeee = 5"
    assert around(text, "ccc = 3", 100) == text
    assert around(text, "ccc = 3", 21) == "… 2 /\\ ccc = 3 /\\ dd…"
    assert len(around(text, "ccc = 3", 21)) == 21
    assert around(text, "dddd = 4 /\\ eeeee = 5", 24).endswith("eeeee = 5")
    assert around(text, "not there", 12) == "/\\ a = 1 /\\…"
    assert around("x = [a |-> 1,\n     b |-> 2]", "", 40) == "x = [a |-> 1, b |-> 2]"


def test_the_caret_of_a_partial_field_is_under_it_in_the_log_line() -> None:
    trace = ROOT / "traces" / "partial" / "wrong-zone-filed.trace.jsonl"
    [r] = tlaconf.replay(trace)
    assert r.failure is not None and r.failure.blame is not None
    node = r.failure.blame
    line = trace.read_text().splitlines()[6]
    assert (node.line, line[node.col - 1:node.end_col]) == (7, '"Play"')
    assert node.location.endswith(f":7:{node.col}") and node.col > 100
    lines = _panel(r, 100)
    row = next(i for i, x in enumerate(lines) if x.lstrip("│ ").startswith("7 | "))
    carets = lines[row + 1].index("^")
    assert lines[row][carets:carets + 6] == '"Play"'
    assert all(len(x) <= 100 for x in lines)
