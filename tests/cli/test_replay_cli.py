"""``tlaconf replay`` end to end: every verdict and exit code, the report, JSON, JUnit, -j."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.cli.clihelp import BACKENDS, PY_BACKEND, Cli
from tests.replay.counter_backend import SPEC, state, write_trace

INC = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))
ZERO = state(0)
BAD_GUARD = ("Inc", {"by": -1, "who": "b"}, "accepted", state(-1, a=0, b=-1))


def traces(tmp: Path) -> dict[str, Path]:
    """One trace per verdict."""
    return {
        "conforms": write_trace(tmp / "ok.trace.jsonl", state(0), [INC]),
        "violation": write_trace(tmp / "bad.trace.jsonl", state(0), [BAD_GUARD]),
        "vacuous": write_trace(tmp / "empty.trace.jsonl", state(0)),
        "error": write_trace(tmp / "err.trace.jsonl", state(0), [("Dec", {}, "rejected", ZERO)]),
    }


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("verdict", "code"), [("conforms", 0), ("violation", 1), ("vacuous", 1), ("error", 2)]
)
def test_each_verdict_and_exit_code(
    cli: Cli, tmp_path: Path, backend: str, verdict: str, code: int
) -> None:
    path = traces(tmp_path)[verdict]
    run = cli("replay", path, "--spec", SPEC, "--backend", backend)
    assert run.code == code, run.err
    assert verdict in run.out and str(path) in run.out
    assert ("OK" in run.out.splitlines()[-1]) == (code == 0)
    assert "\x1b[" not in run.out  # plain text off a terminal


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_failure_panel(cli: Cli, tmp_path: Path, backend: str) -> None:
    bad = ("Inc", {"by": -1, "who": "b"}, "accepted", state(1, a=2, b=-1))
    path = write_trace(tmp_path / "bad.trace.jsonl", state(0), [INC, bad])
    run = cli("replay", path, "--spec", SPEC, "--backend", backend)
    assert run.code == 1
    out = run.out
    assert "step 2" in out and "line 4" in out
    assert 'action Inc([by |-> -1, who |-> "b"])' in out
    assert "the step was accepted but Inc(p) is FALSE" in out
    assert "p.by > 0" in out and "Counter.tla:8:" in out  # blame with its location
    assert "8 |     /\\ p.by > 0" in out  # the source line ...
    assert "^^^^^^^^" in out  # ... with the span underlined
    assert "state diff" in out and 'tally["b"]' in out and "count" in out
    assert 'tally["a"]' not in out  # only keys that changed


def test_mixed_results_exit_with_the_worst(cli: Cli, tmp_path: Path) -> None:
    t = traces(tmp_path)
    assert cli("replay", t["conforms"], t["violation"], "--spec", SPEC,
               "--backend", PY_BACKEND).code == 1  # fmt: skip
    assert cli("replay", tmp_path, "--spec", SPEC, "--backend", PY_BACKEND).code == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_json_shape(cli: Cli, tmp_path: Path, backend: str) -> None:
    t = traces(tmp_path)
    run = cli("replay", *t.values(), "--spec", SPEC, "--backend", backend, "--json")
    assert run.code == 2
    doc = json.loads(run.out)
    assert set(doc) == {"traces", "summary"}
    by_verdict = {tr["verdict"]: tr for tr in doc["traces"]}
    assert set(by_verdict) == {"conforms", "violation", "vacuous", "error"}
    for tr in doc["traces"]:
        assert set(tr) == {"path", "module", "verdict", "steps", "failure"}
        assert tr["module"] == "Counter"
    assert by_verdict["conforms"]["failure"] is None and by_verdict["conforms"]["steps"] == 1
    failure = by_verdict["violation"]["failure"]
    assert {"step", "action", "reason", "blame"} <= set(failure)
    assert failure["step"] == 1 and failure["action"] == "Inc"
    assert failure["params"] == {"by": -1, "who": "b"}
    leaf = failure["blame"]
    while leaf["children"]:
        leaf = leaf["children"][0]
    assert leaf["text"] == "p.by > 0" and leaf["location"].endswith("Counter.tla:8:8")
    assert by_verdict["error"]["failure"]["reason"].startswith("line 3: unknown action label")
    assert by_verdict["error"]["failure"]["blame"] is None
    summary = doc["summary"]
    assert (summary["traces"], summary["conforms"], summary["error"]) == (4, 1, 1)
    assert summary["exit_code"] == 2


def test_junit(cli: Cli, tmp_path: Path) -> None:
    t = traces(tmp_path)
    junit = tmp_path / "out" / "junit.xml"
    junit.parent.mkdir()
    run = cli("replay", *t.values(), "--spec", SPEC, "--backend", PY_BACKEND, "--junit", junit)
    assert run.code == 2
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "2", "1")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert len(cases) == 4 and list(cases[str(t["conforms"])]) == []
    failure = cases[str(t["violation"])].find("failure")
    assert failure is not None and failure.get("type") == "violation"
    assert failure.text is not None and "p.by > 0" in failure.text and "blame:" in failure.text
    error = cases[str(t["error"])].find("error")
    assert error is not None and "line 3" in (error.get("message") or "")


@pytest.mark.parametrize("backend", BACKENDS)
def test_parallel_replay_gives_the_same_results(cli: Cli, tmp_path: Path, backend: str) -> None:
    t = traces(tmp_path)
    serial = json.loads(cli("replay", *t.values(), "--spec", SPEC, "--backend", backend,
                            "--json").out)  # fmt: skip
    parallel = json.loads(cli("replay", *t.values(), "--spec", SPEC, "--backend", backend,
                              "--json", "-j", "3").out)  # fmt: skip
    assert serial["traces"] == parallel["traces"]


def test_bad_input_exits_2_without_traceback(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for args in (
        ("replay", tmp_path / "missing.trace.jsonl", "--spec", SPEC),
        ("replay", tmp_path / "empty", "--spec", SPEC),  # no traces in an empty folder
        ("replay", traces(tmp_path)["conforms"], "--spec", tmp_path / "nospec"),
        ("replay", traces(tmp_path)["conforms"], "--spec", SPEC, "--backend", "nope"),
        ("replay", traces(tmp_path)["conforms"], "--spec", SPEC, "-j", "0"),
    ):
        run = cli(*args)
        assert run.code == 2 and run.err.startswith("tlaconf: error: "), run.err
        assert "Traceback" not in run.err


def test_unknown_module_and_revision_are_errors_naming_line_1(cli: Cli, tmp_path: Path) -> None:
    mod = write_trace(tmp_path / "m.trace.jsonl", state(0), [INC], module="Nope")
    rev = write_trace(tmp_path / "r.trace.jsonl", state(0), [INC], revision="7")
    run = cli("replay", mod, rev, "--spec", SPEC, "--json", "--backend", PY_BACKEND)
    assert run.code == 2
    reasons = [t["failure"]["reason"] for t in json.loads(run.out)["traces"]]
    assert reasons[0].startswith("line 1: ") and "unknown module 'Nope'" in reasons[0]
    assert reasons[1].startswith("line 1: ") and "unknown revision '7'" in reasons[1]


def test_default_spec_is_the_spec_folder_of_the_working_directory(
    cli: Cli, tmp_path: Path
) -> None:
    work = tmp_path / "project"
    (work / "spec").mkdir(parents=True)
    path = write_trace(tmp_path / "ok.trace.jsonl", state(0), [INC])
    run = cli("replay", path, "--backend", PY_BACKEND, "--json", cwd=work)
    reason = json.loads(run.out)["traces"][0]["failure"]["reason"]
    assert "unknown module 'Counter'" in reason and str(work / "spec") in reason
    assert str(work / "spec") in run.out
