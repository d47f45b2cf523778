"""The golden traces of ``traces/interop/`` are their ITF sources (``itf/``), converted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.trace.itf import itf_to_trace

AREA = Path(__file__).parents[2] / "traces" / "interop"
SOURCES = sorted((AREA / "itf").glob("*.itf.json"))


def module_of(source: Path) -> str:
    lifecycle = source.name.startswith(("lifecycle", "return"))
    return "AbilityLifecycle" if lifecycle else "ZoneMembership"


def test_every_trace_has_its_source() -> None:
    traces = {p.name.removesuffix(".trace.jsonl") for p in AREA.glob("*.trace.jsonl")}
    assert traces == {p.name.removesuffix(".itf.json") for p in SOURCES}
    assert len(traces) >= 8


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_interop_traces_are_up_to_date(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.trace.jsonl"
    itf_to_trace(source, out, module_of(source), "2")
    committed = AREA / source.name.replace(".itf.json", ".trace.jsonl")
    assert out.read_bytes() == committed.read_bytes()
