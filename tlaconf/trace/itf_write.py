"""Traces written as ITF JSON files that Apalache, Quint and itf-py read (ADR-015).

One ITF state per trace line from line 2 on, with the Quint model-based-testing
conventions (:mod:`tlaconf.trace.mbt`): ``mbt::actionTaken`` (``"init"`` in
state 0; absent for a step without an action label), ``mbt::nondetPicks`` (the
params record, each field its value; absent too for a step without a label),
``tlaconf::outcome`` and, in the file's ``#meta``, ``tlaconf::header`` (the
trace header as it is in the trace, so converting back gives the same bytes).
Quint wraps each pick in an ``Option`` variant, ``{"tag": "Some", "value": v}``;
tlaconf does not, because itf-py 0.5.0 cannot load a variant whose value is a
set, tuple, map or ``#bigint`` (it takes the value's object for record
fields).  ``vars`` lists the state variables (sorted), then those of the three
fields every state has.

Values take the ADR-015 forms of :mod:`tlaconf.values.forms`: integers as
``#bigint``, a function whose keys are not all identifiers as ``#map``.  Where
a value has two forms, a state variable takes the form of its type annotation
in the conformance module (``types``, from ``\\* @type:`` comments), else the
form its first value in the trace was written in; a param, the form of its
first value for that action.  When every variable is annotated, ``#meta`` has
``varTypes``, as Apalache needs to read the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from tlaconf.tla.annotations import type_form
from tlaconf.trace.mbt import ACTION_TAKEN, HEADER, INIT, ITF_DESCRIPTION, NONDET_PICKS, OUTCOME
from tlaconf.trace.models import TraceHeader
from tlaconf.trace.reader import Step, open_trace
from tlaconf.values import Fn, encode, strict_json
from tlaconf.values.forms import ANY, Form, encode_itf, form_of_json


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


class _Forms:
    """The form of each state variable and, per action, of each param."""

    def __init__(self, annotated: Mapping[str, Form]) -> None:
        self.variables: dict[str, Form] = dict(annotated)
        self.params: dict[str, Form] = {}

    def learn(self, raw: dict[str, Any]) -> None:
        """Take the forms of the values in one raw trace line not known yet."""
        state = raw.get("state")
        if isinstance(state, dict):
            for name, value in state.items():
                if name not in self.variables:
                    self.variables[name] = form_of_json(value)
        action, params = raw.get("action"), raw.get("params")
        if isinstance(action, str) and action not in self.params:
            self.params[action] = form_of_json(params)

    def state(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return {n: encode_itf(state[n], self.variables.get(n, ANY)) for n in sorted(state)}


def _raw_lines(src: Path) -> Iterator[dict[str, Any]]:
    """Each line of ``src`` as JSON (the reader has validated it; only read for its forms)."""
    with src.open("rb") as f:
        for raw in f:
            obj = strict_json.loads(raw.decode("utf-8"))
            yield obj if isinstance(obj, dict) else {}


def trace_to_itf(src: Path, dst: Path, types: Mapping[str, str] | None = None) -> int:
    """Write the trace ``src`` as the ITF file ``dst`` (streaming); the number of steps.

    ``types`` are the state variables' annotated Apalache types: their forms win
    over the trace's, and when every variable has one they are the ``#meta``'s
    ``varTypes`` (which Apalache needs to read an ITF file).
    """
    part = dst.with_name(dst.name + ".part")
    with open_trace(src) as t, part.open("w", encoding="utf-8", newline="\n") as out:
        try:
            initial = t.initial  # a trace without one is refused here, naming the line
            raw = _raw_lines(src)
            next(raw)
            known = _Forms({v: type_form(ty) for v, ty in (types or {}).items()})
            known.learn(next(raw))
            var_types = dict(types or {})
            if set(initial) - set(var_types):
                var_types = {}
            steps = _write(t.header, initial, t.steps(), src, out, known, raw, var_types)
        except BaseException:
            out.close()
            part.unlink(missing_ok=True)
            raise
    os.replace(part, dst)
    return steps


def _header_json(header: TraceHeader) -> dict[str, Any]:
    return {
        "format": header.format,
        "version": header.version,
        "module": header.module,
        "revision": header.revision,
        "constants": {k: encode(v) for k, v in sorted(header.constants.items())},
        "meta": header.meta,
    }


def _write(
    header: TraceHeader,
    initial: dict[str, Any],
    steps: Iterator[Step],
    src: Path,
    out: IO[str],
    forms: _Forms,
    raw: Iterator[dict[str, Any]],
    var_types: Mapping[str, str],
) -> int:
    meta: dict[str, Any] = {
        "format": "ITF",
        "format-description": ITF_DESCRIPTION,
        "source": f"{header.module}.tla",
        "description": f"tlaconf-trace v1 {src.name}, converted by tlaconf",
    }
    if var_types:
        meta["varTypes"] = {v: var_types[v] for v in sorted(initial)}
    meta[HEADER] = _header_json(header)
    first = {"#meta": {"index": 0}, **forms.state(initial), ACTION_TAKEN: INIT,
             NONDET_PICKS: {}, OUTCOME: INIT}  # fmt: skip
    # vars follows the states: whether every state has an action label is known at the end.
    out.write('{"#meta": ' + _dumps(meta) + ",\n")
    out.write(' "states": [\n  ' + _dumps(first))
    count = 0
    labelled = True
    for step in steps:
        count += 1
        forms.learn(next(raw))
        state: dict[str, Any] = {"#meta": {"index": count}, **forms.state(step.state)}
        if step.action is None:
            labelled = False
        else:
            params = step.params if isinstance(step.params, Fn) else {}
            form = forms.params.get(step.action, ANY)
            state[ACTION_TAKEN] = step.action
            state[NONDET_PICKS] = {
                k: encode_itf(params[k], form.field(k))
                for k in sorted(params)
            }
        state[OUTCOME] = step.outcome
        out.write(",\n  " + _dumps(state))
    fields = [ACTION_TAKEN, NONDET_PICKS, OUTCOME] if labelled else [OUTCOME]
    out.write("\n ],\n")
    out.write(' "vars": ' + _dumps([*sorted(initial), *fields]) + "\n}\n")
    return count
