"""``tlaconf validate`` checks a trace spec's PROPERTY lines as TLC does: the whole log
matched as ``<>(l > Len(TraceLog))`` with weak fairness, or in the single-worker form
``[](l <= Len(TraceLog) => [](TLCGet("queue") = 1 \\/ l > Len(TraceLog)))``, and
refinement of the base spec through an INSTANCE.  TLC's verdicts are in
``tlc_temporal.json`` (``traces``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.validate.tracespec import validate_trace_spec

HERE = Path(__file__).parent
TRACES = HERE / "tracespec"
LIB = HERE.parents[1] / "library" / "data" / "lib"
TLC = json.loads((HERE / "tlc_temporal.json").read_text())["traces"]


@pytest.mark.parametrize("run", sorted(TLC))
def test_trace_spec_verdict_is_tlcs(run: str) -> None:
    cfg, log = run.split()
    out = validate_trace_spec(TRACES / "CounterLogTrace.tla", TRACES / cfg, [LIB],
                              {"JSON": str(TRACES / log)})
    tlc = TLC[run]
    assert out.result == ("accepted" if tlc["result"] == "success" else "rejected"), out.reason
    if tlc["result"] == "violation":
        name = tlc.get("property")
        if name is not None:
            assert f"property {name} is violated" in out.reason
        else:
            assert f"({tlc['conjunct_at']})" in out.reason
        assert ("loop" in tlc) == ("loops forever" in out.reason)
