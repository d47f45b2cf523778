"""Boundary values (tlaconf.mbt.boundary): the requests on both sides of the line a guard
draws across an integer field, found by the directed survey and sent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tlaconf.evaluate.coverage import CoverageProbe
from tlaconf.explore import Successors
from tlaconf.mbt.boundary import edges
from tlaconf.mbt.directed import Survey, survey, sweep
from tlaconf.mbt.domains import Domain
from tlaconf.mbt.machine import Session, StepFailed
from tlaconf.mbt.run import session_for
from tlaconf.mbt.solver import EnumerationSolver
from tlaconf.values import Fn

GATE = Path(__file__).resolve().parent / "gate"
if str(GATE) not in sys.path:
    sys.path.insert(0, str(GATE))

from gate import GateDriver  # noqa: E402


def _plan(driver: GateDriver) -> tuple[Session, Survey]:
    session = session_for(driver, GATE)
    solver = EnumerationSolver(session.domains, CoverageProbe(session.domains.ctx))
    return session, survey(session, solver, Successors(session.domains.ctx), session.start(), 3)


def test_the_edges_of_each_line_a_guard_draws_are_found() -> None:
    _, plan = _plan(GateDriver())
    found = {(a, g[1], e.field, e.line, e.values) for a, g, e in plan.edges()}
    # p.n \in 1..Cap: both ends of the interval; count + p.n <= Cap from count = 0
    assert ("Add", 9, "n", (0, 1), (0, 1, 2)) in found
    assert ("Add", 9, "n", (3, 4), (2, 3, 4)) in found
    assert ("Add", 10, "n", (3, 4), (2, 3, 4)) in found
    sent = {(r.action, r.params["n"], r.allowed) for _, r in plan.targets()}
    assert {("Add", 3, True), ("Add", 4, False)} <= sent


def test_an_off_by_one_is_found_only_at_the_edge() -> None:
    session, plan = _plan(GateDriver(off_by_one=True))
    with pytest.raises(StepFailed) as failed:
        sweep(session, plan)
    assert failed.value.steps[-1].params == {"n": 3}  # the sum exactly the cap

    session, plan = _plan(GateDriver(off_by_one=True))
    for facts in plan.facts.values():
        facts.edges.clear()
    sweep(session, plan)  # the allowed requests and near misses alone do not find it


def test_an_edge_is_each_side_of_where_the_guard_changes() -> None:
    dom = Domain("A", (("n", (-1, 0, 1, 2, 3)), ("flag", (False, True))), None)
    key = ("M.tla", 1, 1, 1, 9, "conjunct")

    def walk(p: Fn) -> set:  # the guard p.n >= 1
        return {(key, p["n"] >= 1)}

    (edge,) = edges(dom, Fn({"n": 2, "flag": True}), walk, [key])
    assert edge.field == "n" and edge.line == (0, 1) and edge.values == (-1, 0, 1, 2)
    assert [r["n"] for r in edge.requests] == [-1, 0, 1, 2]
    assert all(r["flag"] is True for r in edge.requests)

    def equal(p: Fn) -> set:  # p.n = 1: two lines, so the value and both neighbours
        return {(key, p["n"] == 1)}

    assert [e.values for e in edges(dom, Fn({"n": 1, "flag": True}), equal, [key])] == [
        (-1, 0, 1, 2), (0, 1, 2, 3)]

    def flat(p: Fn) -> set:  # a guard the field does not move: no edge
        return {(key, True)}

    assert edges(dom, Fn({"n": 1, "flag": True}), flat, [key]) == []
    assert edges(Domain("A", None, (Fn({"n": 1}),)), Fn({"n": 1}), walk, [key]) == []
