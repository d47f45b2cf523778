"""``MappedDriver``: an MBT driver made of the implementation and the refinement mapping
``tlaconf.Recorder`` takes; the same mapping records a trace that replays as mbt's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tlaconf
from tests.mbt.bank.bank import Bank
from tlaconf import MappedDriver

BANK = Path(__file__).resolve().parent / "bank"
CONSTANTS = {"Accounts": {"alice", "bob"}, "Limit": 3}


def refine(bank: Bank) -> dict[str, Any]:
    """The refinement mapping, given to the recorder and the driver alike."""
    return {"balance": dict(bank.balance)}


def act(bank: Bank, action: str, p: dict[str, Any]) -> bool:
    if action == "Deposit":
        return bank.deposit(p["account"], p["amount"])
    if action == "Withdraw":
        return bank.withdraw(p["account"], p["amount"])
    return bank.transfer(p["from"], p["to"], p["amount"])


def driver(cap: int | None = None, do: Any = act, mapping: Any = refine) -> MappedDriver[Bank]:
    return MappedDriver("Bank", lambda: Bank(("alice", "bob"), 3, cap), do, mapping,
                        constants=CONSTANTS)


def mbt(d: MappedDriver[Bank], tmp_path: Path) -> tlaconf.MbtOutcome:
    return tlaconf.mbt(d, spec=BANK, steps=6, examples=30, database=None, out=tmp_path)


def test_a_conforming_bank_passes(tmp_path: Path) -> None:
    outcome = mbt(driver(), tmp_path)
    assert outcome.found is None and outcome.steps > 0


def test_the_capped_bank_is_caught_and_its_trace_replays(tmp_path: Path) -> None:
    found = mbt(driver(cap=2), tmp_path).found
    assert found is not None and found.result is not None
    assert found.result.verdict == "violation"
    [again] = tlaconf.replay(found.trace, spec=BANK)
    assert again.verdict == "violation" and again.failure is not None
    assert again.failure.step == found.result.failure.step  # type: ignore[union-attr]


def test_the_recorder_and_the_driver_map_alike(tmp_path: Path) -> None:
    """A run recorded with tlaconf.Recorder and the same refine conforms, and its states
    are what the driver gives mbt."""
    d = driver()
    path = tmp_path / "run.trace.jsonl"
    with tlaconf.Recorder(path, "Bank", refine, constants=CONSTANTS) as rec:
        initial = d.reset()
        assert d.implementation is not None
        rec.init(d.implementation)
        for action, p in (("Deposit", {"account": "alice", "amount": 3}),
                          ("Transfer", {"from": "alice", "to": "bob", "amount": 2}),
                          ("Withdraw", {"account": "bob", "amount": 5})):
            answer = d.apply(action, p)
            rec.record(action, p, "accepted" if answer.accepted else "rejected",
                       d.implementation)
    assert initial == {"balance": {"alice": 0, "bob": 0}}
    assert answer.accepted is False and answer.state == {"balance": {"alice": 1, "bob": 2}}
    [result] = tlaconf.replay(path, spec=BANK)
    assert result.verdict == "conforms" and result.steps == 3


def test_what_act_returns_is_checked(tmp_path: Path) -> None:
    d = driver(do=lambda bank, action, p: "yes")
    d.reset()
    with pytest.raises(TypeError, match="expected whether the request was accepted"):
        d.apply("Deposit", {"account": "alice", "amount": 1})
    found = mbt(d, tmp_path).found  # in a run: the driver raised, a failure shown as such
    assert found is not None and found.crash is not None and "TypeError" in found.crash


def test_a_mapping_that_is_no_mapping_is_named() -> None:
    d = driver(mapping=lambda bank: [bank.balance])
    with pytest.raises(TypeError, match=r"refine\(state\) must map the module's variables"):
        d.reset()
    with pytest.raises(RuntimeError, match="before reset"):
        driver().apply("Deposit", {"account": "alice", "amount": 1})
