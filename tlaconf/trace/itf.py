"""Lossless conversion between ``tlaconf-trace`` v1 files and ITF JSON files.

ITF is the Informal Trace Format of Apalache and Quint (Apalache ADR-015):
one JSON object ``{"#meta": {...}, "vars": [...], "states": [...]}`` whose
states map variable names to ITF values.  A trace becomes an ITF trace with
the Quint model-based-testing (MBT) conventions, one ITF state per trace line
from line 2 on:

``mbt::actionTaken``
    the step's action label; ``"init"`` in state 0 (the initial state).
``mbt::nondetPicks``
    the step's params as a record whose every field is the Quint ``Option``
    variant ``{"tag": "Some", "value": v}``; ``{}`` in state 0.  Reading, a
    ``{"tag": "None", ...}`` pick (Quint writes one for every nondeterministic
    choice the action did not make) is an absent param.
``tlaconf::outcome``
    ``"accepted"`` or ``"rejected"``; ``"init"`` in state 0.  Reading an ITF
    file without it (one Quint wrote), every step is ``"accepted"``.
``#meta.tlaconf::header``
    the trace header (line 1: format, version, module, revision, constants,
    meta) as it is in the trace.  Without it (an ITF file from elsewhere) the
    caller names the module and revision, and the ITF ``#meta`` is kept in
    the header's ``meta`` under ``"itf"``.

``vars`` lists the state variables (sorted) and then the three names above.
Converting a trace to ITF and back gives a byte-identical file for every trace
:class:`~tlaconf.trace.writer.TraceWriter` writes (its output is canonical);
any other valid trace comes back with the same values, canonically ordered.
Lasso traces (ITF ``loop``) have no counterpart and are refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from tlaconf.errors import UserError
from tlaconf.files import read_text, unreadable_path
from tlaconf.trace.models import StateLine, StepLine, TraceHeader, json_kind
from tlaconf.trace.reader import MAX_LINE_BYTES, describe_validation_error, open_trace
from tlaconf.trace.writer import TraceWriter
from tlaconf.values import Fn, encode

ACTION_TAKEN = "mbt::actionTaken"
NONDET_PICKS = "mbt::nondetPicks"
OUTCOME = "tlaconf::outcome"
HEADER = "tlaconf::header"
INIT = "init"
ITF_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
_RESERVED_PREFIXES = ("mbt::", "tlaconf::", "#")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def is_trace_file(path: Path) -> bool:
    """Whether ``path`` holds a ``tlaconf-trace`` file (its first line says so), not ITF."""
    why = unreadable_path(path)
    if why is not None:
        raise UserError(f"cannot read {path}: it {why}")
    try:
        with path.open("rb") as f:
            first = f.readline(MAX_LINE_BYTES + 1)
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None
    try:
        obj = json.loads(first)
    except ValueError:
        return False
    return isinstance(obj, dict) and obj.get("format") == "tlaconf-trace"


def _itf_state(
    index: int, state: dict[str, Any], action: str, picks: dict[str, Any], outcome: str
) -> dict[str, Any]:
    out: dict[str, Any] = {"#meta": {"index": index}}
    out.update((name, encode(state[name])) for name in sorted(state))
    out[ACTION_TAKEN] = action
    out[NONDET_PICKS] = picks
    out[OUTCOME] = outcome
    return out


def trace_to_itf(src: Path, dst: Path) -> int:
    """Write the trace ``src`` as the ITF file ``dst`` (streaming); the number of steps."""
    part = dst.with_name(dst.name + ".part")
    with open_trace(src) as t, part.open("w", encoding="utf-8", newline="\n") as out:
        try:
            steps = _write_itf(t.header, t.initial, t.steps(), src, out)
        except BaseException:
            out.close()
            part.unlink(missing_ok=True)
            raise
    os.replace(part, dst)
    return steps


def _write_itf(
    header: TraceHeader,
    initial: dict[str, Any],
    steps: Iterator[Any],
    src: Path,
    out: IO[str],
) -> int:
    header_json = {
        "format": header.format,
        "version": header.version,
        "module": header.module,
        "revision": header.revision,
        "constants": {k: encode(v) for k, v in sorted(header.constants.items())},
        "meta": header.meta,
    }
    meta = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "source": f"{header.module}.tla",
        "description": f"tlaconf-trace v1 {src.name}, converted by tlaconf",
        HEADER: header_json,
    }
    names = sorted(initial)
    out.write('{"#meta": ' + _dumps(meta) + ",\n")
    out.write(' "vars": ' + _dumps([*names, ACTION_TAKEN, NONDET_PICKS, OUTCOME]) + ",\n")
    out.write(' "states": [\n  ' + _dumps(_itf_state(0, initial, INIT, {}, INIT)))
    count = 0
    for step in steps:
        count += 1
        params = step.params if isinstance(step.params, Fn) else {}
        picks = {k: {"tag": "Some", "value": encode(params[k])} for k in sorted(params)}
        state = _itf_state(count, step.state, step.action, picks, step.outcome)
        out.write(",\n  " + _dumps(state))
    out.write("\n]}\n")
    return count


class _ITFError(UserError):
    def __init__(self, message: str, path: Path, where: str) -> None:
        super().__init__(f"{where}: {message}" if where else message, str(path))


def _load_itf(src: Path) -> dict[str, Any]:
    text = read_text(src, "ITF file")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise _ITFError("JSON nested too deeply", src, "") from None
    except ValueError as err:
        raise _ITFError(f"neither a tlaconf trace nor ITF JSON: {err}", src, "") from None
    if not isinstance(doc, dict):
        raise _ITFError(f"an ITF trace is a JSON object, not {json_kind(doc)}", src, "")
    if "loop" in doc:
        raise _ITFError("lasso traces (with a loop) have no tlaconf-trace form", src, "loop")
    states = doc.get("states")
    if not isinstance(states, list) or not states:
        raise _ITFError("an ITF trace needs a non-empty array of states", src, "states")
    if not isinstance(doc.get("#meta", {}), dict):
        raise _ITFError("#meta must be an object", src, "#meta")
    return doc


def _header(
    doc: dict[str, Any], src: Path, module: str | None, revision: str | None
) -> TraceHeader:
    meta = doc.get("#meta", {})
    if HEADER in meta:
        obj, where = meta[HEADER], f"#meta.{HEADER}"
        if module is not None or revision is not None:
            raise UserError(f"{src} carries its tlaconf header: drop --module/--revision")
    elif module is None or revision is None:
        raise UserError(
            f"{src} has no tlaconf header in its #meta: name the trace's conformance module "
            "and revision with --module and --revision"
        )
    else:
        obj = {"format": "tlaconf-trace", "version": 1, "module": module, "revision": revision,
               "meta": {"itf": meta}}
        where = "--module/--revision"
    if not isinstance(obj, dict):
        raise _ITFError(f"the header must be an object, not {json_kind(obj)}", src, where)
    try:
        return TraceHeader.model_validate(obj)
    except ValidationError as err:
        raise _ITFError(describe_validation_error(err), src, where) from None


def _picks(raw: Any, src: Path, where: str) -> dict[str, Any]:
    """The JSON encoding of the params record the picks hold (the ``Some`` ones)."""
    if not isinstance(raw, dict):
        raise _ITFError(f"{NONDET_PICKS} must be a record, not {json_kind(raw)}", src, where)
    params: dict[str, Any] = {}
    for name, pick in raw.items():
        if not (isinstance(pick, dict) and set(pick) == {"tag", "value"}
                and pick["tag"] in ("Some", "None")):
            raise _ITFError(
                f"pick {name!r} must be a Quint Option variant "
                '{"tag": "Some" | "None", "value": ...}', src, where,
            )
        if pick["tag"] == "Some":
            params[name] = pick["value"]
    if any(name.startswith("#") for name in params):
        return {"#map": [[name, value] for name, value in params.items()]}
    return params


def itf_to_trace(
    src: Path, dst: Path, module: str | None = None, revision: str | None = None
) -> int:
    """Write the ITF file ``src`` as the trace ``dst``; the number of steps.

    ``module`` and ``revision`` name the header when ``src`` carries none.
    """
    doc = _load_itf(src)
    header = _header(doc, src, module, revision)
    states: list[Any] = doc["states"]
    with TraceWriter(dst, header.module, header.revision, header.constants, header.meta) as w:
        for index, raw in enumerate(states):
            where = f"states[{index}]"
            if not isinstance(raw, dict):
                raise _ITFError(f"a state must be an object, not {json_kind(raw)}", src, where)
            state = {k: v for k, v in raw.items() if not k.startswith(_RESERVED_PREFIXES)}
            action = raw.get(ACTION_TAKEN)
            outcome = raw.get(OUTCOME)
            try:
                if index == 0:
                    if action not in (None, INIT) or outcome not in (None, INIT):
                        raise _ITFError(
                            f"state 0 is the initial state: {ACTION_TAKEN} and {OUTCOME} "
                            f"must be {INIT!r}", src, where,
                        )
                    w.init(StateLine.model_validate({"state": state}).state)
                    continue
                if action is None:
                    raise _ITFError(f"a step state needs {ACTION_TAKEN}", src, where)
                line = StepLine.model_validate({
                    "action": action,
                    "params": _picks(raw.get(NONDET_PICKS, {}), src, where),
                    "outcome": "accepted" if outcome is None else outcome,
                    "state": state,
                })
            except ValidationError as err:
                raise _ITFError(describe_validation_error(err), src, where) from None
            params = line.params if isinstance(line.params, Fn) else {}
            w.step(line.action, params, line.outcome, line.state)
        return w.steps
