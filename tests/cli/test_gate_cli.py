"""``tlaconf gate`` end to end: assemble, pass, every kind of difference, --update."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.clihelp import PY_BACKEND, Cli
from tests.replay.counter_backend import BACKEND, SPEC, state, write_trace

INC = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))
BAD = ("Inc", {"by": 1, "who": "b"}, "accepted", state(9, a=2, b=1))
LEAF = "count' = Add(count, p.by)"  # the conjunct BAD breaks


def corpus(root: Path) -> Path:
    """traces/counter/{ok,bad}.trace.jsonl with the area's expected.json."""
    area = root / "traces" / "counter"
    area.mkdir(parents=True)
    write_trace(area / "ok.trace.jsonl", state(0), [INC])
    write_trace(area / "bad.trace.jsonl", state(0), [INC, BAD])
    expected = {"bad.trace.jsonl": {"verdict": "violation", "step": 2, "conjunct": LEAF}}
    (area / "expected.json").write_text(json.dumps(expected))
    return root / "traces"


def gate(cli: Cli, traces: Path, *extra: str) -> tuple[int, str]:
    replay = () if "--assemble" in extra else ("--spec", SPEC, "--backend", PY_BACKEND)
    run = cli("gate", "--traces", traces, *replay, *extra)
    assert "Traceback" not in run.err
    return run.code, run.out + run.err


def test_assemble_then_pass(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    code, out = gate(cli, traces, "--assemble")
    assert code == 0 and "2 traces" in out
    verdicts = json.loads((traces / "verdicts.json").read_text())
    assert verdicts == {
        "counter/bad.trace.jsonl": {"verdict": "violation", "step": 2, "conjunct": LEAF},
        "counter/ok.trace.jsonl": {"verdict": "conforms"},
    }
    code, out = gate(cli, traces)
    assert code == 0 and "all as expected" in out


def test_differences_are_listed_and_fail(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    gate(cli, traces, "--assemble")
    verdicts_path = traces / "verdicts.json"
    verdicts = json.loads(verdicts_path.read_text())
    verdicts["counter/bad.trace.jsonl"]["step"] = 1
    verdicts["counter/gone.trace.jsonl"] = {"verdict": "conforms"}
    verdicts_path.write_text(json.dumps(verdicts))
    write_trace(traces / "counter" / "new.trace.jsonl", state(0), [INC])
    write_trace(traces / "counter" / "empty.trace.jsonl", state(0))
    code, out = gate(cli, traces)
    assert code == 1
    assert "failing step differs" in out and "violation @ step 1" in out
    assert "violation @ step 2" in out
    assert "trace missing" in out and "counter/gone.trace.jsonl" in out
    assert "new trace" in out and "counter/new.trace.jsonl" in out
    assert "counter/empty.trace.jsonl" in out and "vacuous" in out
    assert "4 difference(s)" in out
    assert "blame" in out  # the failure panel of the differing violation


def test_a_wrong_blame_is_a_difference(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    gate(cli, traces, "--assemble")
    verdicts_path = traces / "verdicts.json"
    verdicts = json.loads(verdicts_path.read_text())
    verdicts["counter/bad.trace.jsonl"]["conjunct"] = "p.by > 0"
    verdicts_path.write_text(json.dumps(verdicts))
    code, out = gate(cli, traces)
    assert code == 1 and "the blame does not blame 'p.by > 0'" in out


def test_update_rewrites_verdicts(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    write_trace(traces / "counter" / "ok.trace.jsonl", state(0), [INC, BAD])  # now violates
    code, out = gate(cli, traces, "--update")
    assert code == 0 and "2 changed" in out
    verdicts = json.loads((traces / "verdicts.json").read_text())
    assert verdicts["counter/ok.trace.jsonl"]["verdict"] == "violation"
    assert verdicts["counter/ok.trace.jsonl"]["step"] == 2
    assert gate(cli, traces)[0] == 0


def test_bad_corpus_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    (traces / "verdicts.json").write_text("[1, 2]")
    code, out = gate(cli, traces)
    assert code == 2 and "keyed by trace path" in out
    (traces / "verdicts.json").write_text('{"counter/ok.trace.jsonl": {"verdict": "fine"}}')
    code, out = gate(cli, traces)
    assert code == 2 and "verdict" in out
    code, out = gate(cli, tmp_path / "nowhere")
    assert code == 2 and "does not exist" in out


def test_missing_verdicts_json_says_how_to_make_it(cli: Cli, tmp_path: Path) -> None:
    code, out = gate(cli, corpus(tmp_path))
    assert code == 2 and "tlaconf gate --assemble" in out


def test_an_internal_error_exits_4_and_update_records_nothing(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    assert gate(cli, traces, "--assemble")[0] == 0
    before = (traces / "verdicts.json").read_text()
    for extra in ((), ("--update",)):
        run = cli("gate", "--traces", traces, "--spec", SPEC,
                  "--backend", f"{BACKEND}:BuggyBackend", *extra)
        assert run.code == 4, extra
        assert "internal error" in run.out and "nothing compared" in run.out
        assert (traces / "verdicts.json").read_text() == before


def test_a_duplicate_key_in_verdicts_json_names_the_line(cli: Cli, tmp_path: Path) -> None:
    traces = corpus(tmp_path)
    (traces / "verdicts.json").write_text(
        '{\n  "counter/ok.trace.jsonl": {"verdict": "conforms"},\n'
        '  "counter/ok.trace.jsonl": {"verdict": "violation"}\n}\n')
    code, out = gate(cli, traces)
    assert code == 2 and f"{traces / 'verdicts.json'}:1: duplicate key" in out
