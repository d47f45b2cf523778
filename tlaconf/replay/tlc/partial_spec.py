"""A partial trace as a TLC trace-validation spec, so that TLC's own search decides it.

A partial trace logs part of each state (``docs/validate.md``, "Partial traces");
tlaconf keeps the set of spec states consistent with the log so far.  TLC's
breadth-first search does the same when the log position is a variable of the spec
(the style of the 2024 trace-validation paper): the module ``X`` written here

* ``EXTENDS`` the conformance module ``M`` (with Integers, Sequences, TLC) and adds
  the variable ``trace_line`` (log steps matched so far; 0 in the initial state) and,
  when ``M`` has ``SilentActions``, ``trace_silent`` (silent steps since the last
  logged one);
* ``TraceInit``: the logged initial state (``M``'s ``Init`` with what was logged, when
  it is partial), every invariant of ``M.cfg`` holding (a candidate that breaks one is
  dropped, as tlaconf drops it);
* ``TraceStep_k`` for the k-th logged step: its action with its params (or ``Next``)
  and what it logged of the next state (``x' = v``; under ``#partial``, each key given:
  ``k \\in DOMAIN x'`` and ``x'[k] = v``; under ``Observe``,
  ``Observe([x |-> x', ...], logged)``), then the invariants primed; a step logged
  ``rejected`` is ``UNCHANGED`` with the logged state and ``~ENABLED`` its action;
* ``TraceNext``: the step ``trace_line + 1``, or a silent action
  (``SilentActions``, at most ``SilentBound`` in a row) that leaves ``trace_line``;
* ``TraceUnmatched == trace_line < TraceLength``, the ``.cfg``'s only invariant: TLC
  finds it violated exactly when some behaviour of ``M`` matches the whole log (the
  log conforms; TLC prints that behaviour), and reports no error when none does (the
  log is rejected; without silent actions, the depth of TLC's search is one more than
  the steps matched).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.tlc.process import Tlc, run_tlc
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.export import ModuleFacts as _Facts
from tlaconf.trace.export import bound_constants
from tlaconf.trace.partial import Partial, PartialStep
from tlaconf.values import to_tla

LINE_VAR = "trace_line"
SILENT_VAR = "trace_silent"
UNMATCHED = "TraceUnmatched"


@dataclass(frozen=True)
class PartialFacts:
    """What the export needs of the conformance module ``M``."""

    variables: tuple[str, ...]
    constants: frozenset[str]
    silent: tuple[str, ...] = ()
    """``SilentActions`` (actions without parameters)."""
    bound: int = 0
    """``SilentBound``."""
    observe: bool = False
    """Whether ``M`` defines ``Observe(s, logged)``."""


def write_partial_module(out: IO[str], name: str, spec: ModuleSpec, facts: PartialFacts,
                         initial: Mapping[str, Any], steps: Sequence[PartialStep],
                         comment: str = "") -> None:
    """Write the module ``name`` deciding the partial trace (``initial``, ``steps``)."""
    variables = list(facts.variables)
    silent = bool(facts.silent) and facts.bound > 0
    mine = [LINE_VAR, *([SILENT_VAR] if silent else [])]
    rule = "-" * max(4, (72 - len(name) - 8) // 2)
    out.write(f"{rule} MODULE {name} {rule}\n{comment}")
    out.write(f"EXTENDS {spec.name}, Integers, Sequences, TLC\n\n")
    out.write(f"VARIABLES {', '.join(mine)}\n\n")
    for const in bound_constants(spec, _Facts(frozenset(), frozenset(), facts.constants)):
        out.write(f"TraceConst_{const} == {to_tla(spec.constants[const])}\n")
    out.write(f"\nTraceLength == {len(steps)}\n\n")
    out.write("TraceVars == <<" + ", ".join(variables) + ">>\n\n")
    invariants = list(spec.invariants)
    full = set(initial) == set(variables) and not any(
        isinstance(v, Partial) for v in initial.values())
    init = ([f"{v} = {to_tla(initial[v])}" for v in variables] if full
            else ["Init", *_logged(initial, variables, facts, primed=False)])
    init += invariants + [f"{v} = 0" for v in mine]
    out.write("TraceInit ==\n" + "".join(f"    /\\ {c}\n" for c in init) + "\n")
    for k, step in enumerate(steps, 1):
        action = NEXT if step.action is None else f"{step.action}({to_tla(step.params)})"
        logged = _logged(step.state, variables, facts, primed=True)
        if step.outcome == "rejected":
            parts = ["UNCHANGED TraceVars", *logged, f"~ENABLED {action}"]
        else:
            parts = [action, *logged, *(f"{inv}'" for inv in invariants)]
        out.write(f"\\* log line {step.line}\nTraceStep_{k} ==\n"
                  + "".join(f"    /\\ {c}\n" for c in parts) + "\n")
    arms = "\n          [] ".join(f"{LINE_VAR} = {k - 1} -> TraceStep_{k}"
                                   for k in range(1, len(steps) + 1))
    out.write("TraceLogged ==\n"
              f"    /\\ {LINE_VAR} < TraceLength\n"
              f"    /\\ CASE {arms}\n"
              f"    /\\ {LINE_VAR}' = {LINE_VAR} + 1\n"
              + (f"    /\\ {SILENT_VAR}' = 0\n" if silent else "") + "\n")
    if silent:
        actions = " \\/ ".join(facts.silent)
        out.write("TraceSilent ==\n"
                  f"    /\\ {LINE_VAR} < TraceLength\n"
                  f"    /\\ {SILENT_VAR} < {facts.bound}\n"
                  f"    /\\ {actions}\n"
                  f"    /\\ {SILENT_VAR}' = {SILENT_VAR} + 1\n"
                  f"    /\\ UNCHANGED {LINE_VAR}\n\n")
    out.write("TraceNext == TraceLogged" + (" \\/ TraceSilent" if silent else "") + "\n\n")
    out.write(f"{UNMATCHED} == {LINE_VAR} < TraceLength\n")
    out.write(f"{'=' * (len(rule) * 2 + len(name) + 9)}\n")


def _logged(state: Mapping[str, Any], variables: Sequence[str], facts: PartialFacts,
            primed: bool) -> list[str]:
    """The conditions that the (next) state agrees with what ``state`` logged."""
    if not state:
        return []
    mark = "'" if primed else ""
    if facts.observe:
        for name, value in state.items():
            if isinstance(value, Partial):
                raise UserError(f"the logged {name} is #partial, which Observe(s, logged) "
                                "cannot take (give the value, or drop Observe)")
        record = ", ".join(f"{v} |-> {v}{mark}" for v in variables)
        fields = ", ".join(f"{k} |-> {to_tla(v)}" for k, v in sorted(state.items()))
        return [f"Observe([{record}], [{fields}])"]
    out: list[str] = []
    for var in variables:
        if var in state:
            out += _match(f"{var}{mark}", state[var])
    return out


def _match(expr: str, logged: Any) -> list[str]:
    if isinstance(logged, Partial):
        out: list[str] = []
        for key, value in logged.entries:
            k = to_tla(key)
            out.append(f"{k} \\in DOMAIN {expr}")
            out += _match(f"{expr}[{k}]", value)
        return out
    return [f"{expr} = {to_tla(logged)}"]


def write_partial_cfg(out: IO[str], name: str, spec: ModuleSpec, facts: PartialFacts) -> None:
    """The ``.cfg`` of the module ``name``."""
    out.write(f"\\* TLC configuration of {name}.tla (a partial trace), exported by tlaconf.\n"
              "INIT TraceInit\nNEXT TraceNext\n")
    constants = bound_constants(spec, _Facts(frozenset(), frozenset(), facts.constants))
    if constants:
        out.write("CONSTANTS\n" + "".join(f"    {c} <- TraceConst_{c}\n" for c in constants))
    out.write(f"INVARIANT {UNMATCHED}\nCHECK_DEADLOCK FALSE\n")


@dataclass(frozen=True)
class PartialAnswer:
    """TLC's verdict on an exported partial trace: ``conforms`` or ``violation``, and the
    logged steps its search matched (None when silent actions make the depth of the search
    say nothing of it)."""

    verdict: str
    matched: int | None
    depth: int | None


def decide_partial(tlc: Tlc, folder: Path, name: str, library: tuple[Path, ...],
                   steps: int, silent: bool) -> PartialAnswer:
    """Run TLC on ``folder/name.tla`` (a module :func:`write_partial_module` wrote for
    ``steps`` logged steps, ``silent``: with silent actions)."""
    found = run_tlc(tlc, folder, name, library)
    if found.kind == "invariant" and found.invariant == UNMATCHED:
        return PartialAnswer("conforms", steps, found.depth)
    if found.kind == "ok":
        matched = None if silent or found.depth is None else found.depth - 1
        return PartialAnswer("violation", matched, found.depth)
    raise CheckerFailed(f"TLC reported a {found.kind} on the exported partial trace, which "
                        f"has no such check ({found.text or 'no message'})")
