"""The evaluation budget covers every evaluation: checks, constant folding, ASSUME."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import budget, load_module
from tlaconf.evaluate.errors import EvalError

RUNAWAY = "\\A a, b, c \\in 1..1000 : a + b + c > 0"


@pytest.fixture
def short_budget() -> Iterator[None]:
    old = budget.seconds
    budget.seconds = 0.3
    try:
        yield
    finally:
        budget.seconds = old


def write(tmp: Path, body: str) -> Path:
    p = tmp / "B.tla"
    p.write_text(f"---- MODULE B ----\nEXTENDS Naturals\nVARIABLE x\n{body}\n====\n")
    return p


def test_a_runaway_assume_is_stopped_and_located(tmp_path: Path, short_budget: None) -> None:
    ctx = load_module(write(tmp_path, f"ASSUME {RUNAWAY}"))
    with pytest.raises(EvalError, match=r"evaluation budget of 0\.3 s is exhausted") as err:
        ctx.check_assumptions()
    assert str(err.value).startswith(f"{tmp_path / 'B.tla'}:4:")


def test_constant_folding_at_compile_time_is_under_the_budget(
    tmp_path: Path, short_budget: None
) -> None:
    ctx = load_module(write(tmp_path, f"Inv == x > 0 /\\ ({RUNAWAY})"))
    with pytest.raises(EvalError, match="evaluation budget") as err:
        ctx.holds("Inv", (), {"x": 1})
    assert err.value.location == f"{tmp_path / 'B.tla'}:4:17"  # the folded (...)


def test_a_check_that_ends_in_time_is_not_stopped(tmp_path: Path, short_budget: None) -> None:
    ctx = load_module(write(tmp_path, "Inv == \\A a \\in 1..100 : a + x > 0"))
    assert ctx.holds("Inv", (), {"x": 1}) is True


def test_the_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(budget.ENV, "2.5")
    assert budget.from_env() == 2.5
    monkeypatch.setenv(budget.ENV, "")
    assert budget.from_env() == budget.DEFAULT_SECONDS
    for bad in ("soon", "-1", "inf", "nan"):
        monkeypatch.setenv(budget.ENV, bad)
        with pytest.raises(UserError, match=f"TLACONF_EVAL_BUDGET={bad}: expected a number"):
            budget.from_env()


def test_a_false_assume_names_its_line_and_the_constants(tmp_path: Path) -> None:
    p = tmp_path / "A.tla"
    p.write_text("---- MODULE A ----\nEXTENDS Naturals\nCONSTANT K\nASSUME K > 1\n"
                 "ASSUME K < 0\n====\n")
    ctx = load_module(p, (), {"K": 3})
    with pytest.raises(EvalError, match=r"ASSUME K < 0 is FALSE under the constants") as err:
        ctx.check_assumptions()
    assert err.value.location == f"{p}:5:1" and err.value.values == (("K", "3"),)
    with pytest.raises(EvalError, match=r"ASSUME K > 1 is FALSE"):
        load_module(p, (), {"K": -3}).check_assumptions()
