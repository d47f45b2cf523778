"""Golden traces and their expected verdicts.

``traces/verdicts.json`` maps each trace's path relative to ``traces/`` (with
``/`` separators) to ``{"verdict": V, "step": K, "conjunct": C}``: ``step`` is
the failing step (absent for ``conforms``), ``conjunct`` (optional) the source
text of one innermost failing part of the blame, matched as
:mod:`tlaconf.gate.conjunct` says (a failure without a blame matches no
conjunct).  Area owners write ``traces/<area>/expected.json`` keyed by file name
in the same shape; :func:`assemble` merges those into ``verdicts.json`` (a trace
that no ``expected.json`` lists is expected to conform).  A ``vacuous`` trace
never passes the gate: a golden trace without steps checks nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.files import missing, read_text, write_text
from tlaconf.gate.conjunct import conjunct_problem, first_leaf_text
from tlaconf.replay.result import VERDICTS, TraceResult
from tlaconf.replay.runner import TRACE_SUFFIX
from tlaconf.spec.lookup import default_dir
from tlaconf.values import strict_json

VERDICTS_FILE = "verdicts.json"
EXPECTED_FILE = "expected.json"


@dataclass(frozen=True, slots=True)
class Expectation:
    """What a golden trace must give."""

    verdict: str
    step: int | None = None
    conjunct: str | None = None

    def __str__(self) -> str:
        return self.verdict if self.step is None else f"{self.verdict} @ step {self.step}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict}
        if self.step is not None:
            out["step"] = self.step
        if self.conjunct is not None:
            out["conjunct"] = self.conjunct
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str) -> Expectation:
        if not isinstance(obj, dict) or obj.get("verdict") not in VERDICTS:
            raise UserError(f'{where}: expected {{"verdict": one of {", ".join(VERDICTS)}, ...}}')
        unknown = set(obj) - {"verdict", "step", "conjunct"}
        if unknown:
            raise UserError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        step, conjunct = obj.get("step"), obj.get("conjunct")
        if step is not None and (type(step) is not int or step < 0):
            raise UserError(f"{where}: step must be a non-negative integer")
        if conjunct is not None and not isinstance(conjunct, str):
            raise UserError(f"{where}: conjunct must be a string")
        if conjunct is not None and obj["verdict"] == "conforms":
            raise UserError(f"{where}: a conforming trace blames no conjunct; drop 'conjunct'")
        return cls(obj["verdict"], step, conjunct)

    @classmethod
    def of(cls, result: TraceResult, conjunct: str | None = None) -> Expectation:
        """The expectation ``result`` meets (``conjunct`` kept when it still matches)."""
        if result.verdict == "conforms" or result.failure is None:
            return cls(result.verdict)
        if conjunct is None or conjunct_problem(result.failure, conjunct) is not None:
            conjunct = first_leaf_text(result.failure)
        return cls(result.verdict, result.failure.step, conjunct)


@dataclass(frozen=True, slots=True)
class Difference:
    """A golden trace whose result is not what ``verdicts.json`` says."""

    path: str
    expected: str
    actual: str
    note: str


def default_traces_dir() -> Path:
    """``./traces`` if present, else the checkout's ``traces/``."""
    return default_dir("traces", "--traces DIR")


def read_json(path: Path) -> Any:
    """The JSON document in ``path``; UserError (with the line of a duplicate key) if bad."""
    text = read_text(path, "JSON file")
    try:
        return strict_json.loads(text)
    except strict_json.TooDeep as err:
        raise UserError(str(err), f"{path}:{err.line}:{err.col}") from None
    except RecursionError:
        raise UserError(f"{path}: JSON nested too deeply") from None
    except strict_json.DuplicateKeyError as err:
        raise UserError(f"duplicate key {err.key!r}", f"{path}:{err.line}") from None
    except json.JSONDecodeError as err:
        raise UserError(f"invalid JSON: {err.msg}", f"{path}:{err.lineno}:{err.colno}") from None
    except ValueError as err:
        raise UserError(f"{path}: invalid JSON: {err}") from None


def load_verdicts(path: Path) -> dict[str, Expectation]:
    """Read a ``verdicts.json`` (or an area's ``expected.json``)."""
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise UserError(f"{path}: expected a JSON object keyed by trace path")
    return {key: Expectation.from_json(val, f"{path}: {key}") for key, val in doc.items()}


def write_verdicts(path: Path, verdicts: Mapping[str, Expectation]) -> None:
    """Write ``verdicts.json`` (sorted keys, stable diffs)."""
    doc = {key: verdicts[key].to_json() for key in sorted(verdicts)}
    write_text(path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n", "verdicts")


def relative_key(root: Path, trace: Path | str) -> str:
    """The ``verdicts.json`` key of ``trace``: its path relative to ``root``, with ``/``."""
    return Path(trace).resolve().relative_to(root.resolve()).as_posix()


def golden_traces(root: Path) -> list[Path]:
    """Every ``*.trace.jsonl`` under ``root``, sorted; UserError for one that is (or is
    reached through) a symbolic link leading outside ``root``: the corpus checked and
    recorded is the one under ``root``, nothing else."""
    inside = root.resolve()
    paths = sorted(root.rglob(f"*{TRACE_SUFFIX}"))
    linked_dirs = [Path(top) / d for top, dirs, _ in os.walk(root) for d in dirs
                   if (Path(top) / d).is_symlink()]
    for path in [*paths, *linked_dirs]:
        if not path.exists():
            what = "folder" if path in linked_dirs else "golden trace"
            raise UserError(f"{what} {path} {missing(path)}")
        target = path.resolve()
        if not target.is_relative_to(inside):
            what = "folder" if path.is_dir() else "golden trace"
            raise UserError(f"{what} {path} is a symbolic link to {target}, outside "
                            f"the traces directory {root}: a golden corpus must hold its "
                            "traces (copy them in instead)")
    return paths


def assemble(root: Path) -> dict[str, Expectation]:
    """``verdicts.json`` from the areas' ``expected.json`` files; unlisted traces conform."""
    verdicts = {relative_key(root, p): Expectation("conforms") for p in golden_traces(root)}
    for expected in sorted(root.rglob(EXPECTED_FILE)):
        area = expected.parent
        for name, exp in load_verdicts(expected).items():
            key = relative_key(root, area / name)
            if key not in verdicts:
                raise UserError(f"{expected}: {name} is not a trace under {area}")
            verdicts[key] = exp
    return verdicts


def matches(result: TraceResult, expected: Expectation) -> str | None:
    """None when ``result`` meets ``expected``, else what differs."""
    if result.verdict == "vacuous":
        return "vacuous: a golden trace without steps checks nothing"
    if result.verdict != expected.verdict:
        return "verdict differs"
    if result.verdict == "conforms" or result.failure is None:
        return None
    if expected.step is not None and result.failure.step != expected.step:
        return "failing step differs"
    if expected.conjunct is not None:
        return conjunct_problem(result.failure, expected.conjunct)
    return None


def decisive(results: Sequence[TraceResult]) -> bool:
    """Whether some trace reached ``conforms`` or ``violation`` (a corpus of errors and
    vacuous traces checks nothing, so it never passes and is never recorded)."""
    return any(r.verdict in ("conforms", "violation") for r in results)


def _actual(result: TraceResult) -> str:
    if result.failure is None or result.verdict == "conforms":
        return result.verdict
    return f"{result.verdict} @ step {result.failure.step}"


def compare(
    root: Path, results: Sequence[TraceResult], expected: Mapping[str, Expectation]
) -> list[Difference]:
    """Every difference between ``results`` (of the traces under ``root``) and ``expected``."""
    diffs: list[Difference] = []
    seen: set[str] = set()
    for r in results:
        key = relative_key(root, r.path)
        seen.add(key)
        exp = expected.get(key)
        if exp is None:
            diffs.append(Difference(key, "(not in verdicts.json)", _actual(r), "new trace"))
            continue
        note = matches(r, exp)
        if note is not None:
            diffs.append(Difference(key, str(exp), _actual(r), note))
    for key in sorted(set(expected) - seen):
        diffs.append(Difference(key, str(expected[key]), "(no such trace)", "trace missing"))
    return diffs


def updated_verdicts(
    root: Path, results: Sequence[TraceResult], old: Mapping[str, Expectation]
) -> dict[str, Expectation]:
    """The verdicts ``results`` give, keeping each old ``conjunct`` that still matches."""
    new: dict[str, Expectation] = {}
    for r in results:
        key = relative_key(root, r.path)
        prev = old.get(key)
        new[key] = Expectation.of(r, None if prev is None else prev.conjunct)
    return new


def _json_object(path: Path) -> dict[str, Any]:
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise UserError(f"{path}: expected a JSON object keyed by trace path")
    return doc


def expectation_for(trace: Path, stop: Path | None = None) -> Expectation:
    """The expected result of ``trace`` (see the module docstring); ``stop``: highest folder."""
    trace = trace.resolve()
    beside = trace.parent / EXPECTED_FILE
    if beside.is_file():
        entry = _json_object(beside).get(trace.name)
        if entry is not None:
            return Expectation.from_json(entry, f"{beside}: {trace.name}")
    top = stop.resolve() if stop is not None else None
    for folder in trace.parents:
        verdicts = folder / VERDICTS_FILE
        if verdicts.is_file():
            key = trace.relative_to(folder).as_posix()
            entry = _json_object(verdicts).get(key)
            if entry is not None:
                return Expectation.from_json(entry, f"{verdicts}: {key}")
        if folder == top:
            break
    return Expectation("conforms")
