"""The gate's verdict-change table: how a run's results differ from ``verdicts.json``.

Every golden trace falls in one row kind:

* ``newly violates``: expected to conform (or to fail otherwise), now a
  violation or vacuous, with the failing step, action and blamed conjunct;
* ``newly conforms``: expected to fail, now conforms;
* ``violates differently``: still a violation, at another step or blaming
  another conjunct;
* ``error``: now cannot be checked (the reason names the trace line);
* ``new trace`` / ``missing``: not in ``verdicts.json`` / listed but absent;

or is **unchanged** (counted, not listed).  Any change makes the gate fail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias, get_args

from tlaconf.gate.conjunct import first_leaf_text
from tlaconf.gate.golden import Expectation, matches, relative_key
from tlaconf.replay.result import TraceResult

ChangeKind: TypeAlias = Literal[
    "newly violates", "newly conforms", "violates differently", "error", "new trace", "missing"
]  # fmt: skip
"""The row kinds of the table, in its order (the module docstring says what each means)."""

KINDS: tuple[ChangeKind, ...] = get_args(ChangeKind)


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """One golden trace whose result is not what ``verdicts.json`` says."""

    path: str
    kind: ChangeKind
    expected: str
    actual: str
    """The verdict now (its failing step is ``step``)."""
    step: int | None = None
    action: str | None = None
    conjunct: str | None = None
    reason: str = ""
    expected_conjunct: str | None = None
    """The conjunct ``verdicts.json`` says the blame must mention."""

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path, "change": self.kind, "expected": self.expected,
            "expected_conjunct": self.expected_conjunct, "actual": self.actual,
            "step": self.step, "action": self.action, "conjunct": self.conjunct,
            "reason": self.reason,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class VerdictChanges:
    """The changes of a gate run and how many traces are unchanged."""

    changes: tuple[VerdictChange, ...]
    unchanged: int
    revision: str | None

    def to_json(self) -> dict[str, Any]:
        counts = {kind: sum(c.kind == kind for c in self.changes) for kind in KINDS}
        return {
            "revision": self.revision,
            "traces": self.unchanged + sum(c.kind != "missing" for c in self.changes),
            "unchanged": self.unchanged,
            "counts": counts,
            "changes": [c.to_json() for c in self.changes],
        }


def _kind(result: TraceResult, expected: Expectation) -> ChangeKind:
    if result.verdict == "error":
        return "error"
    if result.verdict == "conforms":
        return "newly conforms"
    if expected.verdict == result.verdict:
        return "violates differently"
    return "newly violates"


def _change(key: str, result: TraceResult, expected: Expectation | None) -> VerdictChange:
    f = result.failure if result.verdict != "conforms" else None
    blame = first_leaf_text(f)  # as an expected.json "conjunct" would name it
    kind: ChangeKind = "new trace" if expected is None else _kind(result, expected)
    return VerdictChange(
        key, kind, "(not in verdicts.json)" if expected is None else str(expected),
        result.verdict, None if f is None else f.step, None if f is None else f.action,
        blame, "" if f is None else f.reason, None if expected is None else expected.conjunct,
    )  # fmt: skip


def verdict_changes(
    root: Path,
    results: Sequence[TraceResult],
    expected: Mapping[str, Expectation],
    revision: str | None = None,
) -> VerdictChanges:
    """Classify every result of the traces under ``root`` against ``expected``."""
    changes: list[VerdictChange] = []
    unchanged = 0
    seen: set[str] = set()
    for r in results:
        key = relative_key(root, r.path)
        seen.add(key)
        exp = expected.get(key)
        if exp is not None and matches(r, exp) is None:
            unchanged += 1
        else:
            changes.append(_change(key, r, exp))
    for key in sorted(set(expected) - seen):
        changes.append(VerdictChange(key, "missing", str(expected[key]), "(no such trace)"))
    order = {k: i for i, k in enumerate(KINDS)}
    changes.sort(key=lambda c: (order[c.kind], c.path))
    return VerdictChanges(tuple(changes), unchanged, revision)
