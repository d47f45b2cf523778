"""A vault, the implementation under test of ``Vault.tla``, and its driver.

``VaultDriver(skip_checksum=True)`` plants a bug: a withdrawal with the right code and a
wrong checksum is accepted.  Only a near miss of the checksum guard shows it: the right
code (one of ten thousand) and an amount within the balance.
"""

from __future__ import annotations

from typing import Any, ClassVar

CODE = 4242


class VaultDriver:
    module = "Vault"
    constants: ClassVar[dict[str, Any]] = {"Code": CODE}

    def __init__(self, skip_checksum: bool = False) -> None:
        self.skip_checksum = skip_checksum
        self.balance = 300

    def reset(self) -> dict[str, Any]:
        self.balance = 300
        return {"balance": self.balance}

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        amount = p["amount"]
        if action == "Deposit":
            ok = 1 <= amount <= 100 and self.balance + amount <= 999
            if ok:
                self.balance += amount
        elif action == "Withdraw":
            checksum = self.skip_checksum or (p["pin"] + amount) % 97 == 13
            ok = p["pin"] == CODE and checksum and 1 <= amount <= self.balance
            if ok:
                self.balance -= amount
        else:
            ok = p["pin"] == CODE and amount > self.balance + 999
            if ok:
                self.balance = 0
        return ok, {"balance": self.balance}


def correct() -> VaultDriver:
    return VaultDriver()


def skipping() -> VaultDriver:
    return VaultDriver(skip_checksum=True)
