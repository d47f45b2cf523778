"""Fixtures for replay's tests (helpers in ``counter_backend``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.replay.counter_backend import PyBackend, Step, write_trace
from tlaconf.replay import Backend, get_backend


@pytest.fixture(params=["py", "embedded"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """The Python backend and the embedded evaluator."""
    if request.param == "py":
        return PyBackend()
    return get_backend(request.param)


@pytest.fixture
def trace(tmp_path: Path) -> Callable[..., Path]:
    """``trace(name, initial, steps, **header)`` writes a trace under ``tmp_path``."""

    def make(name: str, initial: dict[str, Any] | None, steps: Sequence[Step] = (),
             **header: Any) -> Path:  # fmt: skip
        return write_trace(tmp_path / f"{name}.trace.jsonl", initial, steps, **header)

    return make
