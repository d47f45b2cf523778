"""The trace writer refuses what the reader could not read back."""

from __future__ import annotations

import json
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


def test_write_expected_has_one_shape(tmp_path: Path) -> None:
    from tlaconf.gate.golden import Expectation
    from tlaconf.trace.writer import write_expected

    path = write_expected(tmp_path / "expected.json", {
        "z.trace.jsonl": {"verdict": "conforms"},
        "a.trace.jsonl": {"conjunct": "x' = 1", "verdict": "violation", "step": 2},
    })
    assert path.read_text(encoding="utf-8") == (
        '{\n  "a.trace.jsonl": {\n    "verdict": "violation",\n    "step": 2,\n'
        '    "conjunct": "x\' = 1"\n  },\n  "z.trace.jsonl": {\n    "verdict": "conforms",\n'
        '    "step": null,\n    "conjunct": null\n  }\n}\n')
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert Expectation.from_json(doc["a.trace.jsonl"], "a").step == 2
