"""Spec-driven runs through the public API: online checks, shrinking, the trace written,
the example database, drivers that refuse, crash or answer nonsense."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.mbt.bank.bank import BankDriver
from tlaconf.hypothesis import Options, StepFailed, run, state_machine
from tlaconf.replay import get_backend, replay_trace

BANK = Path(__file__).resolve().parent / "bank"


def _options(tmp: Path, **kw: Any) -> Options:
    base: dict[str, Any] = {"steps": 6, "examples": 30, "out_dir": tmp / "out",
                            "database": None, "mode": "random"}
    return Options(**{**base, **kw})


def test_a_conforming_bank_passes_with_allowed_and_forbidden_requests(tmp_path: Path) -> None:
    outcome = run(BankDriver(), BANK, _options(tmp_path, examples=10))
    assert outcome.found is None
    assert outcome.examples == 10 and outcome.steps > 10
    assert outcome.allowed > 0 and outcome.forbidden > 0
    assert not (tmp_path / "out").exists()


def test_a_planted_bug_is_shrunk_and_replay_gives_the_same_blame(tmp_path: Path) -> None:
    outcome = run(BankDriver(cap=4), BANK, _options(tmp_path, steps=12, examples=50))
    found = outcome.found
    assert found is not None and found.result is not None
    # the smallest failing run: deposits that take one balance over the cap of 4
    assert found.steps_after <= found.steps_before
    assert 2 <= found.steps_after <= 3
    online = found.result.failure
    assert online is not None and online.step == found.steps_after
    assert online.reason.endswith("is FALSE from s to s'")
    again = replay_trace(found.trace, BANK, get_backend("embedded"))
    assert again.verdict == "violation"
    assert again.failure is not None
    assert (again.failure.step, again.failure.reason, again.failure.blame) == (
        online.step, online.reason, online.blame)
    first = replay_trace(found.unshrunk, BANK, get_backend("embedded"))
    assert first.verdict == "violation" and first.steps == found.steps_before


def test_the_database_brings_a_found_failure_back_first(tmp_path: Path) -> None:
    db = tmp_path / "db"
    first = run(BankDriver(cap=2), BANK, _options(tmp_path, database=db))
    assert first.found is not None and first.found.found_at > 1
    again = run(BankDriver(cap=2), BANK, _options(tmp_path, database=db, seed=99, examples=1))
    assert again.found is not None and again.found.found_at == 1
    assert again.found.steps_after == first.found.steps_after


class Refuses(BankDriver):
    """Refuses deposits of 3, which the spec allows."""

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        if action == "Deposit" and p["amount"] == 3:
            return False, {"balance": dict(self.bank.balance)}
        return super().apply(action, p)


def test_refusing_what_the_spec_allows_is_a_failure(tmp_path: Path) -> None:
    found = run(Refuses(), BANK, _options(tmp_path)).found
    assert found is not None and found.result is not None and found.result.failure is not None
    assert found.result.failure.reason == (
        "the step was rejected but ENABLED Deposit(p) is TRUE in s")
    assert found.steps_after == 1


class Accepts(BankDriver):
    """Says it accepted a deposit to an unknown account (and changes nothing)."""

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        ok, state = super().apply(action, p)
        return ok or p.get("account") == "mallory", state


def test_accepting_what_the_spec_forbids_is_a_failure(tmp_path: Path) -> None:
    found = run(Accepts(), BANK, _options(tmp_path)).found
    assert found is not None and found.result is not None and found.result.failure is not None
    assert found.result.failure.action == "Deposit"
    assert found.result.failure.params["account"] == "mallory"  # type: ignore[index]
    assert found.steps_after == 1


def test_a_driver_that_raises_is_a_failure_with_its_traceback(tmp_path: Path) -> None:
    found = run(BankDriver(crash_on=2), BANK, _options(tmp_path)).found
    assert found is not None and found.result is None and found.crash is not None
    assert "the bank crashed on amount 2" in found.crash
    assert found.steps_after == 1 and "amount |-> 2" in found.crash


class Nonsense(BankDriver):
    def apply(self, action: str, p: dict[str, Any]) -> Any:
        return "yes"


def test_a_driver_answering_nonsense_is_named(tmp_path: Path) -> None:
    found = run(Nonsense(), BANK, _options(tmp_path)).found
    assert found is not None and found.crash is not None
    assert "expected (accepted: bool, state: dict)" in found.crash


def test_the_state_machine_runs_under_hypothesis_and_raises_step_failed() -> None:
    conforming = state_machine(BankDriver(), BANK)
    run_state_machine_as_test(conforming, settings=settings(max_examples=5, database=None,
                                                            deadline=None,
                                                            stateful_step_count=6))
    buggy = state_machine(BankDriver(cap=2), BANK)
    quick = [p for p in Phase if p is not Phase.explain]  # explain: slow, nothing to check
    with pytest.raises(StepFailed, match="Deposit"):
        run_state_machine_as_test(buggy, settings=settings(max_examples=60, database=None,
                                                           deadline=None, phases=quick,
                                                           stateful_step_count=6))
