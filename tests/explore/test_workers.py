"""``tlaconf explore -w N``: breadth-first search on N forked worker processes, states
partitioned by fingerprint, with the counts, verdicts and traces of one process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tlaconf.cli.main import main
from tlaconf.explore import bfs, load_model, parallel_bfs

MODELS = Path(__file__).parent / "models"
CASES = [("Tokens.tla", "Tokens.cfg"), ("Tokens.tla", "Tokens_nosym.cfg"),
         ("Stack.tla", "Stack.cfg"), ("Stack.tla", "StackDeadlock.cfg"),
         ("kinds/Same.tla", "kinds/Same.cfg")]


@pytest.mark.parametrize(("tla", "cfg"), CASES, ids=[c for _, c in CASES])
@pytest.mark.parametrize("workers", [2, 3])
def test_the_counts_are_one_process(tla: str, cfg: str, workers: int) -> None:
    model = load_model(MODELS / tla, MODELS / cfg)
    one, many = bfs(model), parallel_bfs(model, workers)
    assert (many.result, many.distinct_states, many.total_states, many.depth) == (
        one.result, one.distinct_states, one.total_states, one.depth)
    if one.violation is not None:  # a deadlock: the same shortest length
        assert many.violation is not None
        assert len(many.violation.path) == len(one.violation.path)


def test_a_violation_is_found_with_its_shortest_path() -> None:
    res = parallel_bfs(load_model(MODELS / "kinds" / "Kinds.tla"), 2)
    assert res.result == "violation" and res.violation is not None
    assert res.violation.invariant == "Inv"
    assert [s.state for s in res.violation.path] == [{"x": 1, "y": 0}, {"x": 1, "y": 1}]
    assert res.violation.path[1].label is not None


def test_a_depth_bound_is_kept() -> None:
    model = load_model(MODELS / "Tokens.tla", MODELS / "Tokens_nosym.cfg")
    one, many = bfs(model, 4), parallel_bfs(model, 2, 4)
    assert (many.distinct_states, many.total_states, many.depth, many.complete) == (
        one.distinct_states, one.total_states, one.depth, False)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["explore", *args])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out.strip() else None, out.err


def test_the_cli_prints_the_same(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = [str(MODELS / "Stack.tla"), "-c", str(MODELS / "StackDeadlock.cfg"), "--json"]
    code1, one, _ = _run(capsys, *args, "--trace", str(tmp_path / "1.jsonl"))
    code2, two, _ = _run(capsys, *args, "-w", "2", "--trace", str(tmp_path / "2.jsonl"))
    assert code1 == code2 == 1
    for k in ("result", "distinct_states", "total_states", "depth", "fingerprint_collision"):
        assert one[k] == two[k]
    lines = [(tmp_path / f"{w}.jsonl").read_text().splitlines() for w in (1, 2)]
    assert len(lines[0]) == len(lines[1])  # one deadlock among several: a shortest path


def test_an_evaluation_error_in_a_worker_is_exit_2(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    (tmp_path / "Bad.tla").write_text(
        "---- MODULE Bad ----\nEXTENDS Naturals\nVARIABLE x\nInit == x \\in 0..3\n"
        "Next == x' = IF x = 2 THEN x + \"a\" ELSE x + 1\n====\n")
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    code, _, err = _run(capsys, str(tmp_path / "Bad.tla"), "-w", "2")
    assert code == 2
    assert "Bad.tla:5:28: + expects integers" in err


@pytest.mark.parametrize("other", [["--dfs"], ["--walks", "2", "--depth", "3"]])
def test_workers_apply_to_breadth_first_only(capsys: pytest.CaptureFixture[str],
                                            other: list[str]) -> None:
    code, _, err = _run(capsys, str(MODELS / "Stack.tla"), "-w", "2", *other)
    assert code == 2 and "-w N and --cluster apply to the breadth-first search" in err
