"""``tlaconf coverage``: which guards, conjuncts, disjuncts and CASE arms traces reach."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tlaconf.cli.main import main
from tlaconf.trace.writer import TraceWriter

MODULE = r"""---- MODULE Cov ----
EXTENDS Naturals
VARIABLES x
Ok(n) == /\ n > 0
         /\ n < 10
Step(p) ==
    /\ Ok(p.n)
    /\ \/ p.mode = "add"
       \/ p.mode = "set"
    /\ CASE p.mode # "set" -> x' = x + p.n
         [] OTHER -> x' = p.n
Stop(p) == /\ x > 100
           /\ UNCHANGED x
====
"""


def _spec(tmp_path: Path) -> Path:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    (spec / "conformance" / "Cov.tla").write_text(MODULE)
    return spec


def _trace(path: Path, steps: list[tuple[str, dict[str, Any], str, int]]) -> Path:
    with TraceWriter(path, "Cov", "1", {}, {}) as w:
        w.init({"x": 0})
        for action, params, outcome, x in steps:
            w.step(action, params, outcome, {"x": x})
    return path


STEPS = [
    ("Step", {"n": 1, "mode": "add"}, "accepted", 1),
    ("Step", {"n": 0, "mode": "add"}, "rejected", 1),
    ("Step", {"n": 2, "mode": "set"}, "accepted", 2),
    ("Step", {"n": 20, "mode": "set"}, "rejected", 2),
    ("Stop", {}, "rejected", 2),
]


def _run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _points(doc: dict[str, Any], action: str) -> dict[str, dict[str, Any]]:
    (ac,) = [a for a in doc["actions"] if a["action"] == action]
    return {p["text"]: p for p in ac["points"]}


def test_counts_per_point_on_accepted_and_rejected_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec(tmp_path)
    trace = _trace(tmp_path / "t.trace.jsonl", STEPS)
    code, out, _ = _run(capsys, "coverage", trace, "--spec", spec, "--json")
    assert code == 0
    doc = json.loads(out)
    step = _points(doc, "Step")
    # guards inside the operator the action calls are points of their own
    assert step["n > 0"]["role"] == "guard" and step["n > 0"]["covered"]
    assert step["n > 0"]["rejected"] == {"true": 1, "false": 1}
    assert step["n < 10"]["rejected"] == {"true": 0, "false": 1}
    assert step["n < 10"]["accepted"] == {"true": 2, "false": 0}
    # short-circuit as TLC: no rejected step reaches the disjunction, so it is a hole
    disj = step['\\/ p.mode = "add" \\/ p.mode = "set"']
    assert disj["role"] == "guard" and not disj["covered"]
    assert disj["rejected"] == {"true": 0, "false": 0}
    assert step['p.mode = "add"']["kind"] == "disjunct"
    assert step['p.mode = "add"']["accepted"] == {"true": 1, "false": 1}
    assert step['p.mode = "set"']["accepted"] == {"true": 1, "false": 0}
    assert step['p.mode = "add"']["covered"] and not step['p.mode = "set"']["covered"]
    # the CASE arm and OTHER, and the primed conjuncts are not guards
    arm = [p for p in step.values() if p["kind"] == "case-arm"]
    assert len(arm) == 1 and arm[0]["accepted"] == {"true": 1, "false": 1}
    (case,) = [p for t, p in step.items() if t.startswith("CASE")]
    assert case["kind"] == "conjunct" and case["role"] == "point"
    stop = _points(doc, "Stop")
    assert stop["x > 100"]["role"] == "state guard" and not stop["x > 100"]["covered"]
    assert stop["x > 100"]["rejected"] == {"true": 0, "false": 1}
    assert doc["summary"]["guards"] == 4 and doc["summary"]["guards_covered"] == 3


def test_text_report_lists_the_holes_and_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec(tmp_path)
    trace = _trace(tmp_path / "t.trace.jsonl", STEPS)
    code, out, _ = _run(capsys, "coverage", trace, "--spec", spec)
    assert code == 0
    assert "never FALSE on a rejected step" in out
    assert "Cov.tla:8:8" in out  # the uncovered disjunction, with its location
    assert "state guard x > 100" in out and "never TRUE on an accepted step" in out
    assert "coverage: 3/4 guards (75%)" in out
    code, _, err = _run(capsys, "coverage", trace, "--spec", spec, "--fail-under", "80")
    assert code == 1 and "75.0%" in err
    assert _run(capsys, "coverage", trace, "--spec", spec, "--fail-under", "70")[0] == 0


def test_html_page_colours_the_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec(tmp_path)
    trace = _trace(tmp_path / "t.trace.jsonl", STEPS)
    page = tmp_path / "cov.html"
    code, _, _ = _run(capsys, "coverage", trace, "--spec", spec, "--html", page)
    assert code == 0
    text = page.read_text()
    assert '<span class="covered"' in text and "n &gt; 0" in text
    assert '<span class="partial"' in text  # the disjunction reached but never FALSE
    assert not list(tmp_path.glob("*.part"))


def test_all_points_reached_and_unreached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec(tmp_path)
    trace = _trace(tmp_path / "t.trace.jsonl", STEPS[:1])
    code, out, _ = _run(capsys, "coverage", trace, "--spec", spec, "--json")
    step = _points(json.loads(out), "Step")
    assert code == 0 and step["n < 10"]["accepted"] == {"true": 1, "false": 0}
    other = [p for p in step.values() if p["kind"] == "other"]
    assert other and other[0]["accepted"] == {"true": 0, "false": 0}  # never reached


@pytest.mark.parametrize(
    "lines, message",
    [
        (None, "does not exist"),
        (['{"format": "tlaconf-trace", "version": 1, "module": "Cov", "revision": "1"}',
          '{"state": {"x": 0}}',
          '{"action": "Jump", "params": {}, "outcome": "accepted", "state": {"x": 0}}'],
         "t.trace.jsonl:3: unknown action label 'Jump'"),
        (['{"format": "tlaconf-trace", "version": 1, "module": "Nope", "revision": "1"}',
          '{"state": {"x": 0}}'], "t.trace.jsonl:1: cannot load module 'Nope'"),
        (['{"format": "tlaconf-trace", "version": 1, "module": "Cov", "revision": "1"}',
          '{"state": '], "t.trace.jsonl:2"),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str] | None, message: str
) -> None:
    spec = _spec(tmp_path)
    trace = tmp_path / "t.trace.jsonl"
    if lines is not None:
        trace.write_text("\n".join(lines) + "\n")
    page = tmp_path / "cov.html"
    code, out, err = _run(capsys, "coverage", trace, "--spec", spec, "--html", page)
    assert code == 2 and message in err and "Traceback" not in err
    assert not page.exists() and out == ""


def test_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec(tmp_path)
    trace = _trace(tmp_path / "t.trace.jsonl", STEPS)
    code, _, err = _run(capsys, "coverage", trace, "--spec", spec, "--fail-under", "120")
    assert code == 2 and "--fail-under" in err
    code, _, err = _run(capsys, "coverage", trace, "--spec", spec, "--html", trace / "x.html")
    assert code == 2 and "is a file, not a directory" in err


def test_steps_without_a_label_cover_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec(tmp_path)
    tla = spec / "conformance" / "Cov.tla"
    nxt = 'Next == \\E n \\in 1..3 : Step([n |-> n, mode |-> "add"])\n===='
    tla.write_text(MODULE.replace("====", nxt))
    trace = tmp_path / "t.trace.jsonl"
    with TraceWriter(trace, "Cov", "1", {}, {}) as w:
        w.init({"x": 0})
        w.unlabeled_step({"x": 2})
        w.unlabeled_step({"x": 2}, "rejected")
    code, out, _ = _run(capsys, "coverage", trace, "--spec", spec, "--json")
    assert code == 0
    doc = json.loads(out)
    (nxt,) = [a for a in doc["actions"] if a["action"] == "Next"]
    assert nxt["accepted"] == 1 and nxt["rejected"] == 0 and nxt["nonconforming"] == 0
    points = {p["text"]: p for p in nxt["points"]}
    assert points["n > 0"]["accepted"]["true"] >= 1
    tla.write_text(MODULE)  # no Next: a step without a label cannot be covered
    code, _, err = _run(capsys, "coverage", trace, "--spec", spec)
    assert code == 2 and "t.trace.jsonl:3: the step has no action label" in err
    assert "module Cov defines no Next" in err
