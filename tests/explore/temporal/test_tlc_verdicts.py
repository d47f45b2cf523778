"""The property models of ``models/``: each verdict must be real TLC's
(``tlc_temporal.json``, written once by ``generate_tlc.py``).

A model where TLC stops with an evaluation error is refused (exit 2).  A safety
violation is found breadth first, so its behaviour has TLC's length; a
liveness counterexample is a lasso, checked to be a behaviour of the model (each step a
successor, the cycle closed by a step or by stuttering).
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tlaconf.explore import Unsupported, bfs, load_model

HERE = Path(__file__).parent
MODELS = HERE / "models"
TLC = json.loads((HERE / "tlc_temporal.json").read_text())["models"]


def module_of(cfg: str) -> Path:
    return MODELS / (cfg.split("_")[0] + ".tla")


@pytest.mark.parametrize("cfg", sorted(TLC))
def test_verdict_is_tlcs(cfg: str) -> None:
    tlc: dict[str, Any] = TLC[cfg]
    model = load_model(module_of(cfg), MODELS / cfg)
    if tlc["result"] == "error":  # TLC stops with an evaluation error: refused, no verdict
        with pytest.raises(Unsupported, match="where TLC stops with an error too"):
            bfs(model)
        return
    res = bfs(model)
    assert res.result == tlc["result"], res.violation
    if tlc["result"] != "violation":
        return
    v = res.violation
    assert v is not None and v.kind == "property"
    if "property" in tlc:
        assert v.invariant == tlc["property"]
    else:
        assert f"({tlc['conjunct_at']})" in v.detail
    assert (v.loop is None) == ("loop" not in tlc)
    if v.loop is None:
        assert len(v.path) == tlc["trace_states"]
        return
    states = [s.state for s in v.path]
    for a, b in pairwise(states):
        assert b in [t.state for t in model.successors(a)]
    last, back = states[-1], states[v.loop]
    assert back == last or back in [t.state for t in model.successors(last)]


def test_models_cover_each_kind() -> None:
    """The oracle has violations of safety, refinement and liveness with WF and SF, and
    models where fairness makes a property hold."""
    loops = {c for c, t in TLC.items() if "loop" in t}
    assert {"Counter_Climbs_Spec.cfg", "MinuteClock_Refines_SkipSpec.cfg"} <= {
        c for c, t in TLC.items() if t["result"] == "violation" and "loop" not in t}
    assert {"Toggle_Done_WeakSpec.cfg", "Mutex_Starvation_WeakSpec.cfg",
            "Counter_ReachesMax_Spec.cfg"} <= loops
    assert TLC["Toggle_Done_StrongSpec.cfg"]["result"] == "success"
    assert TLC["Counter_ReachesMax_FairSpec.cfg"]["result"] == "success"
