"""Hypothesis fuzzing of the trace reader and the .cfg reader: only UserError may escape."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlaconf.errors import UserError
from tlaconf.spec.cfg import parse_cfg
from tlaconf.trace import open_trace

CFG_WORDS = st.sampled_from([
    "CONSTANT", "CONSTANTS", "INVARIANT", "INVARIANTS", "INIT", "NEXT", "Limit", "Inv", "=",
    "<-", "{", "}", "<<", ">>", "[", "]", "|->", ",", "..", "-", "1", "10", '"a"', '"', "TRUE",
    "(*", "*)", "\\*", "\n", " ", "x", "99999999999",
])  # fmt: skip
HEADER = {"format": "tlaconf-trace", "version": 1, "module": "Tally", "revision": "1",
          "constants": {}, "meta": {}}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["#set", "#tup", "#map", "#bigint", "state", "action", "params",
                         "outcome", "count", "by", "x"]), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(CFG_WORDS, max_size=30).map(" ".join) | st.text(max_size=60))
def test_the_cfg_reader_raises_only_user_errors(text: str) -> None:
    try:
        parse_cfg(text, "fuzz.cfg")
    except UserError as err:
        assert str(err).startswith("fuzz.cfg")


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(JSON.map(json.dumps) | st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
                max_size=4))
def test_the_trace_reader_raises_only_user_errors(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "f.trace.jsonl"
    path.write_text("\n".join([json.dumps(HEADER), *lines]) + "\n", encoding="utf-8")
    try:
        with open_trace(path) as t:
            _ = t.initial
            for _step in t.steps():
                pass
    except UserError as err:
        assert str(err).startswith(str(path))
