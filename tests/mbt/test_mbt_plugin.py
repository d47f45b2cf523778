"""The pytest fixture ``tlaconf_mbt``: passes a conforming driver, fails with the report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bank import BankDriver

BANK = Path(__file__).resolve().parent / "bank"


def test_the_fixture_passes_a_conforming_driver(tlaconf_mbt: Callable[..., Any]) -> None:
    outcome = tlaconf_mbt(BankDriver(), steps=6, examples=5, spec=BANK)
    assert outcome.found is None and outcome.steps > 0


def test_the_fixture_fails_the_test_with_the_shrunk_failure(
        tlaconf_mbt: Callable[..., Any]) -> None:  # fmt: skip
    with pytest.raises(pytest.fail.Exception, match="shrunk from") as err:
        tlaconf_mbt(BankDriver(cap=2), steps=6, examples=30, spec=BANK)
    assert "is FALSE from s to s'" in str(err.value) or "FALSE" in str(err.value)


def test_the_fixture_reports_bad_input(tlaconf_mbt: Callable[..., Any]) -> None:
    driver = BankDriver()
    driver.module = "NoSuchModule"  # type: ignore[misc]
    with pytest.raises(pytest.fail.Exception, match="unknown module 'NoSuchModule'"):
        tlaconf_mbt(driver, spec=BANK)
