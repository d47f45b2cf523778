"""Fixtures for replay's tests (helpers in ``counter_backend``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from counter_backend import HAS_EVALUATOR, PyBackend, Step, write_trace

from tlaconf.replay import Backend, get_backend

BACKEND_NAMES = ["py", pytest.param("embedded", marks=pytest.mark.skipif(
    not HAS_EVALUATOR, reason="tlaconf.evaluate is not merged yet"))]  # fmt: skip


@pytest.fixture(params=BACKEND_NAMES)
def backend(request: pytest.FixtureRequest) -> Backend:
    """The Python backend and (once it exists) the embedded evaluator."""
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
