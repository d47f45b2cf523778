"""``tlaconf export`` of a partial trace: a TLC trace spec whose verdict is tlaconf's.

Every trace of ``traces/partial/`` is exported; without Java the export must be the
module TLC decided when ``partial_tlc_answers.json`` was recorded (``python -m
tests.tlc.partial_tlc``), and that answer tlaconf's verdict (``expected.json``: the
verdict, and for a violation the step: TLC's search matched the steps before it); with
``TLC_JAR`` (``make test-tlc``) TLC runs again on each export.  Bad input is exit 2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.clihelp import runner
from tests.tlc.partial_tlc import ANSWERS, NAME, STACK, TRACES, answer, export, traces
from tlaconf.validate.partial import replay_partial

RECORDED = json.loads(ANSWERS.read_text())["traces"]
EXPECTED = json.loads((TRACES / "expected.json").read_text())


def test_every_partial_trace_has_a_recorded_answer() -> None:
    assert sorted(RECORDED) == [t.name for t in traces()] != []


@pytest.mark.parametrize("trace", traces(), ids=lambda p: p.name)
def test_the_export_is_what_tlc_decided_and_tlcs_verdict_is_tlaconfs(
        trace: Path, tmp_path: Path) -> None:
    _, digest = export(trace, tmp_path)
    tlc = RECORDED[trace.name]
    assert digest == tlc["digest"], "the export changed: run python -m tests.tlc.partial_tlc"
    want = EXPECTED[trace.name]
    assert tlc.get("verdict") == want["verdict"], tlc
    if want["verdict"] == "violation":
        assert tlc["matched"] + 1 == want["step"]


@pytest.mark.skipif(not os.environ.get("TLC_JAR"),
                    reason="needs TLC: set TLC_JAR=/path/to/tla2tools.jar")
@pytest.mark.parametrize("trace", traces(), ids=lambda p: p.name)
def test_tlc_decides_as_tlaconf(trace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TLC_JAVA_OPTS", f"{os.environ.get('TLC_JAVA_OPTS', '')} {STACK}")
    tlc = answer(trace)
    out = replay_partial(trace, TRACES.parents[1] / "spec")
    assert tlc.get("verdict") == ("conforms" if out.result == "accepted" else "violation"), tlc
    if out.result == "rejected":
        assert tlc["matched"] + 1 == out.failing_entry


def test_the_module_shape(tmp_path: Path) -> None:
    out, _ = export(TRACES / "wrong-zone-filed.trace.jsonl", tmp_path)
    text = out.read_text()
    assert f"MODULE {NAME}" in text and "EXTENDS ZoneMembership" in text
    assert "VARIABLES trace_line\n" in text and "TraceLength == 5" in text
    assert "\"Play\" \\in DOMAIN occupants'" in text and "occupants'[\"Play\"] = {11}" in text
    assert "TraceUnmatched == trace_line < TraceLength" in text
    assert "INVARIANT TraceUnmatched" in out.with_suffix(".cfg").read_text()


def test_bad_input_is_exit_2_with_file_and_line(tmp_path: Path) -> None:
    cli = runner(tmp_path)
    lines = (TRACES / "moves-logged-zones.trace.jsonl").read_text().splitlines()
    bad = tmp_path / "bad.trace.jsonl"
    bad.write_text("\n".join([*lines[:2], lines[2].replace('"Move"', '"Teleport"')]) + "\n")
    spec = TRACES.parents[1] / "spec"
    run = cli("export", bad, "-o", tmp_path / "B.tla", "--spec", spec)
    assert run.code == 2 and f"{bad}:3" in run.err and "Teleport" in run.err
    assert not (tmp_path / "B.tla").exists() and not (tmp_path / "B.cfg").exists()
    empty = tmp_path / "empty.trace.jsonl"
    empty.write_text("\n".join(lines[:2]) + "\n")
    run = cli("export", empty, "-o", tmp_path / "E.tla", "--spec", spec)
    assert run.code == 2 and "no steps" in run.err and f"{empty}:1" in run.err
    run = cli("export", TRACES / "moves-logged-zones.trace.jsonl", "-o", tmp_path / "G.tla",
              "--spec", spec)
    assert run.code == 0 and (tmp_path / "G.cfg").is_file()


@pytest.mark.skipif(not os.environ.get("TLC_JAR"),
                    reason="needs TLC: set TLC_JAR=/path/to/tla2tools.jar")
@pytest.mark.parametrize("trace", traces(), ids=lambda p: p.name)
def test_replay_backend_and_cross_check_tlc_decide_partial_traces(
        trace: Path, tmp_path: Path) -> None:
    want = EXPECTED[trace.name]
    cli = runner(tmp_path)
    env = {"TLC_JAVA_OPTS": f"{os.environ.get('TLC_JAVA_OPTS', '')} {STACK}"}
    for flags in (["--backend", "tlc"], ["--cross-check", "tlc"]):
        run = cli("replay", "--json", *flags, "--spec", TRACES.parents[1] / "spec", trace,
                  env=env)
        [result] = json.loads(run.out)["traces"]
        assert result["verdict"] == want["verdict"], (flags, result)
        assert run.code == (0 if want["verdict"] == "conforms" else 1)
        if want["verdict"] == "violation":
            assert result["failure"]["step"] == want["step"]
        assert "not by tlc" not in run.err


def test_a_disagreement_with_tlc_is_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    """TLC's answer stubbed to differ from tlaconf's: the result is an undecided error
    naming both (the live runs above check that TLC does agree)."""
    from tlaconf.replay.tlc.partial_spec import PartialAnswer
    from tlaconf.validate import partial_tlc
    from tlaconf.validate.partial import trace_result

    trace = TRACES / "wrong-zone-filed.trace.jsonl"
    spec = TRACES.parents[1] / "spec"
    ours = trace_result(trace, spec, None)
    for tlc, same in ((PartialAnswer("violation", 4, 5), True),
                      (PartialAnswer("violation", 2, 3), False),
                      (PartialAnswer("conforms", 5, 6), False)):
        monkeypatch.setattr(partial_tlc, "tlc_partial", lambda *a, t=tlc, **k: t)
        got = partial_tlc.cross_checked(ours, trace, spec)
        if same:
            assert got == ours
        else:
            assert got.verdict == "error" and got.undecided
            assert got.failure is not None
            assert got.failure.reason.startswith(
                "the checkers disagree: embedded says violation at step 5, tlc says")
