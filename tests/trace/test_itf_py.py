"""itf-py (PyPI ``itf-py``, the ITF library of Apalache's authors) reads the ITF tlaconf writes.

Every golden trace is converted to ITF; itf-py must load the file and see the
same values in every state (records as named tuples, ``#map`` as dicts,
``#tup`` as tuples, sequences as lists).  The ITF tlaconf wrote before (a
function keyed by ``"SideA.Deck"`` as a JSON object) is what itf-py refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from itf_py.itf import ImmutableDict, ImmutableList, trace_from_json

from tlaconf.trace import open_trace
from tlaconf.trace.itf import trace_to_itf
from tlaconf.trace.partial import is_partial
from tlaconf.values import Fn, ModelValue, encode

GOLDEN = sorted(p for p in (Path(__file__).parents[2] / "traces").rglob("*.trace.jsonl")
                if not is_partial(p))  # a partial trace has no full states to give ITF


def same(py: Any, v: Any) -> bool:
    """Whether itf-py's value ``py`` is the TLA+ value ``v``."""
    if type(v) in (bool, str, int):
        return type(py) is type(v) and py == v
    if type(v) is frozenset:
        return isinstance(py, frozenset) and len(py) == len(v) and all(
            any(same(p, x) for p in py) for x in v)  # fmt: skip
    if type(v) is tuple:
        items = py if isinstance(py, tuple | ImmutableList) else None
        if items is None and not v:
            return py == {} or py == ImmutableDict({})
        return items is not None and len(items) == len(v) and all(map(same, items, v))
    if type(v) is Fn:
        if isinstance(py, ImmutableDict):
            return len(py) == len(v) and all(
                any(same(k, key) and same(x, v[key]) for key in v) for k, x in py.items())
        fields = getattr(py, "_fields", None)
        return fields is not None and set(fields) == set(v) and all(
            same(getattr(py, f), v[f]) for f in fields)  # fmt: skip
    return type(v) is ModelValue and getattr(py, "value", None) == v.name


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: p.name)
def test_itf_py_loads_every_golden_trace_as_itf(golden: Path, tmp_path: Path) -> None:
    itf = tmp_path / "g.itf.json"
    steps = trace_to_itf(golden, itf)
    loaded = trace_from_json(json.loads(itf.read_text(encoding="utf-8")))
    assert len(loaded.states) == steps + 1
    with open_trace(golden) as t:
        states = [t.initial, *(s.state for s in t.steps())]
    for got, want in zip(loaded.states, states, strict=True):
        assert all(same(got.values[name], value) for name, value in want.items())


def test_itf_py_refuses_a_record_keyed_by_zone_names() -> None:
    old = {"vars": ["occupants"], "states": [{"occupants": encode(Fn({"SideA.Deck": 1}))}]}
    assert old["states"][0]["occupants"] == {"SideA.Deck": 1}  # what tlaconf wrote before
    with pytest.raises(ValueError, match="valid identifiers"):
        trace_from_json(old)
