"""The evaluation budget covers every evaluation: checks, constant folding, ASSUME."""

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import budget, load_module
from tlaconf.evaluate.errors import EvalError

RUNAWAY = "\\A a, b, c \\in 1..1000 : a + b + c > 0"


@pytest.fixture
def short_budget() -> Iterator[None]:
    with budget.run(0.3):
        yield


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


def _alarm_state() -> tuple[object, float]:
    return signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)[0]


def test_a_run_arms_its_timer_once_and_leaves_the_process_as_it_was(tmp_path: Path) -> None:
    ctx = load_module(write(tmp_path, f"Ok == x > 0\nInv == x > 0 /\\ \\A y \\in 1..2 : {RUNAWAY}"))
    before = _alarm_state()
    calls: list[float] = []
    real = signal.setitimer

    def counting(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        calls.append(seconds)
        return real(which, seconds, interval)

    with budget.run(0.3):
        signal.setitimer = counting  # type: ignore[assignment]
        try:
            for _ in range(200):
                assert ctx.holds("Ok", (), {"x": 1}) is True
        finally:
            signal.setitimer = real
        assert len(calls) == 1  # armed by the first check only
        time.sleep(0.2)  # the timer armed at the first check fires during the next one,
        start = time.monotonic()
        with pytest.raises(EvalError, match=r"budget of 0\.3 s is exhausted"):
            ctx.holds("Inv", (), {"x": 1})
        assert time.monotonic() - start >= 0.28  # which still gets its whole budget
        assert ctx.holds("Ok", (), {"x": 1}) is True
    assert _alarm_state() == before


def test_outside_a_run_each_evaluation_leaves_the_process_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = load_module(write(tmp_path, f"Ok == x > 0\nInv == x > 0 /\\ ({RUNAWAY})"))
    monkeypatch.setenv(budget.ENV, "0.3")
    before = _alarm_state()
    assert ctx.holds("Ok", (), {"x": 1}) is True
    assert _alarm_state() == before
    with pytest.raises(EvalError, match="evaluation budget"):
        ctx.holds("Inv", (), {"x": 1})
    assert _alarm_state() == before
