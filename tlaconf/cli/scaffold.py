"""The files ``tlaconf init NAME`` writes: a small project that conforms to its own spec.

``{name}`` is the project (and its Python package); the example is an account with
deposits and withdrawals, its conformance module ``Account``.
"""

from __future__ import annotations

FILES: dict[str, str] = {
    "pyproject.toml": '''\
[project]
name = "{name}"
version = "0.1.0"
requires-python = ">=3.11"

[tool.tlaconf]
spec = "spec"                                # conformance modules (no profile needed)
scenarios = "{name}.scenarios:generate_all"  # what `tlaconf check` runs
strict = false                               # true: every warning fails the run

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["."]
''',
    "README.md": '''\
# {name}

An implementation checked against its TLA+ specification with tlaconf.

- `spec/conformance/Account.tla`: what each request may do (one action per request)
  and the invariant every state satisfies; `Account.cfg`: constants and invariants.
- `{name}/account.py`: the implementation; `{name}/recorder.py` records what it did
  as a trace; `{name}/scenarios.py`: seeded runs of it; `{name}/driver.py` drives it
  with requests drawn from the spec, mapped by the recorder's own `refine`.
- `tlaconf check` runs the scenarios and replays their traces; `pytest` does the same
  through the `tlaconf_replay` fixture (`tests/test_conformance.py`), and runs
  `tlaconf.mbt` on the driver; `tlaconf mbt spec/conformance/Account.tla --driver
  {name}.driver:driver` does from the command line (with `PYTHONPATH=.`).
''',
    "spec/conformance/Account.tla": '''\
------------------------------ MODULE Account ------------------------------
(* What a request to the account may do.  One action per request, taking  *)
(* the request's params; a rejected request must change nothing and must *)
(* not be enabled.                                                        *)
EXTENDS Integers

CONSTANT Limit          \\* the most the account may hold
VARIABLES balance

\\* p: [amount]
Deposit(p) ==
    /\\ p.amount > 0
    /\\ balance + p.amount <= Limit
    /\\ balance' = balance + p.amount

\\* p: [amount]
Withdraw(p) ==
    /\\ p.amount > 0
    /\\ p.amount <= balance
    /\\ balance' = balance - p.amount

\\* For steps recorded without an action label.
Next == \\E a \\in 1..Limit : Deposit([amount |-> a]) \\/ Withdraw([amount |-> a])

InRange == balance \\in 0..Limit

\\* The requests `tlaconf mbt` draws: legal and illegal amounts.
Params_Deposit == [amount |-> -1..Limit + 1]
Params_Withdraw == [amount |-> -1..Limit + 1]
=============================================================================
''',
    "spec/conformance/Account.cfg": '''\
CONSTANT Limit = 100
INVARIANT InRange
''',
    "{name}/__init__.py": '''\
"""{name}: an account, checked against spec/conformance/Account.tla."""
''',
    "{name}/account.py": '''\
"""The implementation under test."""

from __future__ import annotations


class Account:
    """Holds at most ``limit``; every request is all or nothing."""

    def __init__(self, limit: int = 100) -> None:
        self.limit = limit
        self.balance = 0

    def deposit(self, amount: int) -> bool:
        if amount <= 0 or self.balance + amount > self.limit:
            return False
        self.balance += amount
        return True

    def withdraw(self, amount: int) -> bool:
        if amount <= 0 or amount > self.balance:
            return False
        self.balance -= amount
        return True
''',
    "{name}/recorder.py": '''\
"""Records what the account did as a tlaconf trace, with tlaconf's own recorder."""

from __future__ import annotations

from pathlib import Path

import tlaconf

from {name}.account import Account


def refine(account: Account) -> dict[str, int]:
    """The refinement mapping: the spec's variables, read off the implementation."""
    return {{"balance": account.balance}}


class Recorder(tlaconf.Recorder[Account]):
    """Each request becomes one step: its action, params, outcome and the state after."""

    def __init__(self, path: Path, account: Account, seed: int) -> None:
        super().__init__(path, "Account", refine, constants={{"Limit": account.limit}},
                         meta={{"seed": seed, "generator": "{name}.scenarios"}})
        self.account = account
        self.init(account)

    def request(self, action: str, amount: int) -> bool:
        done = {{"Deposit": self.account.deposit, "Withdraw": self.account.withdraw}}[action]
        ok = done(amount)
        self.record(action, {{"amount": amount}}, "accepted" if ok else "rejected",
                    self.account)
        return ok
''',
    "{name}/driver.py": '''\
"""The account driven by requests drawn from its spec (`tlaconf mbt`), mapped onto the
spec's variables by the recorder's own refinement mapping."""

from __future__ import annotations

from typing import Any

import tlaconf

from {name}.account import Account
from {name}.recorder import refine


def act(account: Account, action: str, params: dict[str, Any]) -> bool:
    """Carry out one request; whether the account accepted it."""
    done = {{"Deposit": account.deposit, "Withdraw": account.withdraw}}[action]
    return done(params["amount"])


def driver() -> tlaconf.MappedDriver[Account]:
    return tlaconf.MappedDriver("Account", Account, act, refine, constants={{"Limit": 100}})
''',
    "{name}/scenarios.py": '''\
"""Seeded runs of the account: what `tlaconf check` runs ([tool.tlaconf] scenarios)."""

from __future__ import annotations

import random
from pathlib import Path

from {name}.account import Account
from {name}.recorder import Recorder


def generate_all(out_dir: Path, seed: int) -> list[Path]:
    """Write one trace of 40 random requests (legal and illegal) into ``out_dir``."""
    rng = random.Random(seed)
    path = Path(out_dir) / f"account-{{seed}}.trace.jsonl"
    with Recorder(path, Account(), seed) as rec:
        for _ in range(40):
            rec.request(rng.choice(["Deposit", "Withdraw"]), rng.randint(-5, 60))
    return [path]
''',
    "tests/test_conformance.py": '''\
"""The account conforms to spec/conformance/Account.tla (tlaconf's pytest fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tlaconf

from {name}.driver import driver
from {name}.scenarios import generate_all


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_scenarios_conform(tmp_path: Path, tlaconf_replay, seed: int) -> None:
    for path in generate_all(tmp_path, seed):
        tlaconf_replay(path)


def test_an_overdraft_is_caught(tmp_path: Path, tlaconf_replay) -> None:
    path = tmp_path / "overdraft.trace.jsonl"
    with tlaconf.Recorder(path, "Account", constants={{"Limit": 100}}) as rec:
        rec.init({{"balance": 5}})
        rec.accepted("Withdraw", {{"amount": 9}}, {{"balance": -4}})
    tlaconf_replay(path, expect="violation", step=1, conjunct="p.amount <= balance")


def test_requests_drawn_from_the_spec_conform(tmp_path: Path) -> None:
    outcome = tlaconf.mbt(driver(), steps=10, examples=20, database=None, out=tmp_path)
    assert outcome.found is None, outcome.found.result or outcome.found.crash
''',
}
