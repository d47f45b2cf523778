"""The witness of a rejected-but-ENABLED step, reports that fit their width, the HTML page."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace
from tlaconf.cli.main import main
from tlaconf.replay import get_backend, replay_trace
from tlaconf.replay.result import Failure, TraceResult
from tlaconf.report import make_console, render_report, write_html
from tlaconf.report.html import render_page
from tlaconf.report.text import elide

ROOT = Path(__file__).resolve().parents[2]
ENABLED = ROOT / "traces" / "zones" / "rejected-but-enabled.trace.jsonl"
WRONG_ZONE = ROOT / "traces" / "zones" / "moved-to-wrong-zone.trace.jsonl"
EMBEDDED = get_backend("embedded")


def test_a_rejected_but_enabled_step_shows_the_successor_the_spec_allows() -> None:
    result = replay_trace(ENABLED, ROOT / "spec", EMBEDDED)
    assert result.verdict == "violation" and result.failure is not None
    witness = result.failure.witness
    assert witness is not None
    moved = {c.path: (c.before, c.after) for c in witness.diff}
    assert moved == {'occupants["Play"]': ("{12}", "{11, 12}"),
                     'occupants["SideA.Hand"]': ("{11}", "{}")}
    assert "id \\in before[source]" in witness.guards and "movementAuthorized" in witness.guards
    assert not any("after" in g for g in witness.guards)  # reads s': not a guard
    as_json = result.to_json()["failure"]["witness"]
    assert as_json["guards"] == list(witness.guards) and len(as_json["diff"]) == 2


def test_other_failures_have_no_witness() -> None:
    result = replay_trace(WRONG_ZONE, ROOT / "spec", EMBEDDED)
    assert result.failure is not None and result.failure.witness is None
    assert "witness" not in result.to_json()["failure"]


def test_the_text_report_shows_the_witness_at_80_columns() -> None:
    out = io.StringIO()
    render_report(make_console(out, 80), [replay_trace(ENABLED, ROOT / "spec", EMBEDDED)])
    text = out.getvalue()
    assert "witness: a successor the spec allows from s" in text
    assert "guards that held in s:" in text and "id \\in before[source]" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_long_paths_are_elided_in_the_middle_and_the_verdict_is_never_cut() -> None:
    assert elide("short", 10) == "short"
    cut = elide("traces/some/deep/folder/that-is-long.trace.jsonl", 24)
    assert len(cut) == 24 and cut.startswith("traces") and cut.endswith(".trace.jsonl")
    assert "…" in cut
    long_path = "very/" * 20 + "deep.trace.jsonl"
    bad = TraceResult(long_path, "ZoneMembership", "violation", 3, Failure(3, 5, "x"), 0.5)
    for width in (60, 80, 100):
        out = io.StringIO()
        render_report(make_console(out, width), [bad])
        text = out.getvalue()
        assert "violation @ 3" in text and (width < 80 or "/deep.trace.jsonl" in text)
        assert max(len(line) for line in text.splitlines()) <= width


def test_the_html_page_has_the_timeline_blame_source_and_witness(tmp_path: Path) -> None:
    results = [replay_trace(p, ROOT / "spec", EMBEDDED) for p in (WRONG_ZONE, ENABLED)]
    page = write_html(results, tmp_path / "report", "tlaconf replay").read_text()
    assert page.count('class="trace"') == 2 and 'id="failing-step"' in page
    assert 'class="leaf"' in page and 'class="leafhit"' in page  # blamed leaf, in the source
    assert "Zones4.tla" in page and "witness: a successor" in page
    assert "<script" not in page and "http" not in page.split("</style>")[1]  # self-contained


def test_the_timeline_shows_each_step_with_its_diff(tmp_path: Path) -> None:
    inc = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))
    bad = ("Inc", {"by": 1, "who": "b"}, "accepted", state(9, a=2, b=1))
    trace = write_trace(tmp_path / "t.trace.jsonl", state(0), [inc, bad])
    result = replay_trace(trace, SPEC, get_backend(f"{BACKEND}:PyBackend"))
    page = render_page([result], "t")
    timeline = page[page.index("<h3>timeline</h3>"):]
    assert timeline.count("<tr") == 4  # header, initial state, two steps
    assert "<code>count</code>: 0 → 2" in timeline and "<code>count</code>: 2 → 9" in timeline


def test_html_option_on_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(WRONG_ZONE), "--spec", str(ROOT / "spec"), "--json",
                 "--html", str(tmp_path / "h")])
    assert code == 1 and (tmp_path / "h" / "index.html").is_file()
    assert json.loads(capsys.readouterr().out)["traces"][0]["verdict"] == "violation"
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = main(["replay", str(WRONG_ZONE), "--spec", str(ROOT / "spec"), "--html", str(blocker)])
    err = capsys.readouterr().err
    assert code == 2 and "not a directory" in err and blocker.read_text() == ""
