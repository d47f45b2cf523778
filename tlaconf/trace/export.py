"""A trace as a TLA+ module (plus a TLC ``.cfg``) that a model checker can check.

``export_trace(trace, out, spec)`` writes ``out`` (``X.tla``) and ``X.cfg`` beside
it.  The module ``X``:

* ``EXTENDS`` the trace's conformance module ``M`` and Integers, Sequences and
  TLC (values use ``-`` and, for functions on strings that are not identifiers,
  ``:>`` and ``@@``), so ``M``'s variables, actions and invariants are in
  scope, and adds one variable
  ``trace_step`` (the number of steps taken, 0 in the initial state);
* defines the trace as data: ``TraceConst_<C>`` for each constant ``C`` of ``M``
  (the ``.cfg`` binds ``C <- TraceConst_<C>``, so any value works, records
  included), ``TraceInitial`` (a record of the initial state's variables) and
  ``TraceSteps``, a sequence of records ``[action, params, outcome, state]``
  whose ``state`` is the full state after the step;
* ``TraceAction(k)`` applies the k-th step's action to its params (a ``CASE``
  over the action labels the trace uses); a step without an action label has
  ``action = ""`` and ``params = <<>>``, and ``TraceAction(k)`` is then ``Next``;
* ``TraceInit`` pins the initial state; ``TraceNext`` takes step
  ``k = trace_step + 1``: it pins the next state to the k-th recorded state and
  requires, as replay does, ``TraceAction(k)`` when the step was accepted, and
  ``UNCHANGED`` plus ``~ENABLED TraceAction(k)`` when it was rejected (only
  ``UNCHANGED`` for a rejected step without a label, a stuttering step);
  ``TraceDone`` stutters once every step is taken; ``TraceSpec`` is the usual
  ``TraceInit /\\ [][TraceNext \\/ TraceDone]_...``.

The ``.cfg`` says ``INIT TraceInit``, ``NEXT TraceNextOrDone``, binds the
constants and lists ``M``'s invariants (from ``M.cfg``).  TLC checking it (deadlock
checking on, its default) reproduces replay's verdict:

* "No error has been found": the trace conforms;
* "Deadlock reached" in a state with ``trace_step = k - 1``: step k does not
  conform (its action is FALSE, or a rejected step changed the state or was enabled);
* "Invariant I is violated" in a state with ``trace_step = k``: invariant ``I``
  fails after step k (k = 0: in the initial state).

TLC finds ``M`` and the profile modules through ``-DTLA-Library`` (the module's
header comment gives the command).  Apalache can check the same module with
``--init=TraceInit --next=TraceNextOrDone --length=<steps>`` when every step
was accepted (Apalache has no ``ENABLED``) and the params and states have one
Apalache type throughout (records with the same fields).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from tlaconf.errors import UserError
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.reader import Step, open_trace
from tlaconf.values import Fn, record, to_tla

_IDENT = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*\Z")
_OURS = re.compile(r"\b(Trace[A-Za-z0-9_]*|trace_step)\b")
STEP_VAR = "trace_step"


def _check_names(out: Path, spec: ModuleSpec) -> str:
    name = out.stem
    if out.suffix != ".tla" or not _IDENT.match(name):
        raise UserError(f"{out}: the output must be NAME.tla with NAME a TLA+ identifier")
    if name == spec.name:
        raise UserError(f"{out}: the exported module cannot be named like the module {name}")
    try:
        text = spec.path.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read {spec.path}: {err.strerror}") from None
    clash = _OURS.search(text)
    if clash:
        raise UserError(
            f"{spec.path} uses the name {clash.group(1)}, which the exported module defines"
        )
    return name


def _step_record(step: Step) -> Fn:
    return record(
        action=step.action or "", params=() if step.params is None else step.params,
        outcome=step.outcome, state=Fn(dict(step.state)),
    )  # fmt: skip


def _header_comment(name: str, trace: Path, spec: ModuleSpec, revision: str) -> str:
    library = ":".join(str(d) for d in spec.search_path)
    return (
        f"(* Exported by tlaconf from the trace {trace.name}: conformance module {spec.name},\n"
        f"   revision {revision}.  Check it with TLC (deadlock checking on):\n"
        f"     java -DTLA-Library={library} -cp tla2tools.jar tlc2.TLC \\\n"
        f"          -config {name}.cfg {name}.tla\n"
        "   No error: the trace conforms.  Deadlock with trace_step = k - 1: step k does\n"
        "   not conform.  Invariant I violated with trace_step = k: I fails after step k\n"
        "   (0 = the initial state).  See tlaconf.trace.export for the shape. *)\n"
    )


def _write_module(
    out: IO[str],
    name: str,
    trace: Path,
    spec: ModuleSpec,
    revision: str,
    initial: dict[str, Any],
    steps: Iterator[Step],
) -> int:
    variables = sorted(initial)
    all_vars = "<<" + ", ".join([STEP_VAR, *variables]) + ">>"
    rule = "-" * max(4, (72 - len(name) - 8) // 2)
    out.write(f"{rule} MODULE {name} {rule}\n")
    out.write(_header_comment(name, trace, spec, revision))
    out.write(f"EXTENDS {spec.name}, Integers, Sequences, TLC\n\n")
    out.write(f"VARIABLE {STEP_VAR}\n\n")
    for const in sorted(spec.constants):
        out.write(f"TraceConst_{const} == {to_tla(spec.constants[const])}\n")
    out.write(f"\nTraceInitial ==\n    {to_tla(Fn(dict(initial)))}\n\n")
    out.write("TraceSteps == <<")
    labels: set[str] = set()
    count = 0
    for step in steps:
        if sorted(step.state) != variables:
            raise UserError(
                f"{trace}:{step.line}: the state's variables differ from the initial state's"
            )
        labels.add(step.action or "")
        out.write(("," if count else "") + "\n    " + to_tla(_step_record(step)))
        count += 1
    out.write("\n>>\n\n" if count else ">>\n\n")
    out.write("TraceVars == <<" + ", ".join(variables) + ">>\n\n")
    if labels:
        arms = [
            f'TraceSteps[k].action = "{label}" -> '
            + (f"{label}(TraceSteps[k].params)" if label else NEXT)
            for label in sorted(labels)
        ]
        out.write("TraceAction(k) ==\n    CASE " + "\n      [] ".join(arms) + "\n\n")
    else:
        out.write("TraceAction(k) == FALSE\n\n")
    out.write("TraceInit ==\n" + f"    /\\ {STEP_VAR} = 0\n")
    out.writelines(f"    /\\ {v} = TraceInitial.{v}\n" for v in variables)
    out.write(
        "\nTraceNext ==\n"
        f"    /\\ {STEP_VAR} < Len(TraceSteps)\n"
        f"    /\\ {STEP_VAR}' = {STEP_VAR} + 1\n"
    )
    out.writelines(f"    /\\ {v}' = TraceSteps[{STEP_VAR} + 1].state.{v}\n" for v in variables)
    out.write(
        f'    /\\ IF TraceSteps[{STEP_VAR} + 1].outcome = "accepted"\n'
        f"          THEN TraceAction({STEP_VAR} + 1)\n"
        "          ELSE /\\ UNCHANGED TraceVars\n"
        f'               /\\ \\/ TraceSteps[{STEP_VAR} + 1].action = ""\n'
        f"                  \\/ ~ENABLED (TraceAction({STEP_VAR} + 1) /\\ UNCHANGED {STEP_VAR})\n\n"
        f"TraceDone == {STEP_VAR} = Len(TraceSteps) /\\ UNCHANGED {all_vars}\n\n"
        "TraceNextOrDone == TraceNext \\/ TraceDone\n\n"
        f"TraceSpec == TraceInit /\\ [][TraceNextOrDone]_{all_vars}\n"
        f"{'=' * (len(rule) * 2 + len(name) + 9)}\n"
    )
    return count


def _write_cfg(out: IO[str], name: str, spec: ModuleSpec) -> None:
    out.write(f"\\* TLC configuration of {name}.tla, exported by tlaconf.\n")
    out.write("INIT TraceInit\nNEXT TraceNextOrDone\n")
    if spec.constants:
        out.write("CONSTANTS\n")
        out.writelines(f"    {c} <- TraceConst_{c}\n" for c in sorted(spec.constants))
    if spec.invariants:
        out.write("INVARIANTS\n")
        out.writelines(f"    {inv}\n" for inv in spec.invariants)


def export_trace(trace: Path, out: Path, spec: ModuleSpec, revision: str) -> tuple[Path, int]:
    """Write ``out`` (a module) and its ``.cfg``; the ``.cfg`` path and the number of steps.

    ``spec`` is the trace's conformance module as replay would load it (constants
    merged from ``M.cfg`` and the trace header).
    """
    name = _check_names(out, spec)
    cfg = out.with_suffix(".cfg")
    part = out.with_name(out.name + ".part")
    try:
        with open_trace(trace) as t, part.open("w", encoding="utf-8", newline="\n") as f:
            steps = _write_module(f, name, trace, spec, revision, t.initial, t.steps())
        with cfg.open("w", encoding="utf-8", newline="\n") as f:
            _write_cfg(f, name, spec)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    part.replace(out)
    return cfg, steps
