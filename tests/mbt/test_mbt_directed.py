"""Directed requests (an allowed request and a near miss per guard), guard coverage as the
goal (per action, with why a guard is not covered; dead guards), and the exhaustive mode."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate.coverage import CoverageProbe
from tlaconf.explore import Successors
from tlaconf.hypothesis import Options, run
from tlaconf.mbt.exhaustive import run_exhaustive
from tlaconf.mbt.guard_report import BOTH, figures, warnings
from tlaconf.mbt.memo import state_key
from tlaconf.mbt.run import session_for
from tlaconf.mbt.solver import EnumerationSolver
from tlaconf.values import Fn

HERE = Path(__file__).resolve().parent
GATE, BANK = HERE / "gate", HERE / "bank"
for folder in (GATE, BANK):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bank import BankDriver  # noqa: E402
from gate import GateDriver  # noqa: E402


def _options(tmp_path: Path, **kw: object) -> Options:
    base: dict[str, object] = {"steps": 5, "examples": 3, "database": None,
                               "out_dir": tmp_path}
    return Options(**{**base, **kw})  # type: ignore[arg-type]


def test_a_near_miss_breaks_exactly_the_guard_asked_for() -> None:
    session = session_for(BankDriver(), BANK)
    probe = CoverageProbe(session.domains.ctx)
    solver = EnumerationSolver(session.domains, probe)
    state = {"balance": Fn({"alice": 2, "bob": 0})}
    sol = solver.solve("Transfer", state, state_key(state))
    assert sol.complete and sol.domain == 20
    guards = solver.guards("Transfer")
    assert len(guards) == 3 and set(sol.allowed) == set(guards)
    different = guards[1]  # p.to \in Accounts \ {p.from}
    miss = sol.near_miss[different]
    assert miss["to"] == miss["from"] == "alice" and 1 <= miss["amount"] <= 2
    allowed = sol.allowed[different]
    assert allowed["from"] == "alice" and allowed["to"] == "bob"
    assert session.domains.allowed("Transfer", allowed, state)
    assert not session.domains.allowed("Transfer", miss, state)


def test_a_domain_above_the_limit_is_not_enumerated() -> None:
    session = session_for(BankDriver(), BANK)
    solver = EnumerationSolver(session.domains, CoverageProbe(session.domains.ctx), limit=10)
    state = {"balance": Fn({"alice": 2, "bob": 0})}
    sol = solver.solve("Transfer", state, state_key(state))
    assert not sol.complete and sol.domain == 20


def test_directed_mode_finds_the_skipped_check_and_reports_the_dead_guard(
        tmp_path: Path) -> None:  # fmt: skip
    bad = run(GateDriver(skip_cap=True), GATE, _options(tmp_path))
    assert bad.found is not None and bad.found.result is not None
    assert bad.found.steps_after <= 4  # the shortest path to a full counter, then the request
    assert bad.found.result.failure is not None

    good = run(GateDriver(), GATE, _options(tmp_path))
    assert good.found is None and good.survey is not None
    rows = {(a.action, r.text): r for a in good.guards for r in a.rows}
    assert rows[("Add", "count + p.n <= Cap")].status == BOTH
    assert rows[("Add", "p.n \\in 1..Cap")].status == BOTH
    dead = rows[("Drain", "p.n > count + Cap")]
    assert dead.dead and not dead.covered and "dead guard" in (dead.reason or "")
    assert not rows[("Add", "count + p.n <= Cap")].dead
    (warning,) = warnings(good.guards)
    assert "Gate.Drain" in warning and "p.n > count + Cap" in warning
    # Drain is never enabled: its first guard is never TRUE on an accepted step
    first = rows[("Drain", "p.n \\in 1..Cap")]
    assert not first.covered and not first.dead and "TRUE only in forbidden" in (first.reason or "")
    assert figures(good.guards) == (2, 4)


def test_random_mode_gives_no_reasons_from_a_survey(tmp_path: Path) -> None:
    out = run(GateDriver(), GATE, _options(tmp_path, mode="random"))
    assert out.survey is None
    reasons = {r.reason for a in out.guards for r in a.rows if not r.covered}
    assert reasons == {"not aimed at (random requests only)"}


def test_exhaustive_mode_sends_every_request_to_the_depth(tmp_path: Path) -> None:
    out = run(GateDriver(), GATE, _options(tmp_path, mode="exhaustive", depth=2))
    assert out.found is None and out.exhaustive is not None
    states, requests, missed = out.exhaustive
    # depth 0: count 0; depth 1: 1, 2, 3; 9 requests (Add 0..4, Drain 0..3) from each
    assert (states, requests, missed) == (4, 36, 0)
    reasons = {r.reason for a in out.guards for r in a.rows if not r.covered}
    assert reasons == {"no behaviour within 2 requests made it TRUE (every request of every "
                       "state sent)"}
    bad = run(GateDriver(skip_cap=True), GATE, _options(tmp_path, mode="exhaustive", depth=2))
    assert bad.found is not None


def test_exhaustive_mode_refuses_a_model_too_large(tmp_path: Path) -> None:
    session = session_for(BankDriver(), BANK)
    initial = session.start()
    with pytest.raises(UserError, match=r"more than 100 requests.*at least 105"):
        run_exhaustive(session, Successors(session.domains.ctx), initial, 3, limit=100)


def test_cli_coverage_goal_and_dead_guard_warning(mbt_cli) -> None:  # type: ignore[no-untyped-def]
    args = (GATE / "Gate.tla", "--driver", "gate:correct", "--steps", "4", "--examples", "3",
            "--no-database")
    below = mbt_cli(*args, "--coverage-goal", "90")
    assert below.code == 1, below.err
    assert "is a dead guard" in below.out and "guards covered both ways: 2/4" in below.out
    assert "under --coverage-goal 90" in below.out
    met = mbt_cli(*args, "--coverage-goal", "50", "--json")
    assert met.code == 0, met.err
    doc = json.loads(met.out)
    assert doc["coverage"] == {"guards": 4, "covered": 2, "percent": 50.0, "by_perturbation": 0}
    (one,) = doc["runs"]
    drain = next(a for a in one["guards"] if a["action"] == "Drain")
    assert drain["both"] == 0 and [r["dead"] for r in drain["rows"]] == [False, True]
    for bad in ("abc", "120"):
        wrong = mbt_cli(*args, "--coverage-goal", bad)
        assert wrong.code == 2 and "--coverage-goal" in wrong.err


def test_cli_exhaustive_refusal_exits_2_with_the_count(mbt_cli) -> None:  # type: ignore[no-untyped-def]
    spec = HERE.parents[1] / "spec"
    run_ = mbt_cli("--driver", "harness.drivers:zones", "--spec", spec, "--exhaustive",
                   "--depth", "1", "--no-database")
    assert run_.code == 2, run_.out
    assert "more than 20000 requests" in run_.err and "at least 24960" in run_.err


def test_cli_coverage_with_adds_the_traces_coverage(mbt_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    common = ("--steps", "4", "--examples", "3", "--no-database")
    failed = mbt_cli(GATE / "Gate.tla", "--driver", "gate:skipping", *common, "--out",
                     tmp_path / "traces")
    assert failed.code == 1, failed.err
    assert list((tmp_path / "traces").glob("*.trace.jsonl"))
    both = mbt_cli(GATE / "Gate.tla", "--driver", "gate:correct", *common, "--json",
                   "--coverage-with", tmp_path / "traces")
    assert both.code == 0, both.err
    joined = json.loads(both.out)["coverage"]["with_traces"]
    assert joined["traces"] == 1 and joined["guards"] == 4
    assert joined["covered"] >= json.loads(both.out)["coverage"]["covered"]
    text = mbt_cli(GATE / "Gate.tla", "--driver", "gate:correct", *common,
                   "--coverage-with", tmp_path / "traces")
    assert "scenarios plus mbt: coverage: " in text.out
    missing = mbt_cli(GATE / "Gate.tla", "--driver", "gate:correct", *common,
                      "--coverage-with", tmp_path / "nowhere")
    assert missing.code == 2 and "nowhere" in missing.err


def test_a_guard_on_what_the_implementation_reports_is_said_to_be_one(tmp_path: Path) -> None:
    echo_dir = HERE / "echo"
    if str(echo_dir) not in sys.path:
        sys.path.insert(0, str(echo_dir))
    from echo import echo

    outcome = run(echo(), echo_dir, _options(tmp_path, examples=2))
    rows = {r.text: r for a in outcome.guards for r in a.rows}
    assert rows["p.q \\in 1..3"].covered
    assert rows["p.q \\in 1..3"].false_by == "implementation"
    for text in ("p.answers[i] >= 1", "p.answers[i] <= p.q"):
        # no request makes it FALSE: only the harness's perturbation of what the
        # implementation reported does (tests/mbt/test_mbt_perturb.py)
        assert rows[text].covered and rows[text].false_by == "perturbation"
        assert rows[text].perturbed is not None and rows[text].perturbed.field == "answers"

    without = run(echo(), echo_dir, _options(tmp_path, examples=2, perturb=False))
    rows = {r.text: r for a in without.guards for r in a.rows}
    for text in ("p.answers[i] >= 1", "p.answers[i] <= p.q"):
        assert rows[text].status == "TRUE only" and not rows[text].dead
        assert "fields the implementation reports" in (rows[text].reason or "")
