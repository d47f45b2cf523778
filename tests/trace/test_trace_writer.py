"""The trace writer refuses what the reader could not read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.trace import TraceWriter, open_trace
from tlaconf.values import Fn


def test_names_must_be_identifiers(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="constant name 'a b'"):
        TraceWriter(tmp_path / "t.trace.jsonl", "M", "2", {"a b": 1})
    assert list(tmp_path.iterdir()) == []
    with TraceWriter(tmp_path / "t.trace.jsonl", "M", "2") as w:
        with pytest.raises(ValueError, match="variable name '#x'"):
            w.init({"#x": 1})
        w.init({"x": 1})
        with pytest.raises(ValueError, match="params field names must be strings"):
            w.step("A", {1: 2}, "accepted", {"x": 1})  # type: ignore[dict-item]
        w.step("A", {"#set": 1}, "accepted", {"x": 1})
    with open_trace(tmp_path / "t.trace.jsonl") as t:
        (step,) = t.steps()
    assert step.params == Fn({"#set": 1})


def test_a_failed_recording_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.trace.jsonl"
    with pytest.raises(RuntimeError), TraceWriter(path, "M", "2") as w:
        w.init({"x": 1})
        raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []
