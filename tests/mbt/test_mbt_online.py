"""The online check of spec-driven testing: each step judged in memory as replay judges
the one-step trace a file of it holds, and nothing written while steps conform."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.mbt.bank.bank import BankDriver
from tlaconf.hypothesis import Options, run
from tlaconf.mbt.memo import state_key
from tlaconf.mbt.online import OnlineChecker, Taken
from tlaconf.replay import get_backend, replay_trace
from tlaconf.trace.writer import TraceWriter
from tlaconf.values import ModelValue, from_python

BANK = Path(__file__).resolve().parent / "bank"
ZERO = {"balance": {"alice": 0, "bob": 0}}
TWO = {"balance": {"alice": 2, "bob": 0}}

STEPS: dict[str, tuple[dict[str, Any], Taken]] = {
    "conforms": (ZERO, Taken("Deposit", {"account": "alice", "amount": 2}, "accepted", TWO)),
    "rejected, as the spec forbids": (
        ZERO, Taken("Withdraw", {"account": "bob", "amount": 1}, "rejected", ZERO)),
    "accepted, the action FALSE": (
        ZERO, Taken("Deposit", {"account": "alice", "amount": 3}, "accepted", TWO)),
    "rejected, the action enabled": (
        ZERO, Taken("Deposit", {"account": "bob", "amount": 1}, "rejected", ZERO)),
    "rejected, the state changed": (
        ZERO, Taken("Withdraw", {"account": "bob", "amount": 1}, "rejected", TWO)),
    "an invariant FALSE after": (
        TWO, Taken("Withdraw", {"account": "alice", "amount": 2}, "accepted",
                   {"balance": {"alice": -1, "bob": 0}})),
    "TRUE is not 0": (
        ZERO, Taken("Deposit", {"account": "alice", "amount": 2}, "accepted",
                    {"balance": {"alice": True, "bob": 0}})),
    "a model value": (
        ZERO, Taken("Deposit", {"account": "alice", "amount": 2}, "accepted",
                    {"balance": {"alice": ModelValue("two"), "bob": 0}})),
    "a variable missing": (ZERO, Taken("Deposit", {"account": "alice", "amount": 2},
                                       "accepted", {})),
    "an unknown action": (ZERO, Taken("Steal", {"account": "alice"}, "accepted", ZERO)),
    "no params": (ZERO, Taken("Deposit", {}, "accepted", TWO)),
}


def _checker() -> OnlineChecker:
    return OnlineChecker(BANK, "Bank", "1", BankDriver.constants)


def _key(state: Mapping[str, Any]) -> int:
    return state_key({k: from_python(v) for k, v in state.items()})


@pytest.mark.parametrize("name", list(STEPS))
def test_a_step_is_judged_as_replay_judges_its_file(name: str, tmp_path: Path) -> None:
    before, taken = STEPS[name]
    check = _checker()
    online = check.step(before, taken, _key(before), _key(taken.state))
    replayed = replay_trace(check.write(tmp_path / "t.trace.jsonl", before, [taken]), BANK,
                            get_backend("embedded"))
    if online is None:
        assert replayed.verdict == "conforms"
        assert name in ("conforms", "rejected, as the spec forbids")
        return
    assert name not in ("conforms", "rejected, as the spec forbids")
    assert online.verdict == replayed.verdict != "conforms"
    assert online.failure is not None and replayed.failure is not None
    assert (online.failure.step, online.failure.line, online.failure.reason,
            online.failure.blame, online.failure.diff) == (
        replayed.failure.step, replayed.failure.line, replayed.failure.reason,
        replayed.failure.blame, replayed.failure.diff)


def test_an_initial_state_is_judged_as_replay_judges_its_file(tmp_path: Path) -> None:
    check = _checker()
    assert check.initial(ZERO, _key(ZERO)) is None
    bad = {"balance": {"alice": -1, "bob": 0}}
    online = check.initial(bad, _key(bad))
    replayed = replay_trace(check.write(tmp_path / "t.trace.jsonl", bad, []), BANK,
                            get_backend("embedded"))
    assert online is not None and online.verdict == replayed.verdict == "violation"
    assert online.failure is not None and replayed.failure is not None
    assert online.failure.reason == replayed.failure.reason == (
        "invariant NoOverdraft is FALSE in the initial state")


def test_a_module_that_cannot_be_loaded_is_an_error_of_every_check(tmp_path: Path) -> None:
    check = OnlineChecker(BANK, "Nowhere", "1", {})
    for name in ("conforms", "rejected, as the spec forbids"):
        before, taken = STEPS[name]
        online = check.step(before, taken, _key(before), _key(taken.state))
        replayed = replay_trace(check.write(tmp_path / "t.trace.jsonl", before, [taken]), BANK,
                                get_backend("embedded"))
        assert online is not None and online.verdict == replayed.verdict == "error"
        assert online.failure is not None and replayed.failure is not None
        assert online.failure.reason == replayed.failure.reason
        assert "cannot load module 'Nowhere'" in online.failure.reason


def test_conforming_steps_write_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:  # fmt: skip
    written: list[Path] = []
    opened = TraceWriter.__init__

    def spy(self: TraceWriter, path: Any, *args: Any, **kw: Any) -> None:
        written.append(Path(path))
        opened(self, path, *args, **kw)

    monkeypatch.setattr(TraceWriter, "__init__", spy)
    outcome = run(BankDriver(), BANK, Options(steps=6, examples=5, out_dir=tmp_path / "out",
                                              database=None, mode="random"))
    assert outcome.found is None and outcome.steps > 10
    assert written == []
    found = run(BankDriver(cap=2), BANK, Options(steps=6, examples=30, out_dir=tmp_path / "out",
                                                 database=None, mode="random")).found
    assert found is not None and written == [found.trace, found.unshrunk]
