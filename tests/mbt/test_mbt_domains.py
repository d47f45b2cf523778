"""Params domains from the module and the requests it allows and forbids in a state."""

from __future__ import annotations

from pathlib import Path

import pytest
from bank import BankDriver

from tlaconf.errors import UserError
from tlaconf.evaluate import load_module
from tlaconf.hypothesis import Domains
from tlaconf.values import Fn, from_python

BANK = Path(__file__).resolve().parent / "bank"

CONSTANTS = {"Accounts": frozenset({"alice", "bob"}), "Limit": 3}
ACTIONS = ("Deposit", "Transfer", "Withdraw")


def _domains(text: str | None = None, tmp: Path | None = None) -> Domains:
    path = BANK / "Bank.tla"
    if text is not None:
        assert tmp is not None
        path = tmp / "Bank.tla"
        path.write_text(text, encoding="utf-8")
    ctx = load_module(path, (path.parent,), CONSTANTS)
    return Domains(ctx, ACTIONS, "Bank")


def _state(alice: int, bob: int) -> dict[str, object]:
    return {"balance": from_python({"alice": alice, "bob": bob})}


def test_a_record_of_sets_is_drawn_field_by_field() -> None:
    dom = _domains().domain("Deposit", _state(0, 0))
    assert dom.sizes() == (3, 5)  # accounts + "mallory"; 0..Limit + 1
    assert dom.count == 15
    assert dom.nth(0) == Fn({"account": "alice", "amount": 0})
    assert dom.nth(14) == Fn({"account": "mallory", "amount": 4})
    assert {dom.nth(i) for i in range(dom.count)} == {
        Fn({"account": a, "amount": n}) for a in ("alice", "bob", "mallory") for n in range(5)}


def test_allowed_and_forbidden_follow_enabled_in_the_state() -> None:
    domains = _domains()
    allowed, forbidden = domains.requests(_state(0, 2), limit=50)
    ok = {(r.action, tuple(sorted(r.params.items()))) for r in allowed}
    assert ("Withdraw", (("account", "bob"), ("amount", 2))) in ok
    assert ("Withdraw", (("account", "bob"), ("amount", 3))) not in ok
    assert not any(r.action == "Withdraw" and r.params["account"] == "alice" for r in allowed)
    assert all(r.params["amount"] in (1, 2, 3) for r in allowed if r.action == "Deposit")
    bad = {(r.action, r.params["account"] if "account" in r.params else r.params["from"],
            r.params["amount"]) for r in forbidden}
    assert ("Deposit", "mallory", 1) in bad and ("Withdraw", "alice", 1) in bad
    assert all(r.allowed for r in allowed) and not any(r.allowed for r in forbidden)


def test_a_set_of_records_is_drawn_whole(tmp_path: Path) -> None:
    text = (BANK / "Bank.tla").read_text().replace(
        'Params_Deposit == [account |-> Accounts \\cup {"mallory"}, amount |-> 0..Limit + 1]',
        "Params_Deposit == [account : Accounts, amount : 1..2]")
    dom = _domains(text, tmp_path).domain("Deposit", _state(0, 0))
    assert dom.sizes() == (4,)
    assert dom.nth(0) == Fn({"account": "alice", "amount": 1})


@pytest.mark.parametrize(("old", "new", "message"), [
    ("Params_Withdraw == [account |-> Accounts, amount |-> 0..Limit + 1]",
     "Params_Withdraw == [account |-> Accounts, amount |-> Nat]",
     "Params_Withdraw.amount is the infinite set Nat"),
    ("Params_Withdraw == [account |-> Accounts, amount |-> 0..Limit + 1]",
     "Params_Withdraw(x) == [account |-> Accounts]", "Params_Withdraw takes 1 parameter"),
    ("Params_Withdraw == [account |-> Accounts, amount |-> 0..Limit + 1]",
     "Params_Withdraw == 3", "Params_Withdraw is not a set"),
    ("Params_Withdraw == [account |-> Accounts, amount |-> 0..Limit + 1]",
     "Params_Withdraw == {1, 2}", "Params_Withdraw holds 1, which is not a params record"),
])
def test_bad_params_domains_are_named(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = (BANK / "Bank.tla").read_text()
    assert old in text
    with pytest.raises(UserError, match="Params_Withdraw") as err:
        _domains(text.replace(old, new), tmp_path).domain("Withdraw", _state(0, 0))
    assert message in str(err.value)
    assert err.value.location is not None and "Bank.tla" in err.value.location


def test_a_module_without_params_domains_cannot_be_driven(tmp_path: Path) -> None:
    text = "\n".join(line for line in (BANK / "Bank.tla").read_text().splitlines()
                     if not line.startswith("Params_"))
    with pytest.raises(UserError, match="defines no params domain"):
        _domains(text, tmp_path)


def test_the_bank_driver_maps_its_state() -> None:
    driver = BankDriver()
    assert driver.reset() == {"balance": {"alice": 0, "bob": 0}}
    assert driver.apply("Deposit", {"account": "bob", "amount": 2}) == (
        True, {"balance": {"alice": 0, "bob": 2}})
    assert driver.apply("Withdraw", {"account": "alice", "amount": 1})[0] is False
