"""A path the explorer found, written as a ``tlaconf-trace`` that ``tlaconf replay``
checks against the same module and ``.cfg``.

A step is labelled (``action``, ``params``) when replay can check it against that
label: the action is an operator of the module taking one parameter whose value is a
record (a conformance module's action).  Any other step is written without a label, so
replay checks it against the module's ``Next``.  Every step's action, as the explorer
found it, is in the header's ``meta.explore.actions`` either way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tlaconf.explore.adapter import Label
from tlaconf.explore.model import Model
from tlaconf.explore.result import Violation
from tlaconf.trace.writer import TraceWriter
from tlaconf.values import Fn, encode

REVISION = "explore"
"""The header's revision (a module outside a reference profile ignores it)."""


def replayable(model: Model, label: Label) -> bool:
    """Whether replay can check a step labelled ``label``."""
    info = model.ctx.operators.get(label.name)
    if info is None or info.arity != 1 or len(label.args) != 1:
        return False
    arg = label.args[0][1]
    return (type(arg) is Fn and all(type(k) is str for k in arg)) or arg == ()


def write_violation(model: Model, violation: Violation, path: Path) -> Path:
    """Write the path to ``violation`` to ``path`` (atomically: nothing is left half
    written); returns ``path``."""
    steps = violation.path
    actions: list[Any] = [
        {"action": s.label.name, "params": {n: encode(v) for n, v in s.label.params.items()}}
        for s in steps[1:] if s.label is not None
    ]
    meta = {
        "generator": "tlaconf explore",
        "explore": {
            "cfg": str(model.cfg.path) if model.cfg.path else None,
            "violation": violation.invariant or "deadlock",
            "kind": violation.kind,
            "loop": violation.loop,
            "actions": actions,
        },
    }
    constants = {k: v for k, v in model.cfg.values.items() if k in model.ctx.constants}
    with TraceWriter(path, model.ctx.name, REVISION, constants, meta) as w:
        w.init(steps[0].state)
        for s in steps[1:]:
            if s.label is not None and replayable(model, s.label):
                arg = s.label.args[0][1]
                w.step(s.label.name, dict(arg) if arg != () else {}, "accepted", s.state)
            else:
                w.unlabeled_step(s.state)
    if violation.loop is not None:
        write_lasso_itf(path, path.with_name(path.name.removesuffix(".jsonl") + ".itf.json"),
                        violation.loop)
    return path


def write_lasso_itf(src: Path, dst: Path, loop: int) -> Path:
    """The trace ``src`` as the ITF file ``dst``, with ``loop``: the index of the state
    the last one goes back to, forever (a liveness counterexample)."""
    from tlaconf.files import write_text
    from tlaconf.trace.itf_write import trace_to_itf

    trace_to_itf(src, dst)
    doc = json.loads(dst.read_text(encoding="utf-8"))
    doc["loop"] = loop
    write_text(dst, json.dumps(doc, indent=1) + "\n", "ITF file")
    return dst
