"""What a validation run found, as ``tlaconf validate`` prints it (text or ``--json``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tlaconf.evaluate import Blame
from tlaconf.values import encode


@dataclass(frozen=True)
class Branch:
    """A disjunct of the next-state relation (or of an ``ACTION_CONSTRAINT``) at a dead
    end: ``selected`` when its guards (the conjuncts before its first action) hold there,
    its blame from the relation down to it for the bindings that came nearest, and the
    successor tried (``step``, when an ``ACTION_CONSTRAINT`` was blamed on one)."""

    text: str
    location: str
    selected: bool
    blame: Blame
    progress: int
    step: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A spec state alive at the failing log entry, and the step that came nearest to
    explaining the entry from it (``None`` when it has no step to try); at a dead end,
    the branches diagnosed (:mod:`~tlaconf.validate.diagnosis`) and, when a successor
    satisfied every constraint but was dropped as already visited, ``revisited`` says
    so."""

    state: dict[str, Any]
    action: str | None
    blame: Blame | None
    progress: int
    branches: tuple[Branch, ...] = ()
    revisited: str | None = None
    log_line: str | None = None
    """``file:line`` of the log line the diagnosis read at this state, when found."""


@dataclass
class Outcome:
    """``result``: ``accepted``, ``rejected`` or ``undecided``."""

    module: str
    result: str = "accepted"
    reason: str | None = None
    distinct_states: int = 0
    depth: int = 0
    seconds: float = 0.0
    entries_checked: int = 0
    reads: list[tuple[str, int]] = field(default_factory=list)
    alive: list[int] = field(default_factory=list)
    """Candidate states at each level (index 0: the initial states)."""
    postcondition: str | None = None
    failing_entry: int | None = None
    """The log entry (1 = the first step) no behaviour explains."""
    log_line: str | None = None
    """``file:line`` of that entry, when it could be located in a log that was read."""
    candidates: list[Candidate] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    """Logged fields that no successor of any candidate agreed with (partial traces)."""
    unconstrained: dict[str, list[str]] = field(default_factory=dict)
    """Logged field -> the ``file:line`` of every log line where the spec never
    constrained it (on success; each is also a warning)."""
    warnings: list[str] = field(default_factory=list)
    invariants: list[str] | None = None
    """The invariants checked in every candidate state (None: not known here)."""

    @property
    def lines_read(self) -> int:
        return sum(n for _, n in self.reads)

    def exit_code(self, strict: bool) -> int:
        if self.result == "undecided":
            return 3
        if self.result == "rejected":
            return 1
        return 1 if strict and self.warnings else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "result": self.result,
            "reason": self.reason,
            "log": {"files": [{"path": p, "lines": n} for p, n in self.reads],
                    "lines_read": self.lines_read, "entries_checked": self.entries_checked},
            "distinct_states": self.distinct_states,
            "depth": self.depth,
            "seconds": round(self.seconds, 3),
            "max_candidates": max(self.alive, default=0),
            "candidates_per_entry": self.alive,
            "postcondition": self.postcondition,
            "failure": None if self.result == "accepted" else {
                "entry": self.failing_entry,
                "log_line": self.log_line,
                "unmatched_fields": self.unmatched,
                "candidates": [
                    {"state": {k: encode(v) for k, v in c.state.items()},
                     "nearest_action": c.action,
                     "blame": _blame_json(c.blame) if c.blame else None,
                     "branches": [_branch_json(b) for b in c.branches],
                     "revisited": c.revisited,
                     "log_line": c.log_line}
                    for c in self.candidates
                ],
            },
            "unconstrained_fields": self.unconstrained,
            "invariants": self.invariants,
            "warnings": self.warnings,
        }


def _branch_json(b: Branch) -> dict[str, Any]:
    return {"text": b.text, "location": b.location, "selected": b.selected,
            "progress": b.progress, "step": b.step, "blame": _blame_json(b.blame)}


def _blame_json(b: Blame) -> dict[str, Any]:
    return {"text": b.text, "location": str(b.span), "reason": b.reason,
            "values": dict(b.bindings), "children": [_blame_json(c) for c in b.children]}


def render(o: Outcome, branch: Callable[[Branch], str] | None = None) -> str:
    """The outcome as text for a terminal; ``branch`` renders a diagnosed branch (by
    default as an indented tree, each formula whole)."""
    head = f"{o.module}: {o.result}"
    if o.result != "accepted" and o.failing_entry is not None:
        head += f" at log entry {o.failing_entry}"
        if o.log_line:
            head += f" ({o.log_line})"
    lines = [head]
    if o.reason:
        lines.append(f"  {o.reason}")
    files = ", ".join(f"{p}: {n}" for p, n in o.reads) or "none read through Json"
    lines.append(f"  log: {o.lines_read} line(s) read ({files}); {o.entries_checked} "
                 f"entr{'y' if o.entries_checked == 1 else 'ies'} checked")
    lines.append(f"  search: {o.distinct_states} distinct states, depth {o.depth}, at most "
                 f"{max(o.alive, default=0)} candidate(s) per entry, {o.seconds:.2f} s")
    if o.invariants is not None:
        lines.append("  invariants checked in every state: "
                     + (", ".join(o.invariants) or "none (the module's .cfg lists none)"))
    for i, c in enumerate(o.candidates, 1):
        lines.append(f"  candidate {i} of {len(o.candidates)}"
                     + (f": nearest step {c.action}" if c.action else ": no step to try"))
        if c.revisited:
            lines.append(f"    {c.revisited}")
        if c.branches:
            lines += [(branch or _branch_text)(b) for b in c.branches]
        elif c.blame is not None:
            lines.append(c.blame.render(2))
    if o.unmatched:
        lines.append(f"  logged fields no successor agreed with: {', '.join(o.unmatched)}")
    if o.result != "accepted" and len(o.alive) > 1:
        tail = o.alive[-10:]
        lines.append(f"  candidates alive at the last {len(tail)} entries: "
                     + " ".join(map(str, tail)))
    lines += [f"  warning: {w}" for w in o.warnings]
    return "\n".join(lines)


def _branch_text(b: Branch) -> str:
    how = "its guards hold" if b.selected else "its guards do not all hold (nearest)"
    step = f", step tried: {b.step}" if b.step else ""
    return f"    branch {b.location}: {how}{step}\n      {b.text}\n{b.blame.render(3)}"
