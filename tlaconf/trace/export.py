"""A trace as a TLA+ module (plus a TLC ``.cfg``) that a model checker can check.

``export_trace(trace, out, spec, revision, facts)`` writes ``out`` (``X.tla``)
and ``X.cfg`` beside it.  The module ``X``:

* ``EXTENDS`` the trace's conformance module ``M`` and Integers, Sequences and
  TLC (values use ``-`` and, for functions on strings that are not identifiers,
  ``:>`` and ``@@``), so ``M``'s variables, actions and invariants are in
  scope, and adds one variable
  ``trace_step`` (the number of steps taken, 0 in the initial state);
* defines the trace as data: ``TraceConst_<C>`` for each constant ``C`` that
  ``M`` declares (the ``.cfg`` binds ``C <- TraceConst_<C>``, so any value works,
  records included), ``TraceInitial`` (a record of the initial state's
  variables) and ``TraceSteps``, a sequence of records
  ``[action, params, outcome, state]`` whose ``state`` is the full state after
  the step;
* ``TraceAction(k)`` applies the k-th step's action to its params (a ``CASE``
  over the action labels the trace uses); a step without an action label has
  ``action = ""`` and ``params = <<>>``, and ``TraceAction(k)`` is then ``Next``;
* ``TraceInit`` pins the initial state; ``TraceNext`` takes step
  ``k = trace_step + 1``: it pins the next state to the k-th recorded state and
  requires, as replay does, ``TraceAction(k)`` when the step was accepted, and
  ``UNCHANGED`` plus ``~ENABLED TraceAction(k)`` when it was rejected (only
  ``UNCHANGED`` for a rejected step without a label, a stuttering step);
  ``TraceDone`` stutters once every step is taken; ``TraceSpec`` is the usual
  ``TraceInit /\\ [][TraceNextOrDone]_...``.

The ``.cfg`` says ``INIT TraceInit``, ``NEXT TraceNextOrDone``, binds the
constants and lists ``M``'s invariants (from ``M.cfg``).  TLC checking it (deadlock
checking on, its default) reproduces replay's verdict:

* "No error has been found": the trace conforms;
* "Deadlock reached" in a state with ``trace_step = k - 1``: step k does not
  conform (its action is FALSE, or a rejected step changed the state or was enabled);
* "Invariant I is violated" in a state with ``trace_step = k``: invariant ``I``
  fails after step k (k = 0: in the initial state).

A trace is refused (UserError, nothing written) when it has no steps (TLC would
pass it having checked nothing), when a step's action label is not an action of
``M`` or a state's variables are not ``M``'s.  :func:`write_module` writes one
such module for any run of steps: the TLC backend checks a long trace as a
series of these, each starting from the previous one's last state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tlaconf.errors import UserError
from tlaconf.files import check_output, read_text, writing
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.tla.library import is_jar
from tlaconf.trace.reader import Step, open_trace
from tlaconf.values import Fn, record, to_tla

_IDENT = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*\Z")
_OURS = re.compile(r"\b(Trace[A-Za-z0-9_]*|trace_step)\b")
STEP_VAR = "trace_step"
JAVA_OPTIONS = ("-XX:+UseParallelGC",)
"""The JVM options TLC's own scripts use (and the TLC backend passes)."""


@dataclass(frozen=True)
class ModuleFacts:
    """What an export needs to know of the conformance module ``M``."""

    variables: frozenset[str]
    actions: frozenset[str]
    constants: frozenset[str]
    """The constants ``M`` declares (itself or through EXTENDS): the ones a ``.cfg`` may bind."""
    has_next: bool = False
    """Whether ``M`` defines ``Next`` (which steps without an action label are checked against)."""


def check_names(out: Path, spec: ModuleSpec) -> str:
    """The module name of ``out``; UserError when it is not ``NAME.tla`` or clashes with ``M``."""
    name = out.stem
    if out.suffix != ".tla" or not _IDENT.match(name):
        raise UserError(f"{out}: the output must be NAME.tla with NAME a TLA+ identifier")
    if name == spec.name:
        raise UserError(f"{out}: the exported module cannot be named like the module {name}")
    try:
        text = read_text(spec.path, "module")
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


def tlc_command(name: str, spec: ModuleSpec, jar: str = "tla2tools.jar") -> list[str]:
    """The command that checks the exported module ``name`` (run in its folder)."""
    library = ":".join(str(d) for d in spec.search_path if not is_jar(d))
    classpath = ":".join([jar, *(str(d) for d in spec.search_path if is_jar(d))])
    return ["java", *JAVA_OPTIONS, f"-DTLA-Library={library}", "-cp", classpath, "tlc2.TLC",
            "-config", f"{name}.cfg", f"{name}.tla"]  # fmt: skip


def _header_comment(name: str, trace: Path, spec: ModuleSpec, revision: str) -> str:
    command = tlc_command(name, spec)
    return (
        f"(* Exported by tlaconf from the trace {trace.name}: conformance module {spec.name},\n"
        f"   revision {revision}.  Check it with TLC (deadlock checking on):\n"
        f"     {' '.join(command[:6])} \\\n"
        f"          {' '.join(command[6:])}\n"
        "   No error: the trace conforms.  Deadlock with trace_step = k - 1: step k does\n"
        "   not conform.  Invariant I violated with trace_step = k: I fails after step k\n"
        "   (0 = the initial state).  See tlaconf.trace.export for the shape. *)\n"
    )


def _check_step(trace: Path, step: Step, facts: ModuleFacts, module: str) -> None:
    if step.action is None:
        if not facts.has_next:
            raise UserError(
                f"{trace}:{step.line}: the step has no action label, so it is checked against "
                f"Next, but module {module} defines no Next"
            )
    elif step.action not in facts.actions:
        known = ", ".join(sorted(facts.actions)) or "none"
        raise UserError(
            f"{trace}:{step.line}: unknown action label {step.action!r} "
            f"(module {module} defines the actions: {known})"
        )
    if step.state.keys() != facts.variables:
        raise UserError(
            f"{trace}:{step.line}: the state's variables are not those of module {module} "
            f"({', '.join(sorted(facts.variables))})"
        )


def write_module(
    out: IO[str],
    name: str,
    spec: ModuleSpec,
    facts: ModuleFacts,
    initial: Mapping[str, Any],
    steps: Iterable[Step],
    comment: str = "",
    trace: Path = Path("<trace>"),
) -> int:
    """Write the module ``name`` checking ``steps`` from ``initial``; the number of steps."""
    if initial.keys() != facts.variables:
        raise UserError(
            f"{trace}:2: the initial state's variables are not those of module {spec.name} "
            f"({', '.join(sorted(facts.variables))})"
        )
    variables = sorted(initial)
    all_vars = "<<" + ", ".join([STEP_VAR, *variables]) + ">>"
    rule = "-" * max(4, (72 - len(name) - 8) // 2)
    out.write(f"{rule} MODULE {name} {rule}\n")
    out.write(comment)
    out.write(f"EXTENDS {spec.name}, Integers, Sequences, TLC\n\n")
    out.write(f"VARIABLE {STEP_VAR}\n\n")
    for const in sorted(bound_constants(spec, facts)):
        out.write(f"TraceConst_{const} == {to_tla(spec.constants[const])}\n")
    out.write(f"\nTraceInitial ==\n    {to_tla(Fn(dict(initial)))}\n\n")
    out.write("TraceSteps == <<")
    labels: set[str] = set()
    count = 0
    for step in steps:
        _check_step(trace, step, facts, spec.name)
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


def bound_constants(spec: ModuleSpec, facts: ModuleFacts) -> list[str]:
    """The constants the ``.cfg`` binds: those with a value that ``M`` declares."""
    return sorted(c for c in spec.constants if c in facts.constants)


def write_cfg(out: IO[str], name: str, spec: ModuleSpec, facts: ModuleFacts) -> None:
    """Write the TLC configuration of the module ``name``."""
    out.write(f"\\* TLC configuration of {name}.tla, exported by tlaconf.\n")
    out.write("INIT TraceInit\nNEXT TraceNextOrDone\n")
    constants = bound_constants(spec, facts)
    if constants:
        out.write("CONSTANTS\n")
        out.writelines(f"    {c} <- TraceConst_{c}\n" for c in constants)
    if spec.invariants:
        out.write("INVARIANTS\n")
        out.writelines(f"    {inv}\n" for inv in spec.invariants)


def export_trace(
    trace: Path, out: Path, spec: ModuleSpec, revision: str, facts: ModuleFacts
) -> tuple[Path, int]:
    """Write ``out`` (a module) and its ``.cfg``; the ``.cfg`` path and the number of steps.

    ``spec`` is the trace's conformance module as replay would load it (constants
    merged from ``M.cfg`` and the trace header).  Nothing is left behind on an error.
    """
    name = check_names(out, spec)
    cfg = out.with_suffix(".cfg")
    check_output(out, "-o")
    check_output(cfg, "-o (its .cfg)")
    # the module's temporary file is renamed last: both files, or neither
    with open_trace(trace) as t, writing(out, "module") as f:
        comment = _header_comment(name, trace, spec, revision)
        steps = write_module(f, name, spec, facts, t.initial, t.steps(), comment, trace)
        if steps == 0:
            raise UserError(
                f"{trace}: the trace has no steps: TLC would pass the exported module having "
                "checked nothing but the initial state (replay reports it vacuous)"
            )
        with writing(cfg, "config") as g:
            write_cfg(g, name, spec, facts)
    return cfg, steps
