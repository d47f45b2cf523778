"""``--eval-budget`` holds on the workers of a cluster (their evaluations run on worker
threads, where no signal arrives): a check that runs away ends with the budget's report,
the same as with ``-j 1``; a check that ends in time is not stopped."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from tests.cluster.test_cluster_outputs import run
from tlaconf.evaluate import budget, load_module
from tlaconf.evaluate.errors import EvalError
from tlaconf.values import record

HEADER = {"format": "tlaconf-trace", "version": 1, "module": "Slow", "revision": "1",
          "constants": {}, "meta": {}}
MODULE = """---- MODULE Slow ----
EXTENDS Naturals
VARIABLE x
Tick(p) == /\\ x' = x + p.by
           /\\ p.by > 1 => \\A a, b, c \\in 1..1000 : a + b + c > x
====
"""


def corpus(root: Path, by: int) -> Path:
    """A spec whose step ``Tick`` runs away when ``by > 1`` and a one-step trace of it."""
    (root / "spec" / "conformance").mkdir(parents=True, exist_ok=True)
    (root / "spec" / "conformance" / "Slow.tla").write_text(MODULE)
    (root / "traces").mkdir(exist_ok=True)
    steps = [{"state": {"x": 0}},
             {"action": "Tick", "params": {"by": by}, "outcome": "accepted",
              "state": {"x": by}}]
    (root / "traces" / "slow.trace.jsonl").write_text(
        "\n".join(json.dumps(line) for line in [HEADER, *steps]) + "\n")
    return root


@pytest.mark.parametrize("by", [1, 2])
def test_the_budget_holds_on_the_workers(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         scheduler: str, by: int) -> None:
    monkeypatch.chdir(corpus(tmp_path, by))
    reports = {}
    for name, mode in (("jobs", ("-j", "1")), ("cluster", ("--cluster", scheduler))):
        start = time.monotonic()
        code, out, _ = run(capsys, "--eval-budget", "0.5", "replay", "traces", "--spec",
                           "spec", *mode, "--json")
        assert time.monotonic() - start < 20  # stopped, not run to the end (minutes)
        report = json.loads(out)
        report["summary"].pop("seconds")
        for trace in report["traces"]:
            trace.pop("seconds", None)
        reports[name] = code, report
    assert reports["cluster"] == reports["jobs"]
    code, report = reports["cluster"]
    if by == 1:
        assert code == 0 and report["traces"][0]["verdict"] == "conforms"
    else:
        assert code == 2 and report["traces"][0]["verdict"] == "error"
        assert "the evaluation budget of 0.5 s is exhausted" in json.dumps(report)
        assert "Slow.tla:4:1" in json.dumps(report)


def test_a_thread_that_is_not_the_main_one_is_stopped_and_left_clean(tmp_path: Path) -> None:
    path = tmp_path / "Slow.tla"
    path.write_text(MODULE)
    ctx = load_module(path)
    outcome: list[object] = []

    def check() -> None:
        with budget.run(0.3):
            try:
                ctx.holds("Tick", (record(by=2),), {"x": 0}, {"x": 2})
            except EvalError as err:
                outcome.append(err)
            for _ in range(200):  # quick checks after it: no exception left pending
                outcome.append(ctx.holds("Tick", (record(by=1),), {"x": 0}, {"x": 1}))
                time.sleep(0.002)

    thread = threading.Thread(target=check)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert isinstance(outcome[0], EvalError) and "budget of 0.3 s" in str(outcome[0])
    assert outcome[1:] == [True] * 200
