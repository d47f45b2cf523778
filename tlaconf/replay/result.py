"""What replaying one trace yields: a verdict, and for a failure the step, reason and blame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from tlaconf.errors import ExitCode
from tlaconf.values import Fn, encode, sort_key, to_tla

Verdict = Literal["conforms", "violation", "vacuous", "error", "crash"]
VERDICTS: tuple[Verdict, ...] = ("conforms", "violation", "vacuous", "error", "crash")
"""``crash``: the implementation under test raised while ``tlaconf check`` ran it."""


class _SpanLike(Protocol):
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_col(self) -> int: ...


class BlameLike(Protocol):
    """The shape of the evaluator's ``Blame`` (duck-typed, so replay does not import it)."""

    @property
    def text(self) -> str: ...
    @property
    def span(self) -> _SpanLike: ...
    @property
    def reason(self) -> str: ...
    @property
    def bindings(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def children(self) -> tuple[Any, ...]: ...


def display_path(file: str) -> str:
    """``file`` relative to the working directory when it lies below it, else as given."""
    path = Path(file)
    if not path.is_absolute():
        return file
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return file


@dataclass(frozen=True, slots=True)
class BlameNode:
    """One node of a blame tree: a sub-formula, where it is, why it failed, the values it used.

    ``file`` is empty and ``line`` 0 when a backend cannot locate the formula.
    """

    text: str
    reason: str
    file: str = ""
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0
    bindings: tuple[tuple[str, str], ...] = ()
    children: tuple[BlameNode, ...] = ()

    @classmethod
    def from_blame(cls, blame: BlameLike) -> BlameNode:
        """Copy an evaluator ``Blame`` tree (plain data: picklable, JSON-ready)."""
        span = blame.span
        return cls(
            text=blame.text,
            reason=blame.reason,
            file=display_path(str(span.file)),
            line=span.line,
            col=span.col,
            end_line=span.end_line,
            end_col=span.end_col,
            bindings=tuple((str(n), str(v)) for n, v in blame.bindings),
            children=tuple(cls.from_blame(c) for c in blame.children),
        )

    @property
    def location(self) -> str:
        """``file:line:col``, or ``""`` when unknown."""
        return f"{self.file}:{self.line}:{self.col}" if self.file and self.line else ""

    def innermost(self) -> BlameNode:
        """Follow the first child down to a leaf."""
        node = self
        while node.children:
            node = node.children[0]
        return node

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "reason": self.reason,
            "location": self.location or None,
            "bindings": dict(self.bindings),
            "children": [c.to_json() for c in self.children],
        }

    def lines(self, indent: str = "") -> list[str]:
        """The tree as indented plain-text lines (JUnit failure text, plain reports)."""
        where = f"  [{self.location}]" if self.location else ""
        out = [f"{indent}{self.text}  -- {self.reason}{where}"]
        out += [f"{indent}    {name} = {value}" for name, value in self.bindings]
        for child in self.children:
            out += child.lines(indent + "  ")
        return out


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between two states: ``path`` is ``var`` or ``var[key]``; None = absent."""

    path: str
    before: str | None
    after: str | None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "before": self.before, "after": self.after}


@dataclass(frozen=True, slots=True)
class Witness:
    """For a rejected step the specification allows: a successor it allows from ``s``
    (``diff`` against ``s``) and the source text of the action's guards, which held."""

    diff: tuple[Change, ...]
    guards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"diff": [c.to_json() for c in self.diff], "guards": list(self.guards)}


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a trace did not conform (or could not be checked).

    ``step`` is 0 for the initial state and k for the k-th step line; ``line`` is
    the 1-based line of the trace file.  ``diff`` lists what changed from s to s'.
    ``traceback`` is the file holding the traceback of a ``crash`` or of an internal
    error (a bug in tlaconf: an ``error`` verdict with a traceback).  ``witness``: for a
    rejected step the specification allows, a successor it allows and the guards that held.
    """

    step: int
    line: int
    reason: str
    action: str | None = None
    params: Any = None
    blame: BlameNode | None = None
    diff: tuple[Change, ...] = ()
    traceback: str | None = None
    witness: Witness | None = None

    @property
    def call(self) -> str | None:
        """``Move([id |-> 11, ...])``: the action applied to its params, in TLA+ syntax.

        ``Next`` alone for a step without an action label (its params are None).
        """
        if self.action is None or self.params is None:
            return self.action
        return f"{self.action}({to_tla(self.params)})"

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "line": self.line,
            "action": self.action,
            "params": None if self.params is None else encode(self.params),
            "reason": self.reason,
            "blame": None if self.blame is None else self.blame.to_json(),
            "diff": [c.to_json() for c in self.diff],
            **({} if self.traceback is None else {"traceback": self.traceback}),
            **({} if self.witness is None else {"witness": self.witness.to_json()}),
        }


@dataclass(frozen=True, slots=True)
class TraceResult:
    """The outcome of replaying one trace; ``steps`` counts the step lines replayed;
    ``invariants`` names the module's invariants checked in every state (None when the
    module could not be loaded); ``undecided``: an ``error`` because an external checker
    failed, gave no answer or disagreed with the embedded evaluator (exit 3), not
    because of bad input; ``states``: the states seen (a full trace's states read, the
    initial one included; the distinct states a partial trace's search kept)."""

    path: str
    module: str | None
    verdict: Verdict
    steps: int
    failure: Failure | None
    seconds: float = 0.0
    invariants: tuple[str, ...] | None = None
    undecided: bool = False
    states: int = 0

    def to_json(self) -> dict[str, Any]:
        out = {
            "path": self.path,
            "module": self.module,
            "verdict": self.verdict,
            "steps": self.steps,
            "failure": None if self.failure is None else self.failure.to_json(),
        }
        if self.undecided:
            out["undecided"] = True
        return out

    @property
    def internal_error(self) -> bool:
        """An ``error`` caused by a bug in tlaconf (not by the trace or the spec)."""
        return (
            self.verdict == "error" and self.failure is not None
            and self.failure.traceback is not None
        )


def exit_code(results: Sequence[TraceResult], strict: bool = False) -> ExitCode:
    """INTERNAL_ERROR when tlaconf hit a bug on some trace, else UNDECIDED when a checker
    could not decide a trace, else BAD_INPUT when any trace could not be checked, else
    NONCONFORMING when any did not conform (or the implementation crashed, or, with
    ``strict``, the run has a warning), else OK."""
    if any(r.internal_error for r in results):
        return ExitCode.INTERNAL_ERROR
    if any(r.undecided for r in results):
        return ExitCode.UNDECIDED
    verdicts = {r.verdict for r in results}
    if "error" in verdicts:
        return ExitCode.BAD_INPUT
    if verdicts - {"conforms"}:
        return ExitCode.NONCONFORMING
    if strict and warnings(results):
        return ExitCode.NONCONFORMING
    return ExitCode.OK


def invariant_names(results: Sequence[TraceResult]) -> dict[str, tuple[str, ...]]:
    """The invariants checked in every state, per module that loaded (sorted)."""
    names = {r.module: r.invariants for r in results
             if r.module is not None and r.invariants is not None}  # fmt: skip
    return dict(sorted(names.items()))


def invariant_counts(results: Sequence[TraceResult]) -> dict[str, int]:
    """How many invariants were checked in every state, per module that loaded (sorted)."""
    return {m: len(found) for m, found in invariant_names(results).items()}


def warnings(results: Sequence[TraceResult]) -> list[str]:
    """What the run did not check although a reader might assume it did."""
    return [
        f"module {module} has no invariants (no INVARIANT in its .cfg, or no .cfg): "
        "its states were not checked, only its steps"
        for module, n in invariant_counts(results).items() if n == 0
    ]


def state_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[Change, ...]:
    """The variables (and, for functions, the keys) whose values differ between two states."""
    changes: list[Change] = []
    for var in sorted(set(before) | set(after)):
        if var not in after or var not in before:
            old, new = before.get(var), after.get(var)
            changes.append(Change(var, _show(old), _show(new)))
            continue
        old, new = before[var], after[var]
        if strict_equal(old, new):
            continue
        if _is_function(old) and _is_function(new):
            keys = set(_items(old)) | set(_items(new))
            old_items, new_items = _items(old), _items(new)
            for key in sorted(keys, key=_key_order):
                a, b = old_items.get(key, _ABSENT), new_items.get(key, _ABSENT)
                if a is _ABSENT or b is _ABSENT or not strict_equal(a, b):
                    changes.append(Change(f"{var}[{to_tla(key)}]", _show(a), _show(b)))
        else:
            changes.append(Change(var, to_tla(old), to_tla(new)))
    return tuple(changes)


_ABSENT: Any = object()


def _show(v: Any) -> str | None:
    return None if v is None or v is _ABSENT else to_tla(v)


def _is_function(v: Any) -> bool:
    return type(v) is Fn or (type(v) is tuple and len(v) > 0)


def _items(v: Any) -> dict[Any, Any]:
    return dict(v.items()) if type(v) is Fn else {i + 1: x for i, x in enumerate(v)}


def _key_order(k: Any) -> tuple[int, str]:
    return (0, f"{k:020d}") if type(k) is int and k >= 0 else (1, to_tla(k))


def strict_equal(a: Any, b: Any) -> bool:
    """TLA+ equality of two values (Python's ``==`` but never ``TRUE = 1``)."""
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is bool or ta is int or ta is str:
        return bool(a == b)
    if ta is frozenset:
        return bool(a == b) and (not a or sort_key(a) == sort_key(b))
    if ta is tuple:
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b, strict=True))
    if ta is Fn:
        return len(a) == len(b) and all(k in b and strict_equal(a[k], b[k]) for k in a)
    return bool(a == b)
