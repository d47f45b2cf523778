"""A state the constraints exclude is not explored, but TLC checks its invariants, its
``[]P`` properties and the ``[][A]_v`` step to it (``ModelChecker.doNext``: ``unseen``
stays TRUE for a state not in the model; ``DoInitFunctor`` for an initial one).  The
verdicts below are TLC 1.8.0's on these modules (``-workers 1``): each a violation whose
last state is the excluded one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.explore import bfs, dfs, load_model, parallel_bfs

MODELS = Path(__file__).parent / "models" / "excluded"

TLC = {  # cfg: (TLC's message, the name violated, the x of each state of its trace)
    "Excluded.cfg": ("Invariant Inv is violated.", "Inv", [0, 1, 2, 3]),
    "ExcludedC.cfg": ("Invariant Inv is violated.", "Inv", [0, 1, 2, 3]),
    "ExcludedP.cfg": ("Invariant Safe is violated.", "Safe", [0, 1, 2, 3]),
    "ExcludedA.cfg": ("Action property Step is violated.", "Step", [0, 1, 2, 3]),
    "ExcludedI.cfg": ("Invariant Inv2 is violated by the initial state", "Inv2", [0]),
}


@pytest.mark.parametrize("cfg", sorted(TLC))
@pytest.mark.parametrize("search", ["bfs", "dfs"])
def test_an_excluded_state_is_checked_as_tlc_checks_it(cfg: str, search: str) -> None:
    _, name, xs = TLC[cfg]
    model = load_model(MODELS / "Excluded.tla", MODELS / cfg)
    res = (bfs if search == "bfs" else dfs)(model)
    assert res.result == "violation" and res.violation is not None
    assert res.violation.invariant == name
    assert [s.state["x"] for s in res.violation.path] == xs
    assert res.distinct_states == len(xs) - 1  # the excluded state is never kept


@pytest.mark.parametrize("cfg", ["Excluded.cfg", "ExcludedC.cfg", "ExcludedI.cfg"])
def test_workers_check_it_too(cfg: str) -> None:
    _, name, xs = TLC[cfg]
    res = parallel_bfs(load_model(MODELS / "Excluded.tla", MODELS / cfg), 2)
    assert res.result == "violation" and res.violation is not None
    assert res.violation.invariant == name
    assert [s.state["x"] for s in res.violation.path] == xs


def test_an_excluded_state_that_satisfies_them_passes(tmp_path: Path) -> None:
    (tmp_path / "Ok.cfg").write_text("INIT Init\nNEXT Next\nCONSTRAINT C\nINVARIANT Small\n")
    tla = (MODELS / "Excluded.tla").read_text().replace("====", "Small == x < 4\n====")
    (tmp_path / "Excluded.tla").write_text(tla)
    res = bfs(load_model(tmp_path / "Excluded.tla", tmp_path / "Ok.cfg"))
    assert res.result == "success" and res.distinct_states == 3
