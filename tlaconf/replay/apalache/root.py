"""The root module of an Apalache session: the whole trace as labelled transitions.

For a trace of ``M`` with states ``s0 .. sn``, ``TlaconfApalache`` declares ``M``'s
variables (typed from the annotations, then from every value of the trace) and a
step counter ``tlaconf_k``, instantiates ``M`` with its constants bound to annotated literals
(``TlaconfConst_Phases``: Snowcat cannot tell a literal sequence from a tuple
where it is applied to an index), and
defines:

* ``TlaconfInit``: ``tlaconf_k = 0`` and the variables equal to ``s0``;
* ``TlaconfP<k>``: step k's params, annotated with their type across the trace (where
  the action's ``@type`` does not pin it: a field it does not name, ``opponentHand |->
  <<7, 8>>``, is a tuple or a sequence to Snowcat, "Annotation required. Found 2
  matching operator signatures"; an empty set among fields typed with a row variable
  stays polymorphic, "Expected a non-polymorphic type");
* ``TlaconfNext``, one labelled disjunct per question, each the operator of the
  same name with ``Q`` appended (Snowcat types each operator on its own, so its
  time grows with the number of steps, not faster): ``TlaconfS0`` stutters (the
  server does not solve an ACTION invariant right after ``Init``);
  ``TlaconfS<k>`` takes step k (``tlaconf_k`` from k-1 to k) to the recorded
  state ``sk``: the variables it changes pinned to their values, the others
  ``UNCHANGED`` (the state before is pinned already: the same constraint, with less
  to type and encode; a rejected step keeps every variable ``UNCHANGED``, and pins
  the ones it changed, so that it is disabled then); ``TlaconfE<k>``
  (rejected steps only) is ``A(p)`` from ``s(k-1)``, not pinned, its counter set
  to ``-k`` so that nothing follows it.  A step without an action label uses
  ``Next`` for ``A(p)``, and a rejected one has no probe (it is a stuttering step).

* ``TlaconfP<k>``, with a ``@type`` annotation, for step k's params when they hold an
  empty collection: applied to an action whose ``@type`` has a row variable, such a
  literal leaves Snowcat an element type it cannot fix (the real server refuses it:
  ``Unexpected expressions in the specification``); the step's questions apply the
  action to ``TlaconfP<k>``.

* ``TlaconfA<k> == TlaconfA<k>:: (A(p))`` for an accepted step k with an action
  label (a step checked against ``Next`` keeps ``Next`` in its transition: the
  negation of ``Next`` expands its existentials, which a transition skolemizes;
  ``interop/quint-test-drawTest``'s first step ran out of 120 s so): an ACTION
  invariant, asked right after ``TlaconfS<k>``.  Both states are literals, so
  the invariant holds exactly when the step does; and Apalache solves it as the
  satisfiability of its negation, where the step's universal quantifiers
  become existentials it skolemizes (one witness each) instead of expanding
  them.  As a transition, ``A(p)`` is the assignment of the next state: every
  universal quantifier of it is expanded, and the state it computes (not the literal) is the
  one the next step starts from, so each step's encoding grows with the ones
  before.  A step of ``AtomicZoneMove4`` (its ``ZonePartition4`` compares every
  pair of zones) took 52 s of the server's CPU from a literal state, over 300 s
  a few steps later, and 3 to 6 s as an invariant.

* ``TlaconfInv<i> == TlaconfI<i>:: (I)`` for the i-th invariant ``I`` of ``M``:
  Apalache splits an invariant into its conjuncts (one state invariant each, in
  an order of its own), and the label says which invariant a conjunct is of.

* ``TlaconfG<k> == TlaconfG<k>:: (TlaconfGuard_A(p))`` for a rejected step k whose action
  ``A`` has conjuncts that read no next state (:mod:`~tlaconf.replay.apalache.enabling`):
  ``TlaconfGuard_A(tlaconf_p)``, their conjunction, is implied by ``A(tlaconf_p)``; asked
  as a STATE invariant in the state before step k, VIOLATED means ``A(p)`` is disabled
  there, without the ``TlaconfE<k>`` transition.

An accepted step k holds exactly when ``TlaconfA<k>`` is SATISFIED after
``TlaconfS<k>``, a rejected one when ``TlaconfS<k>`` is ENABLED (Apalache solves
both); a rejected step's action is enabled exactly when a ``TlaconfE<k>``
transition is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.replay.apalache.enabling import NO_GUARDS, PARAM, Guards
from tlaconf.replay.apalache.shared import Pool
from tlaconf.replay.apalache.types import (
    NoCommonType,
    Type,
    TypeBook,
    conform,
    known,
    literal,
    type_text,
)
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.reader import open_trace

ROOT = "TlaconfApalache"
ACTION = "TlaconfA"
COUNTER = "tlaconf_k"
INVARIANT = "TlaconfInv"
INVARIANT_LABEL = "TlaconfI"
CONSTANT = "TlaconfConst_"
PARAMS = "TlaconfP"
GUARD = "TlaconfG"
GUARD_OPERATOR = "TlaconfGuard_"


def trace_types(
    trace: Path, variables: tuple[str, ...], annotations: Mapping[str, Type]
) -> tuple[dict[str, Type], dict[str, Type], set[str]]:
    """Types of the variables and of each action's params across the trace; the labels used.

    ``annotations``: the conformance module's annotated names; a variable's values
    must fit its annotation, an action's params the parameter of its ``(P) => Bool``.
    """
    fixed = {v: annotations[v] for v in variables if annotations.get(v) is not None}
    for name, note in annotations.items():
        if note is not None and note[0] == "Oper" and len(note[1]) == 1:
            fixed[f"params of {name}"] = note[1][0]
    book = TypeBook(fixed)
    labels: set[str] = set()
    with open_trace(trace) as t:
        for v in variables:
            book.observe(v, t.initial[v], 2, f"variable {v}")
        for step in t.steps():
            if step.action is None:  # checked against Next
                labels.add(NEXT)
            else:
                labels.add(step.action)
                book.observe(f"params of {step.action}", step.params, step.line,
                             f"the params of {step.action}", record=True)  # fmt: skip
            for v in variables:
                if v in step.state:
                    book.observe(v, step.state[v], step.line, f"variable {v}")
    params = {a: book.types[f"params of {a}"] for a in labels if a != NEXT}
    return {v: book.types.get(v) for v in variables}, params, labels


def _literals(variables: tuple[str, ...], types: Mapping[str, Type],
              state: Mapping[str, Any], pool: Pool) -> dict[str, str]:  # fmt: skip
    return {v: pool.literal(state[v], types[v]) for v in variables}


def _pin(now: Mapping[str, str], before: Mapping[str, str], rejected: bool,
         assigned: bool = False) -> str:  # fmt: skip
    """The next state equal to ``now``: the variables it changes pinned to their values, the
    others UNCHANGED (the state before is pinned already; the same constraint, and less for
    Snowcat to type and the solver to encode).  A rejected step keeps every variable.
    ``assigned``: ``Next`` before the pin assigns the next state already, and Apalache takes
    ``UNCHANGED x`` after it for a second assignment ("Manual assignment is spurious, x is
    already assigned"): every variable is pinned with ``=``, a check there."""
    if assigned:
        return " /\\ ".join(f"{v}' = {text}" for v, text in now.items())
    moved = [f"{v}' = {text}" for v, text in now.items() if text != before[v]]
    kept = list(now) if rejected else [v for v in now if now[v] == before[v]]
    return " /\\ ".join(([f"UNCHANGED <<{', '.join(kept)}>>"] if kept else []) + moved)


def _constant(spec: ModuleSpec, name: str, annotated: Type) -> str:
    """``TlaconfConst_<name> == <value>`` with its ``@type`` (an annotated literal: Snowcat
    cannot tell a sequence ``<<"a", "b">>`` from a tuple where it is applied to an index)."""
    value = spec.constants[name]
    try:
        t = conform(value, annotated, f"the constant {name}")
    except NoCommonType as err:
        raise UserError(f"{err.message} (its @type annotation)") from None
    note = f"\\* @type: {type_text(t)};\n" if known(t) else ""
    return f"{note}{CONSTANT}{name} == {literal(value, t)}"


@dataclass(frozen=True)
class Root:
    """The root module's text and the invariants it defines for tlaconf's questions."""

    text: str
    checks: list[str]
    """The ``TlaconfA<k>Q`` operators: each accepted step's action."""
    guards: list[str]
    """The ``TlaconfG<k>Q`` operators: each rejected step's guard."""


def root_module(
    spec: ModuleSpec, bound: list[str], variables: tuple[str, ...], trace: Path,
    types: Mapping[str, Type], params: Mapping[str, Type], annotations: Mapping[str, Type],
    guards: Guards = NO_GUARDS,
) -> Root:  # fmt: skip
    """The root module for ``trace`` (see the module docstring), with the rejected steps'
    ``guards`` (:func:`~tlaconf.replay.apalache.enabling.state_guards`)."""
    decls = ",\n".join(f"  \\* @type: {type_text(types[v])};\n  {v}" for v in variables)
    binds = ", ".join(f"{c} <- {CONSTANT}{c}" for c in bound)
    unchanged = "UNCHANGED <<" + ", ".join(variables) + ">>"
    out = [
        f"---- MODULE {ROOT} ----",
        "EXTENDS Integers, Apalache",
        f"VARIABLES\n{decls},\n  \\* @type: Int;\n  {COUNTER}",
        *(_constant(spec, c, annotations.get(c)) for c in bound),
        f"INSTANCE {spec.name}" + (f" WITH {binds}" if binds else ""),
    ]
    pool = Pool()
    with open_trace(trace) as t:
        last = _literals(variables, types, t.initial, pool)
        out += pool.definitions()
        start = " /\\ ".join(f"{v} = {text}" for v, text in last.items())
        out.append(f"TlaconfInit == {COUNTER} = 0 /\\ {start}")
        disjuncts = [("TlaconfS0", f"{unchanged} /\\ UNCHANGED {COUNTER}")]
        checks: list[tuple[str, str]] = []
        tests: list[tuple[str, str]] = []
        used: set[str] = set()
        for k, step in enumerate(t.steps(), start=1):
            missing = [v for v in variables if v not in step.state]
            if missing:
                raise UserError(
                    f"line {step.line}: the state lacks variable(s) {', '.join(missing)}"
                )
            given = "" if step.action is None else pool.literal(step.params, params[step.action])
            out += pool.definitions()
            if step.action is not None and known(params[step.action]):
                # a row variable, a tuple or a sequence, an empty collection: pinned
                out.append(f"\\* @type: {type_text(params[step.action])};\n{PARAMS}{k} == {given}")
                given = f"{PARAMS}{k}"
            call = NEXT if step.action is None else f"{step.action}({given})"
            guard = f"{COUNTER} = {k - 1}"
            now = _literals(variables, types, step.state, pool)
            out += pool.definitions()
            checked_by_next = step.outcome == "accepted" and step.action is None
            pin = _pin(now, last, step.outcome == "rejected", assigned=checked_by_next)
            last = now
            take = f"{guard} /\\ {COUNTER}' = {k}"
            if checked_by_next:  # Next: a transition
                disjuncts.append((f"TlaconfS{k}", f"{take} /\\ {call} /\\ {pin}"))
            elif step.outcome == "accepted":
                disjuncts.append((f"TlaconfS{k}", f"{take} /\\ {pin}"))
                checks.append((f"{ACTION}{k}", call))
            else:
                disjuncts.append((f"TlaconfS{k}", f"{take} /\\ {pin}"))
                action = step.action
                if action is not None:
                    disjuncts.append((f"TlaconfE{k}", f"{guard} /\\ {COUNTER}' = -{k} /\\ {call}"))
                if action is not None and action in guards.bodies and known(params[action]):
                    used.add(action)
                    tests.append((f"{GUARD}{k}", f"{GUARD_OPERATOR}{action}({given})"))
    if used and guards.modules:  # the standard modules the guards name
        out[1] = f"EXTENDS Integers, {', '.join(guards.modules)}, Apalache"
    out += [f"\\* @type: ({type_text(params[a])}) => Bool;\n{GUARD_OPERATOR}{a}({PARAM}) == "
            f"{guards.bodies[a]}" for a in sorted(used)]  # fmt: skip
    out += [f"{label}Q == {body}" for label, body in disjuncts]
    out += [f"{label}Q == {label}:: ({call})" for label, call in checks + tests]
    out += [f"{INVARIANT}{i} == {INVARIANT_LABEL}{i}:: ({name})"
            for i, name in enumerate(spec.invariants)]  # fmt: skip
    listed = "\n".join(f"  \\/ {label}:: {label}Q" for label, _ in disjuncts)
    out.append("TlaconfNext ==\n" + listed)
    out.append("====")
    return Root("\n\n".join(out) + "\n", [f"{label}Q" for label, _ in checks],
                [f"{label}Q" for label, _ in tests])
