"""Invariant counts in every report, warnings, ``--strict``, and a gate corpus that checks
nothing."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.cli.clihelp import PY_BACKEND, Cli
from tests.replay.counter_backend import SPEC, state, write_trace

INC = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))
WARNING = "module Counter has no invariants"


@pytest.fixture
def bare_spec(tmp_path: Path) -> Path:
    """The Counter spec with a .cfg that lists no INVARIANT."""
    spec = tmp_path / "bare-spec"
    shutil.copytree(SPEC, spec)
    (spec / "conformance" / "Counter.cfg").write_text("CONSTANTS\n    Limit = 10\n")
    return spec


def _replay(cli: Cli, tmp_path: Path, spec: Path, *extra: str) -> tuple[int, str]:
    path = write_trace(tmp_path / "ok.trace.jsonl", state(0), [INC])
    run = cli("replay", path, "--spec", spec, "--backend", PY_BACKEND, *extra)
    assert "Traceback" not in run.err
    return run.code, run.out


def test_the_text_report_counts_invariants_per_module(cli: Cli, tmp_path: Path,
                                                      bare_spec: Path) -> None:  # fmt: skip
    code, out = _replay(cli, tmp_path, SPEC)
    assert code == 0 and "invariants checked in every state: Counter 1" in out
    assert "warning" not in out
    code, out = _replay(cli, tmp_path, bare_spec)
    assert code == 0 and "invariants checked in every state: Counter 0" in out
    assert f"warning: {WARNING}" in out and out.splitlines()[-1].endswith("OK")


def test_strict_turns_the_warning_into_exit_1(cli: Cli, tmp_path: Path, bare_spec: Path) -> None:
    code, out = _replay(cli, tmp_path, bare_spec, "--strict")
    assert code == 1 and out.splitlines()[-1].endswith("FAILED")
    code, _ = _replay(cli, tmp_path, SPEC, "--strict")
    assert code == 0


def test_json_summary_and_junit_properties(cli: Cli, tmp_path: Path, bare_spec: Path) -> None:
    junit = tmp_path / "r.xml"
    code, out = _replay(cli, tmp_path, bare_spec, "--json", "--strict", "--junit", str(junit))
    summary = json.loads(out)["summary"]
    assert code == 1 and summary["exit_code"] == 1
    assert summary["invariants"] == {"Counter": 0}
    assert len(summary["warnings"]) == 1 and WARNING in summary["warnings"][0]
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).iter("property")}
    assert props["invariants.Counter"] == "0" and WARNING in props["warning"]
    code, out = _replay(cli, tmp_path, SPEC, "--json", "--junit", str(junit))
    summary = json.loads(out)["summary"]
    assert (code, summary["invariants"], summary["warnings"]) == (0, {"Counter": 1}, [])
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).iter("property")}
    assert props == {"invariants.Counter": "1"}


def _corpus(tmp_path: Path) -> Path:
    """A golden corpus whose traces are all errors (an unknown action), recorded as such."""
    area = tmp_path / "traces" / "counter"
    area.mkdir(parents=True)
    for name in ("a", "b"):
        write_trace(area / f"{name}.trace.jsonl", state(0), [("Dec", {}, "rejected", state(0))])
    verdicts = {f"counter/{n}.trace.jsonl": {"verdict": "error", "step": 1} for n in "ab"}
    (tmp_path / "traces" / "verdicts.json").write_text(json.dumps(verdicts))
    return tmp_path / "traces"


def test_a_gate_corpus_that_checks_nothing_fails(cli: Cli, tmp_path: Path) -> None:
    traces = _corpus(tmp_path)
    run = cli("gate", "--traces", traces, "--spec", SPEC, "--backend", PY_BACKEND)
    assert run.code == 1 and "reached conforms or violation" in run.out
    before = (traces / "verdicts.json").read_text()
    run = cli("gate", "--traces", traces, "--spec", SPEC, "--backend", PY_BACKEND, "--update")
    assert run.code == 1 and "was not written" in run.out
    assert (traces / "verdicts.json").read_text() == before
    (traces / "verdicts.json").unlink()
    run = cli("gate", "--traces", traces, "--spec", SPEC, "--backend", PY_BACKEND, "--update")
    assert run.code == 1 and not (traces / "verdicts.json").exists()


def test_gate_strict_fails_on_a_warning(cli: Cli, tmp_path: Path, bare_spec: Path) -> None:
    area = tmp_path / "traces" / "counter"
    area.mkdir(parents=True)
    write_trace(area / "ok.trace.jsonl", state(0), [INC])
    args = ("gate", "--traces", tmp_path / "traces", "--spec", bare_spec, "--backend", PY_BACKEND)
    assert cli(*args, "--update").code == 0
    run = cli(*args)
    assert run.code == 0 and WARNING in run.out
    assert cli(*args, "--strict").code == 1
