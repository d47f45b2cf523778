"""Test helpers: trace writing, the test spec, and a Python backend for it.

``PyBackend`` implements the backend Protocol for the test module
``spec/conformance/Counter.tla`` in plain Python, so the engine's semantics are
tested independently of the evaluator (the CLI loads it with
``--backend tests.replay.counter_backend:PyBackend``); every such test also runs with
the ``embedded`` backend (the real evaluator).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.replay import BlameNode
from tlaconf.replay.result import strict_equal
from tlaconf.spec import ModuleSpec
from tlaconf.trace.writer import TraceWriter
from tlaconf.values import Fn, make_fn, record, to_tla

SPEC = Path(__file__).parent / "spec"
BACKEND = "tests.replay.counter_backend"
"""This module, for ``--backend BACKEND:PyBackend``."""
SCENARIOS = "tests.replay.counter_scenarios"
"""The test scenarios, for ``--scenarios``."""

Step = tuple[str | None, dict[str, Any] | None, str, dict[str, Any]]
"""``(action, params, outcome, state)``; action and params None for a step without a label."""


def write_trace(
    path: Path,
    initial: dict[str, Any] | None,
    steps: Sequence[Step] = (),
    module: str = "Counter",
    revision: str = "1",
    constants: dict[str, Any] | None = None,
) -> Path:
    """A trace file: header, initial state (unless None), then ``(action, params, outcome,
    state)`` steps."""
    with TraceWriter(path, module, revision, constants or {}, {"test": True}) as w:
        if initial is not None:
            w.init(initial)
        for action, params, outcome, state in steps:
            if action is None:
                w.unlabeled_step(state, outcome)  # type: ignore[arg-type]
            else:
                w.step(action, params or {}, outcome, state)  # type: ignore[arg-type]
    return path


def state(count: int, **tally: int) -> dict[str, Any]:
    """A Counter state."""
    return {"count": count, "tally": dict(tally or {"a": 0, "b": 0})}


def _field(p: Any, name: str) -> Any:
    if type(p) is not Fn or name not in p:
        raise UserError(f"the record {to_tla(p)} has no field {name!r}")
    return p[name]


_ASSIGNMENTS = {
    ("Inc", "count"): ("count' = Add(count, p.by)", 9),
    ("Inc", "tally"): ("tally' = [tally EXCEPT ![p.who] = @ + p.by]", 10),
    ("Reset", "count"): ("count' = 0", 14),
    ("Reset", "tally"): ("tally' = [w \\in DOMAIN tally |-> 0]", 15),
}
"""The source text and line of each assignment conjunct of Counter.tla."""


class CounterModule:
    """Counter.tla in Python (Inc, Reset, Bounded)."""

    variables = ("count", "tally")
    actions = ("Inc", "Reset")

    def __init__(self, spec: ModuleSpec) -> None:
        self.name = spec.name
        self.file = str(spec.path)
        self.limit = spec.constants["Limit"]

    def _next(self, action: str, p: Any, s: Any) -> tuple[dict[str, Any] | None, BlameNode]:
        if action == "Inc":
            by = _field(p, "by")
            guard = BlameNode("p.by > 0", "is FALSE", self.file, 8, 8, 8, 15, (("p", to_tla(p)),))
            if not by > 0:
                return None, guard
            who = _field(p, "who")
            tally = s["tally"].as_dict()
            tally[who] = tally[who] + by
            return {"count": s["count"] + by, "tally": make_fn(tally)}, guard
        at_least = _field(p, "atLeast")
        guard = BlameNode(
            "count >= p.atLeast", "is FALSE", self.file, 13, 8, 13, 25,
            (("count", to_tla(s["count"])), ("p", to_tla(p))),
        )  # fmt: skip
        if not s["count"] >= at_least:
            return None, guard
        return {"count": 0, "tally": make_fn(dict.fromkeys(s["tally"], 0))}, guard

    def check_action(self, action: str, params: Any, s: Any, t: Any) -> BlameNode | None:
        succ, guard = self._next(action, params, s)
        if succ is None:
            return BlameNode(f"{action}(p)", "is FALSE", children=(guard,))
        for var in self.variables:
            if not strict_equal(succ[var], t[var]):
                text, line = _ASSIGNMENTS[action, var]
                leaf = BlameNode(text, "is FALSE", self.file, line, 8, line, 8 + len(text),
                                 ((f"{var}'", to_tla(t[var])),))  # fmt: skip
                return BlameNode(f"{action}(p)", "is FALSE", children=(leaf,))
        return None

    def enabled(self, action: str, params: Any, s: Any) -> bool:
        return self._next(action, params, s)[0] is not None

    def start_trace(self) -> None:
        """Counter keeps nothing between traces."""

    has_next = True

    def check_next(self, s: Any, t: Any) -> BlameNode | None:
        """Some ``Inc`` (by 1..Limit) or ``Reset(atLeast = 0)`` leads from s to t."""
        steps = [("Inc", record(who=w, by=b)) for w in s["tally"] for b in range(1, self.limit + 1)]
        for action, p in [*steps, ("Reset", record(atLeast=0))]:
            if self.check_action(action, p, s, t) is None:
                return None
        return BlameNode("Next", "is FALSE", self.file, 20, 1, 22, 29)

    def check_invariant(self, name: str, s: Any) -> BlameNode | None:
        if s["count"] <= self.limit:
            return None
        return BlameNode("count <= Limit", "is FALSE", self.file, 17, 12, 17, 25,
                         (("count", str(s["count"])), ("Limit", str(self.limit))))  # fmt: skip


class PyBackend:
    name = "py-counter"

    def load(self, spec: ModuleSpec) -> CounterModule:
        if spec.name != "Counter":
            raise UserError(f"PyBackend only knows Counter, not {spec.name}")
        return CounterModule(spec)




class BuggyModule(CounterModule):
    """Counter with a bug in the checker itself: every action check raises."""

    def check_action(self, action: str, params: Any, s: Any, t: Any) -> BlameNode | None:
        raise ZeroDivisionError("a bug in the backend")


class BuggyBackend(PyBackend):
    """A backend with a bug (``--backend tests.replay.counter_backend:BuggyBackend``):
    internal errors."""

    name = "buggy-counter"

    def load(self, spec: ModuleSpec) -> CounterModule:
        return BuggyModule(spec)
