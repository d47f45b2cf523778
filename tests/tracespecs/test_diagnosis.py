"""The diagnosis of a trace spec's dead end, in every style (``modules/Diag*``, each with
the log it rejects; TLC's verdicts are in ``tlc_answers.json``, checked by
``test_modules.py``): the branch whose guards hold at the log line, its blame for the
nearest bindings with ``file:line:col`` and the values compared, in text and JSON; the
words for a successor dropped as already visited; an evaluation error with its log entry,
branch and bindings; and etcd raft's mutated 100-line log (``$TLACONF_ETCD_RAFT``)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.cli.clihelp import runner
from tlaconf.evaluate import Blame, EvalError
from tlaconf.validate.outcome import Outcome, render
from tlaconf.validate.tracespec import validate_trace_spec

MODULES = Path(__file__).parent / "modules"


def _validate(name: str, monkeypatch: pytest.MonkeyPatch) -> Outcome:
    monkeypatch.chdir(MODULES)  # the modules read their log from there, as TLC does
    return validate_trace_spec(MODULES / f"{name}.tla")


def _leaf(b: Blame) -> Blame:
    return b.innermost()


def test_level_style_the_constraint_branch_the_event_selects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """EWD998's style: the ACTION_CONSTRAINT's disjunct IsSend(logline) is selected by
    the event "send"; every successor fails it at sent' = e.sent."""
    out = _validate("DiagLevel", monkeypatch)
    assert (out.result, out.failing_entry, out.log_line) == ("rejected", 3, "DiagLevel.ndjson:3")
    [c] = out.candidates
    [branch] = c.branches
    assert branch.selected and branch.text == "IsSend(logline)"
    assert branch.location.endswith("DiagLevel.tla:24:51")
    assert branch.step == "Inc(1)"
    leaf = _leaf(branch.blame)
    assert leaf.text == "sent' = e.sent" and str(leaf.span).endswith("DiagLevel.tla:19:17")
    assert ("sent'", "1") in leaf.bindings
    assert dict(leaf.bindings)["e"].endswith("sent |-> 2]")


def test_event_style_the_next_branch_and_the_nearest_binding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """etcd raft's style: l is a variable, the event picks TraceNext's disjunct; the
    witness s = "b" came nearest, and Elect's guard term[s] > 0 is what fails."""
    out = _validate("DiagEvent", monkeypatch)
    assert out.result == "rejected" and out.log_line == "DiagEvent.ndjson:2"
    [c] = out.candidates
    [branch] = c.branches
    assert branch.selected and branch.text.startswith('/\\ IsEvent("elect")')
    text = branch.blame.render()
    assert 'no witness for \\E; nearest: s = "b"' in text
    leaf = _leaf(branch.blame)
    assert leaf.text == "term[s] > 0" and str(leaf.span).endswith("DiagEvent.tla:17:16")
    assert dict(leaf.bindings) == {"s": '"b"', "term": '[a |-> 1, b |-> 0]'}
    assert "conjunct 2 of 4 (a guard) is FALSE" in text  # Elect's own guard, inside


def test_event_style_the_log_entry_is_the_position_not_the_level(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """etcd raft's style where a step may keep the log position l and the log is a
    selection of the file's lines: the dead end is said at log entry 3 (the value of l,
    the file's line 5), not at the search level 5; its branch is Check, at x = 4."""
    out = _validate("DiagPosition", monkeypatch)
    assert (out.result, out.depth) == ("rejected", 5)
    assert (out.failing_entry, out.log_line) == (3, "DiagPosition.ndjson:5")
    assert "rejected at log entry 3 (DiagPosition.ndjson:5)" in render(out)
    [c] = out.candidates
    assert c.state["l"] == 3 and _leaf(c.branches[0].blame).text == "x = logline.x"
    assert c.log_line == "DiagPosition.ndjson:5"


def test_paper_style_only_the_branch_the_event_selects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 2024 paper's style: IsEvent(e) (an action: it steps l) guards each branch;
    IsPrepare's event test fails inside it, so only IsCommit is given."""
    out = _validate("DiagPaper", monkeypatch)
    [c] = out.candidates
    assert [b.text for b in c.branches] == ["IsCommit"]
    leaf = _leaf(c.branches[0].blame)
    assert leaf.text == 'rmState[r] = "prepared"'
    assert dict(leaf.bindings)["r"] == '"r2"'
    assert out.log_line == "DiagPaper.ndjson:2"


def test_a_successor_dropped_as_visited_is_said_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = _validate("DiagNoView", monkeypatch)
    [c] = out.candidates
    assert c.revisited is not None
    assert "already visited at level 1" in c.revisited
    assert "add a VIEW that includes the log position" in c.revisited
    assert c.revisited in render(out)


def test_no_view_words_when_the_view_holds_the_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same spec with a VIEW holding the level accepts the log: nothing to say."""
    shutil.copy(MODULES / "DiagNoView.tla", tmp_path)
    (tmp_path / "DiagNoView.cfg").write_text(
        (MODULES / "DiagNoView.cfg").read_text() + "VIEW View\n")
    tla = tmp_path / "DiagNoView.tla"
    tla.write_text(tla.read_text().replace("=====", 'View == <<on, TLCGet("level")>>\n=====',
                                           1))
    monkeypatch.chdir(tmp_path)
    out = validate_trace_spec(tla)
    assert out.result == "accepted" and not out.candidates


def test_an_accepted_log_has_no_diagnosis(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DiagEvent.tla", "DiagEvent.cfg"):
        shutil.copy(MODULES / name, tmp_path)
    (tmp_path / "DiagEvent.ndjson").write_text(
        '{"event": "timeout", "node": "b", "term": 1}\n{"event": "elect", "node": "b"}\n')
    monkeypatch.chdir(tmp_path)
    out = validate_trace_spec(tmp_path / "DiagEvent.tla")
    assert out.result == "accepted" and not out.candidates


def test_an_evaluation_error_names_the_log_entry_the_branch_and_the_bindings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(MODULES)
    with pytest.raises(EvalError) as err:
        validate_trace_spec(MODULES / "DiagError.tla")
    text = str(err.value)
    assert "DiagError.tla:10:21: record has no field node" in text.splitlines()[0]
    assert "while checking log entry 2" in text
    assert 'in the branch /\\ logline.event = "up"' in text and 'with s = "a"' in text
    assert "cannot be evaluated: record has no field node" in text


def test_json_and_text_carry_the_branches(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _validate("DiagEvent", monkeypatch)
    doc = out.to_json()["failure"]
    [c] = doc["candidates"]
    [b] = c["branches"]
    assert b["selected"] and b["location"].endswith("DiagEvent.tla:27:20")
    assert c["log_line"] == "DiagEvent.ndjson:2"
    node = b["blame"]
    while node["children"]:
        node = node["children"][0]
    assert node["text"] == "term[s] > 0" and node["values"]["s"] == '"b"'
    assert "its guards hold" in render(out)


def test_cli_text_json_and_html(tmp_path: Path) -> None:
    cli = runner(tmp_path)
    run = cli("validate", "DiagEvent.tla", cwd=MODULES)
    assert run.code == 1 and "term[s] > 0  is FALSE  DiagEvent.tla:17:16" in run.out
    assert "17 |             /\\ term[s] > 0" in run.out  # the source of the failing conjunct
    run = cli("validate", "DiagEvent.tla", "--json", cwd=MODULES)
    assert run.code == 1 and json.loads(run.out)["failure"]["candidates"][0]["branches"]
    run = cli("validate", "DiagEvent.tla", "--html", tmp_path / "r", cwd=MODULES)
    page = (tmp_path / "r" / "index.html").read_text()
    assert run.code == 1 and "term[s] &gt; 0" in page and "DiagEvent.ndjson:2" in page
    assert "its guards hold" in page
    run = cli("validate", "DiagError.tla", cwd=MODULES)
    assert run.code == 2 and "while checking log entry 2" in run.err


def test_etcd_raft_mutated_log_blamed_at_the_mutated_line(tmp_path: Path) -> None:
    """etcd raft's log, 100 lines, line 86 (BecomeFollower of node 5) given term 3: the
    search dead-ends there; the branch the event selects is StepDownToFollowerIfLogged,
    and StepDownToFollower's guard (a leader or candidate) fails for node 5."""
    from tests.tracespecs.corpus import CASES, prepare

    root = os.environ.get("TLACONF_ETCD_RAFT")
    library = os.environ.get("TLACONF_COMMUNITY_JAR")
    if not root or not library:
        pytest.skip("set TLACONF_ETCD_RAFT (git clone https://github.com/etcd-io/raft) and "
                    "TLACONF_COMMUNITY_JAR (CommunityModules-deps.jar)")
    case = next(c for c in CASES if c.name == "etcd-raft-100")
    cfg, env = prepare(case, Path(root), "mutated", "as-is", tmp_path)
    out = validate_trace_spec(Path(root) / case.spec, cfg, [Path(library)], env)
    assert out.result == "rejected"
    assert out.log_line is not None and out.log_line.endswith(".ndjson:86")
    [c] = out.candidates
    [branch] = c.branches
    assert branch.selected
    assert branch.text.startswith('/\\ LoglineIsEvent("BecomeFollower")')
    leaf = _leaf(branch.blame)
    assert leaf.text == "state[i] \\in {Leader, Candidate}"
    assert dict(leaf.bindings)["i"] == '"5"'
