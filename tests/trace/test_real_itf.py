"""Real ITF files other tools wrote (``data/itf/``, see its SOURCES.md) convert to traces.

Each file becomes a trace whose states hold the same values as the file's
states (decoded by tlaconf's codec), its ``#meta`` and per-state ``#meta`` kept
in the header's ``meta``; written back as ITF, itf-py loads it whenever it loads
the original (itf-py 0.5.0 cannot load a Quint variant whose value is an
object, such as ``{"tag": "Some", "value": {"#bigint": "40"}}``, nor Quint's
``None`` picks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from itf_py.itf import trace_from_json

from tlaconf.trace import open_trace
from tlaconf.trace.itf import itf_to_trace, trace_to_itf
from tlaconf.values import decode

REAL = sorted((Path(__file__).parent / "data" / "itf").glob("*.itf.json"))
RESERVED = ("#", "mbt::", "tlaconf::")


def decoded_states(doc: dict[str, Any]) -> list[dict[str, Any]]:
    params = set(doc.get("params", ()))
    return [
        {k.rsplit("::", 1)[-1]: decode(v) for k, v in s.items()
         if not k.startswith(RESERVED) and k not in params}
        for s in doc["states"]
    ]  # fmt: skip


def test_there_are_real_files_from_each_source() -> None:
    assert {p.name.split("__")[0] for p in REAL} == {"itf-rs", "modelator", "quint"}


@pytest.mark.parametrize("src", REAL, ids=lambda p: p.name)
def test_a_real_itf_file_converts_with_its_values(src: Path, tmp_path: Path) -> None:
    doc = json.loads(src.read_text(encoding="utf-8"))
    trace = tmp_path / "real.trace.jsonl"
    steps = itf_to_trace(src, trace, "Real", "2")
    with open_trace(trace) as t:
        meta = t.header.meta
        states = [t.initial, *(s.state for s in t.steps())]
    want = decoded_states(doc)
    if len(want) > 1 and want[-1] == {}:  # Quint's state after a failed action
        want.pop()
        assert meta["itf_failed_last_state"] == len(want)
    if doc.get("loop") is not None and want[-1] != want[doc["loop"]]:
        want.append(want[doc["loop"]])
    assert steps == len(want) - 1
    assert states == want
    assert meta["itf"] == doc.get("#meta", {})
    if any("#meta" in s for s in doc["states"]):
        assert meta["itf_states"] == [s.get("#meta", {}) for s in doc["states"]]
    itf = tmp_path / "back.itf.json"
    trace_to_itf(trace, itf)
    ours = json.loads(itf.read_text(encoding="utf-8"))
    try:
        trace_from_json(doc)
    except ValueError:
        return
    assert len(trace_from_json(ours).states) == len(want)
