"""What the golden-trace gate decides, as a library: the CLI and the pytest plugin only
format it.

:func:`gate_corpus` finds the corpus and its recorded verdicts (bad input otherwise);
:func:`decide_gate` takes the replay results and says what the run answers:

- ``undecided``: some trace could not be decided (an internal error, or an external
  checker that failed or disagreed): nothing is compared, nothing is recorded (exit 4
  for an internal error, else 3);
- ``checks-nothing``: no trace reached ``conforms`` or ``violation``; with ``update``
  nothing is written (exit 1: a corpus that checks nothing is not a pass);
- ``updated``: ``update`` and the run decided: the new verdicts (the caller writes them);
- ``compared``: the verdict changes against the recorded verdicts (and, without a
  revision, the differences per trace); exit 1 on any, else 0 (or 1 under ``strict``
  with a warning).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tlaconf.errors import ExitCode, UserError
from tlaconf.gate.changes import VerdictChanges, verdict_changes
from tlaconf.gate.golden import (
    VERDICTS_FILE,
    Difference,
    Expectation,
    compare,
    decisive,
    golden_traces,
    load_verdicts,
    updated_verdicts,
)
from tlaconf.replay.result import TraceResult, warnings

GateKind = Literal["undecided", "checks-nothing", "updated", "compared"]


@dataclass(frozen=True)
class GateCorpus:
    """The golden traces under ``root`` and the verdicts recorded for them."""

    root: Path
    paths: list[Path]
    recorded: dict[str, Expectation]

    @property
    def verdicts_path(self) -> Path:
        return self.root / VERDICTS_FILE


@dataclass(frozen=True)
class GateOutcome:
    """What one gate run answers (see the module docstring for ``kind``)."""

    kind: GateKind
    code: ExitCode
    message: str
    undecided: list[TraceResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    new_verdicts: dict[str, Expectation] | None = None
    updated: list[str] = field(default_factory=list)
    """Keys whose recorded verdict ``new_verdicts`` changes (``updated`` runs)."""
    changes: VerdictChanges | None = None
    differences: list[Difference] = field(default_factory=list)


def gate_corpus(root: Path, update: bool) -> GateCorpus:
    """The corpus under ``root``; UserError when there are no golden traces, or no
    ``verdicts.json`` and no ``update`` to write one."""
    paths = golden_traces(root)
    if not paths:
        raise UserError(f"no golden traces (*.trace.jsonl) under {root}")
    verdicts = root / VERDICTS_FILE
    if not verdicts.exists() and not update:
        raise UserError(
            f"{verdicts} does not exist: write it with 'tlaconf gate --assemble' (from the "
            "areas' expected.json) or 'tlaconf gate --update' (from this run)"
        )
    return GateCorpus(root, paths, load_verdicts(verdicts) if verdicts.exists() else {})


def decide_gate(corpus: GateCorpus, results: list[TraceResult], *, update: bool = False,
                revision: str | None = None, strict: bool = False) -> GateOutcome:
    """What the replay ``results`` of ``corpus`` answer."""
    undecided = [r for r in results if r.internal_error or r.undecided]
    if undecided:
        bug = any(r.internal_error for r in undecided)
        return GateOutcome(
            "undecided", ExitCode.INTERNAL_ERROR if bug else ExitCode.UNDECIDED,
            f"gate: {len(undecided)} trace(s) undecided (an internal error, or an external "
            "checker that failed or disagreed); nothing compared", undecided=undecided)
    found = warnings(results)
    if not decisive(results):
        return GateOutcome(
            "checks-nothing", ExitCode.NONCONFORMING,
            f"gate: none of the {len(results)} golden traces under {corpus.root} reached "
            "conforms or violation: the corpus checks nothing"
            + (f"; {corpus.verdicts_path} was not written" if update else ""), warnings=found)
    if update:
        new = updated_verdicts(corpus.root, results, corpus.recorded)
        old = corpus.recorded
        changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        return GateOutcome(
            "updated", ExitCode.OK,
            f"wrote {corpus.verdicts_path}: {len(new)} traces, {len(changed)} changed",
            warnings=found, new_verdicts=new, updated=changed)
    changes = verdict_changes(corpus.root, results, corpus.recorded, revision)
    diffs = [] if revision is not None else compare(corpus.root, results, corpus.recorded)
    differs = bool(changes.changes) or bool(diffs)
    code = (ExitCode.NONCONFORMING if differs or (strict and found) else ExitCode.OK)
    message = (f"gate: {len(results)} golden traces, {len(diffs)} difference(s)" if diffs
               else f"gate: {len(results)} golden traces, all as expected")
    return GateOutcome("compared", code, message, warnings=found, changes=changes,
                       differences=diffs)
