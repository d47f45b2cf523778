"""Hypothesis fuzzing of the trace reader and the .cfg reader: only UserError may escape."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlaconf.errors import UserError
from tlaconf.spec.cfg import parse_cfg, read_cfg
from tlaconf.trace import open_trace
from tlaconf.trace.itf_read import itf_to_trace

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


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200) | st.lists(CFG_WORDS, max_size=30).map(
    lambda ws: " ".join(ws).encode("utf-8")))
def test_the_cfg_file_reader_takes_any_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.cfg"
    path.write_bytes(data)
    try:
        cfg = read_cfg(path)
    except UserError as err:
        assert str(err).startswith(str(path)) or f"config {path}" in str(err)
    else:
        assert all(isinstance(name, str) for name in [*cfg.constants, *cfg.invariants])


HEADER_LINE = json.dumps(HEADER).encode("utf-8")


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200), st.booleans())
def test_the_trace_reader_takes_any_bytes(tmp_path: Path, data: bytes, with_header: bool) -> None:
    """Any bytes (after a valid header, or instead of one): a UserError or a trace."""
    path = tmp_path / "f.trace.jsonl"
    path.write_bytes(HEADER_LINE + b"\n" + data if with_header else data)
    try:
        with open_trace(path) as t:
            _ = t.initial
            for _step in t.steps():
                pass
    except UserError as err:
        assert str(err).startswith(str(path)) or str(path) in str(err)


ITF_KEYS = st.sampled_from(["vars", "states", "#meta", "loop", "params", "count", "by",
                            "mbt::actionTaken", "mbt::nondetPicks", "#bigint", "#set", "#tup",
                            "#map", "#unserializable", "tag", "value"])
ITF_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ITF_KEYS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({"vars": st.just(["count"]), "states": st.lists(
    st.dictionaries(ITF_KEYS, ITF_JSON, max_size=3), max_size=3)}) | ITF_JSON)
def test_the_itf_reader_takes_any_json(tmp_path: Path, doc: object) -> None:
    """Any JSON document given to ``convert`` as ITF: a UserError and nothing written, or a
    trace the trace reader reads back."""
    src, dst = tmp_path / "f.itf.json", tmp_path / "f.trace.jsonl"
    src.write_text(json.dumps(doc), encoding="utf-8")
    dst.unlink(missing_ok=True)
    try:
        itf_to_trace(src, dst, "Tally", "1")
    except UserError:
        assert not dst.exists() and list(tmp_path.glob("*.part")) == []
    else:
        with open_trace(dst) as t:
            _ = t.initial
            for _step in t.steps():
                pass
