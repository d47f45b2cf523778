"""The gate's power against a change: does some golden trace tell two definitions apart?

For a definition that changed between two spec trees, a **hybrid** tree is the
old tree with only that definition replaced by its new text.  Each golden trace
whose module uses the definition is checked step by step, to the end (not only
to the first failure), against the old tree and against the hybrid: the
initial state's invariants, then for every step the action (``A(p)`` for an
accepted step; ``s' = s`` and ``~ENABLED A(p)`` for a rejected one) and the
invariants after it.  The first step whose outcome differs tells the two
definitions apart; when no trace has one, the gate cannot see the change.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.gate.diff_spec import Key, SpecTree
from tlaconf.replay.backend import Backend, LoadedModule, State
from tlaconf.replay.engine import ModuleCache
from tlaconf.replay.result import state_diff
from tlaconf.spec import module_spec
from tlaconf.spec.module_spec import NEXT
from tlaconf.trace.partial import is_partial
from tlaconf.trace.reader import open_trace


@dataclass(frozen=True)
class Power:
    """Whether a golden trace tells the old and new definition of ``key`` apart."""

    key: Key
    trace: str | None = None
    step: int | None = None
    old: str = ""
    new: str = ""
    note: str = ""
    """Why it could not be decided (the hybrid does not load), else empty."""

    @property
    def told_apart(self) -> bool:
        return self.trace is not None

    def to_json(self) -> dict[str, object]:
        return {
            "module": self.key[0], "operator": self.key[1], "told_apart": self.told_apart,
            "trace": self.trace, "step": self.step, "old": self.old or None,
            "new": self.new or None, "note": self.note or None,
        }  # fmt: skip


def step_outcomes(
    path: Path, spec_dir: Path, backend: Backend, revision: str | None,
    modules: ModuleCache | None = None,
) -> Iterator[str]:
    """The outcome of every check of the trace, in order: ``invariants TRUE`` for the initial
    state, then ``A(p) TRUE; invariants TRUE`` (accepted; ``Next`` for a step without an
    action label) or ``ENABLED A(p) FALSE`` (rejected, ``s' # s`` when the state changed)
    per step, or the error that stopped a check.  ``modules``: loads to share between
    calls."""
    with open_trace(path) as trace:
        spec = module_spec(
            spec_dir, trace.header.module, revision or trace.header.revision,
            trace.header.constants,
        )  # fmt: skip
        mod = (modules or ModuleCache()).load(backend, spec)
        mod.start_trace()

        def invariants(state: State) -> str:
            try:
                failed = [i for i in spec.invariants if mod.check_invariant(i, state) is not None]
            except UserError as err:
                return f"invariants: error: {err.message}"
            return f"invariants FALSE ({', '.join(failed)})" if failed else "invariants TRUE"

        before = trace.initial
        yield invariants(before)
        for step in trace.steps():
            after = step.state
            try:
                yield _outcome(mod, step.action, step.params, step.outcome, before, after,
                               invariants)  # fmt: skip
            except UserError as err:
                yield f"error: {err.message}"
            before = after


def _outcome(
    mod: LoadedModule, action: str | None, params: Any, outcome: str, before: State,
    after: State, invariants: Callable[[State], str],
) -> str:  # fmt: skip
    """One step's outcome (see :func:`step_outcomes`)."""
    if outcome == "accepted":
        if action is None:
            ok = mod.has_next and mod.check_next(before, after) is None
            return f"{NEXT} {str(ok).upper()}; {invariants(after)}"
        ok = mod.check_action(action, params, before, after) is None
        return f"{action}(p) {str(ok).upper()}; {invariants(after)}"
    if state_diff(before, after):
        return "s' # s"
    if action is None:
        return "stuttering"
    return f"ENABLED {action}(p) {str(mod.enabled(action, params, before)).upper()}"


def _hybrid_text(old: SpecTree, new: SpecTree, key: Key) -> str:
    """The old module's text with the definition ``key`` replaced by the new one's text."""
    path, name = key
    old_def, new_def = old.modules[path].definitions()[name], new.modules[path].definitions()[name]
    old_lines = old.paths[path].read_text(encoding="utf-8").split("\n")
    new_lines = new.paths[path].read_text(encoding="utf-8").split("\n")
    piece = new_lines[new_def.span.line - 1 : new_def.span.end_line]
    piece[-1] = piece[-1][: new_def.span.end_col]
    tail = old_lines[old_def.span.end_line - 1][old_def.span.end_col :]
    head = old_lines[old_def.span.line - 1][: old_def.span.col - 1]
    lines = [*old_lines[: old_def.span.line - 1], head + piece[0], *piece[1:]]
    lines[-1] += tail
    return "\n".join(lines + old_lines[old_def.span.end_line :])


def _copy_view(old: SpecTree, into: Path) -> None:
    """Copy what the old side sees (its tree, or its revision's view) into ``into``."""
    for folder in ("conformance", "tcs"):
        if (old.root / folder).is_dir():
            shutil.copytree(old.root / folder, into / folder)
    profile = old.root / "reference-profile"
    revs = [profile / f"rev{old.revision}"] if old.revision else sorted(profile.glob("rev*"))
    for rev in revs:
        if rev.is_dir():
            shutil.copytree(rev, into / "reference-profile" / rev.name)


def gate_power(
    old: SpecTree,
    new: SpecTree,
    keys: Sequence[Key],
    traces: dict[Key, list[Path]],
    backend: Backend,
) -> list[Power]:
    """For each changed definition, the first golden trace step that tells old and new apart."""
    revision = old.revision
    baseline: dict[Path, list[str]] = {}
    modules = ModuleCache()
    out: list[Power] = []
    for key in keys:
        path, name = key
        if old.modules[path].definitions()[name] == new.modules[path].definitions()[name]:
            out.append(Power(key, note="the definition is the same; its module's EXTENDS, "
                             "CONSTANTS or VARIABLES changed"))  # fmt: skip
            continue
        with tempfile.TemporaryDirectory(prefix="tlaconf-power-") as tmp:
            hybrid = Path(tmp)
            _copy_view(old, hybrid)
            rel = old.paths[key[0]].relative_to(old.root)
            (hybrid / rel).write_text(_hybrid_text(old, new, key), encoding="utf-8")
            out.append(_power(key, traces.get(key, []), old.root, hybrid, backend, revision,
                              baseline, modules))  # fmt: skip
    return out


def _power(
    key: Key, paths: list[Path], old_root: Path, hybrid: Path, backend: Backend,
    revision: str | None, baseline: dict[Path, list[str]], modules: ModuleCache,
) -> Power:  # fmt: skip
    for path in paths:
        if is_partial(path):  # no step-by-step outcome to compare: a search decides it
            continue
        try:
            if path not in baseline:
                baseline[path] = list(step_outcomes(path, old_root, backend, revision,
                                                    modules))
            for step, (before, after) in enumerate(
                zip(baseline[path], step_outcomes(path, hybrid, backend, revision, modules),
                    strict=False)
            ):
                if before != after:
                    return Power(key, str(path), step, before, after)
        except UserError as err:
            return Power(key, note=f"{path}: cannot check: {err.message}")
    return Power(key)
