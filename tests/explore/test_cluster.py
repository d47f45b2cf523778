"""``tlaconf explore --cluster tcp://HOST:PORT``: the breadth-first search on the workers of
a Dask cluster (two worker processes on loopback, each with its own string-hash seed), with
the counts, verdicts and output of ``-w``.  ``Records.tla`` fails if a record crosses
processes with the Python hash its first process cached."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest

from tlaconf.cli.main import main
from tlaconf.explore import bfs, load_model
from tlaconf.explore.cluster import cluster_bfs

MODELS = Path(__file__).parent / "models"
CASES = [("Tokens.tla", "Tokens.cfg"), ("Tokens.tla", "Tokens_nosym.cfg"),
         ("Stack.tla", "StackDeadlock.cfg"), ("kinds/Same.tla", "kinds/Same.cfg"),
         ("kinds/Kinds.tla", "kinds/Kinds.cfg"), ("kinds/Records.tla", "kinds/Records.cfg")]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.mark.parametrize(("tla", "cfg"), CASES, ids=[c for _, c in CASES])
def test_the_counts_are_one_process(scheduler: str, tla: str, cfg: str) -> None:
    model = load_model(MODELS / tla, MODELS / cfg)
    one, many = bfs(model), cluster_bfs(model, [], scheduler)
    assert (many.result, many.distinct_states, many.total_states, many.depth) == (
        one.result, one.distinct_states, one.total_states, one.depth)
    if one.violation is not None:
        assert many.violation is not None
        assert len(many.violation.path) == len(one.violation.path)
        assert many.violation.invariant == one.violation.invariant


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["explore", *args])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out.strip() else None, out.err


def test_the_cli_prints_what_w_prints(scheduler: str, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    args = [str(MODELS / "kinds" / "Kinds.tla"), "--json"]
    code1, local, _ = _run(capsys, *args, "-w", "2", "--trace", str(tmp_path / "1.jsonl"))
    code2, remote, _ = _run(capsys, *args, "--cluster", scheduler,
                            "--trace", str(tmp_path / "2.jsonl"))
    assert code1 == code2 == 1
    for k in ("result", "distinct_states", "total_states", "depth", "violation",
              "fingerprint_collision"):
        assert local[k] == remote[k] or k == "violation"
    assert local["violation"]["length"] == remote["violation"]["length"] == 2
    assert (tmp_path / "1.jsonl").read_text() == (tmp_path / "2.jsonl").read_text()


def test_an_unreachable_scheduler_is_exit_2(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tlaconf.explore.cluster._CONNECT", 2.0)
    code, _, err = _run(capsys, str(MODELS / "Stack.tla"), "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


def test_cluster_and_workers_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, str(MODELS / "Stack.tla"), "--cluster", "tcp://127.0.0.1:9",
                        "-w", "2")
    assert code == 2 and "either -w N or --cluster" in err
