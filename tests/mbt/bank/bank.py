"""A small bank, the implementation under test, and its driver for ``tlaconf mbt``.

``Bank(cap=N)`` plants a bug: a balance never goes above N (a deposit or transfer
that would take it higher is silently cut), which the spec does not allow.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Bank:
    def __init__(self, accounts: tuple[str, ...], limit: int, cap: int | None = None) -> None:
        self.balance = dict.fromkeys(accounts, 0)
        self.limit = limit
        self.cap = cap

    def _credit(self, account: str, amount: int) -> None:
        total = self.balance[account] + amount
        self.balance[account] = total if self.cap is None else min(total, self.cap)

    def deposit(self, account: str, amount: int) -> bool:
        if account not in self.balance or not 1 <= amount <= self.limit:
            return False
        self._credit(account, amount)
        return True

    def withdraw(self, account: str, amount: int) -> bool:
        if account not in self.balance or not 1 <= amount <= self.balance[account]:
            return False
        self.balance[account] -= amount
        return True

    def transfer(self, source: str, target: str, amount: int) -> bool:
        if source == target or target not in self.balance or not self.withdraw(source, amount):
            return False
        self._credit(target, amount)
        return True


class BankDriver:
    """Drives a :class:`Bank` with the requests of module ``Bank``."""

    module = "Bank"
    constants: ClassVar[dict[str, Any]] = {"Accounts": {"alice", "bob"}, "Limit": 3}

    def __init__(self, cap: int | None = None, crash_on: int | None = None) -> None:
        self.cap = cap
        self.crash_on = crash_on
        self.bank = Bank(("alice", "bob"), 3, cap)

    def reset(self) -> dict[str, Any]:
        self.bank = Bank(("alice", "bob"), 3, self.cap)
        return {"balance": dict(self.bank.balance)}

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        if self.crash_on is not None and p.get("amount") == self.crash_on:
            raise RuntimeError(f"the bank crashed on amount {self.crash_on}")
        if action == "Deposit":
            ok = self.bank.deposit(p["account"], p["amount"])
        elif action == "Withdraw":
            ok = self.bank.withdraw(p["account"], p["amount"])
        else:
            ok = self.bank.transfer(p["from"], p["to"], p["amount"])
        return ok, {"balance": dict(self.bank.balance)}


def correct() -> BankDriver:
    return BankDriver()


def capped() -> BankDriver:
    return BankDriver(cap=4)


def capped_at_2() -> BankDriver:
    return BankDriver(cap=2)
