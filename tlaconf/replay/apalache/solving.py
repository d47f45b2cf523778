"""Asking Apalache's explorer server for requests: the state given, the params free.

For one action ``A`` of the conformance module ``M``, one state ``s`` and one params
domain, :meth:`Solving.ask` loads the root module ``TlaconfSolve``, which declares
``M``'s variables and the params ``tlaconf_p`` (typed from the annotations, then from
the state and the domain's values) and defines

* ``TlaconfInit``: the variables equal to ``s``, and ``tlaconf_p`` any request of the
  domain (``\\E tlaconf_f0 \\in S0 : ... tlaconf_p = [f0 |-> tlaconf_f0, ...]`` for a
  record of sets, each set a literal or ``lo..hi``; ``tlaconf_p \\in {...}`` for a set of
  records);
* ``TlaconfNext``: nothing changes;
* for each question ``Q`` (a formula over the variables and ``tlaconf_p``), the STATE
  invariant ``TlaconfQ<i>:: (~(Q))``.

After ``Init`` and ``nextStep``, each invariant is checked: VIOLATED comes with a trace
whose last state holds a request satisfying ``Q`` (the **model**); SATISFIED proves that
no request of the domain satisfies ``Q`` in ``s``; UNKNOWN, or no answer within the time
limit, leaves ``Q`` undecided, with the reason.  Apalache may split an invariant into
conjuncts (one invariant each, with the label): ``Q`` is then satisfiable when one of
them is violated.  A module Apalache cannot load (a type error) leaves every question
undecided, with Apalache's message.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.apalache.bundle import read_bundle, read_types
from tlaconf.replay.apalache.enabling import PARAM
from tlaconf.replay.apalache.guard_texts import ActionConjuncts, action_conjuncts
from tlaconf.replay.apalache.root import _constant
from tlaconf.replay.apalache.server import Client
from tlaconf.replay.apalache.shared import Pool
from tlaconf.replay.apalache.types import Type, TypeBook, type_text
from tlaconf.replay.backend import LoadedModule
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.values import Fn
from tlaconf.values.itf import ITFDecodeError, decode

ROOT = "TlaconfSolve"
LABEL = "TlaconfQ"
FIELD = "tlaconf_f"
SAMPLE = 20
"""Values of each field typed (the first ones; one type per field)."""

Fields = tuple[tuple[str, tuple[Any, ...]], ...]


@dataclass(frozen=True)
class Question:
    """A formula over the state variables and :data:`PARAM` (the request)."""

    formula: str


@dataclass
class Answer:
    """What Apalache said of each question (by its index)."""

    found: dict[int, Any] = field(default_factory=dict)
    """A request satisfying the question (the params record of the model)."""
    none: set[int] = field(default_factory=set)
    """Proved: no request of the domain satisfies it in the state."""
    undecided: dict[int, str] = field(default_factory=dict)
    """Why Apalache did not decide it."""
    seconds: float = 0.0


class Solving:
    """The conformance module ``spec`` (loaded as ``module``) made ready for questions."""

    def __init__(self, spec: ModuleSpec, module: LoadedModule) -> None:
        self.spec = spec
        self.variables = tuple(module.variables)
        self.typing = read_types(spec)
        annotations = {c: t for m in self.typing.modules.values() for c, t in m.items()
                       if c in spec.constants}  # fmt: skip
        annotations.update(self.typing.of(spec.name))
        self.annotations: dict[str, Type] = annotations
        evaluate = getattr(module, "constant", None)
        if evaluate is None:
            raise UserError("solving with Apalache needs the embedded evaluator's module load")
        self._evaluate = evaluate
        declared = getattr(module, "constants", frozenset(spec.constants))
        self.bound = sorted(c for c in spec.constants if c in declared)
        self._conjuncts: dict[str, ActionConjuncts] = {}

    def conjuncts(self, action: str) -> ActionConjuncts:
        """The action's conjuncts as text (see :mod:`.guard_texts`)."""
        found = self._conjuncts.get(action)
        if found is None:
            found = self._conjuncts[action] = action_conjuncts(self.spec, action, self.variables)
        return found

    def params_type(self, action: str, fields: Fields | None,
                    records: Sequence[Any] | None) -> Type:  # fmt: skip
        """The type of the action's params: its annotation, else the domain's values."""
        note = self.annotations.get(action)
        fixed = {"p": note[1][0]} if note is not None and note[0] == "Oper" else {}
        book = TypeBook(fixed)
        if records is not None:
            samples = list(records[:SAMPLE])
        else:
            assert fields is not None
            longest = max((len(values) for _, values in fields), default=0)
            samples = [Fn({name: values[min(i, len(values) - 1)] for name, values in fields})
                       for i in range(min(SAMPLE, longest))]  # fmt: skip
        for value in samples:
            book.observe("p", value, 0, f"the params of {action}", record=True)
        return book.types.get("p")

    def root(self, action: str, state: Mapping[str, Any], fields: Fields | None,
             records: Sequence[Any] | None,
             questions: Sequence[Question]) -> tuple[str, ...]:  # fmt: skip
        """The texts to load: the root module (see the module docstring), then the bundle."""
        ptype = self.params_type(action, fields, records)
        book = TypeBook({v: self.annotations[v] for v in self.variables
                         if self.annotations.get(v) is not None})  # fmt: skip
        for v in self.variables:
            book.observe(v, state[v], 0, f"variable {v}")
        types = {v: book.types.get(v) for v in self.variables}
        bundle = read_bundle(self.spec, {action}, self._evaluate, {action: ptype}, self.typing)
        modules = self.conjuncts(action).modules
        decls = ",\n".join(f"  \\* @type: {type_text(types[v])};\n  {v}" for v in self.variables)
        binds = ", ".join(f"{c} <- TlaconfConst_{c}" for c in self.bound)
        pool = Pool()
        pinned = " /\\ ".join(f"{v} = {pool.literal(state[v], types[v])}" for v in self.variables)
        chosen = _domain(ptype, fields, records, pool)
        out = [
            f"---- MODULE {ROOT} ----",
            f"EXTENDS {', '.join(('Integers', *modules, 'Apalache'))}",
            f"VARIABLES\n{decls},\n  \\* @type: {type_text(ptype)};\n  {PARAM}",
            *(_constant(self.spec, c, self.annotations.get(c)) for c in self.bound),
            f"INSTANCE {self.spec.name}" + (f" WITH {binds}" if binds else ""),
            *pool.definitions(),
            f"TlaconfInit ==\n  /\\ {pinned}\n  /\\ {chosen}" if pinned
            else f"TlaconfInit == {chosen}",
            f"TlaconfNext == UNCHANGED <<{', '.join((*self.variables, PARAM))}>>",
            *(f"{LABEL}{i}Q == {LABEL}{i}:: (~({q.formula}))" for i, q in enumerate(questions)),
            "====",
        ]
        return ("\n\n".join(out) + "\n", *bundle.texts)

    def ask(self, client: Client, action: str, state: Mapping[str, Any], fields: Fields | None,
            records: Sequence[Any] | None, questions: Sequence[Question]) -> Answer:  # fmt: skip
        """Each question asked of one session on ``client`` (see the module docstring);
        the client is disposed of afterwards."""
        start = time.perf_counter()
        out = Answer()
        left = set(range(len(questions)))
        try:
            texts = self.root(action, state, fields, records, questions)
            client.doing = f"loading the modules to solve for {action}'s requests"
            params = client.load(texts, [f"{LABEL}{i}Q" for i in range(len(questions))])
            labelled: dict[int, list[int]] = {}
            for t in params.get("stateInvariants", []):
                for label in t.get("labels", ()):
                    if label.startswith(LABEL) and label[len(LABEL):].isdigit():
                        labelled.setdefault(int(label[len(LABEL):]), []).append(int(t["index"]))
            init = [int(t["index"]) for t in params.get("initTransitions", [])]
            if not init or client.status("assumeTransition", "taking the state and a request",
                                         transitionId=init[0], checkEnabled=True) != "ENABLED":
                raise CheckerFailed("Apalache finds no request of the domain in the state")
            client.step("taking the state and a request")
            for i in sorted(left):
                self._one(client, i, labelled.get(i, []), out)
                left.discard(i)
        except (CheckerFailed, UserError) as err:
            for i in left:
                out.undecided.setdefault(i, str(err))
        finally:
            client.dispose()
            out.seconds = time.perf_counter() - start
        return out

    def _one(self, client: Client, i: int, ids: list[int], out: Answer) -> None:
        if not ids:
            out.undecided[i] = f"Apalache lists no invariant labelled {LABEL}{i}"
            return
        for invariant in ids:
            client.doing = f"solving question {i}"
            result = client.call("checkInvariant", invariantId=invariant, kind="STATE")
            status = result.get("invariantStatus")
            if status == "VIOLATED":
                try:
                    out.found[i] = _model(result.get("trace"))
                except CheckerFailed as err:
                    out.undecided[i] = str(err)
                return
            if status != "SATISFIED":
                out.undecided[i] = (f"Apalache answered {status} (the solver found no answer "
                                    f"within the time limit of {client.limit:g} s)")
                return
        out.none.add(i)


def _domain(ptype: Type, fields: Fields | None, records: Sequence[Any] | None,
            pool: Pool) -> str:  # fmt: skip
    """``tlaconf_p`` chosen from the domain (see the module docstring)."""
    if records is not None:
        return f"{PARAM} \\in {pool.literal(frozenset(records), ('Set', ptype))}"
    assert fields is not None and ptype is not None and ptype[0] == "Rec"
    types = dict(ptype[1])
    names = [f"{FIELD}{i}" for i in range(len(fields))]
    record = ", ".join(f"{name} |-> {n}" for (name, _), n in zip(fields, names, strict=True))
    text = f"{PARAM} = [{record}]"
    for (name, values), n in reversed(list(zip(fields, names, strict=True))):
        text = f"\\E {n} \\in {_set(values, types[name], pool)} : {text}"
    return text


def _set(values: tuple[Any, ...], t: Type, pool: Pool) -> str:
    """A field's values as a set literal (``lo..hi`` when they are consecutive integers)."""
    if values and all(type(v) is int for v in values):
        lo, hi = min(values), max(values)
        if hi - lo + 1 == len(set(values)) == len(values):
            return f"({lo})..({hi})"
    return pool.literal(frozenset(values), ("Set", t))


def _model(trace: Any) -> Any:
    """The request in the last state of an ITF trace (CheckerFailed when there is none)."""
    try:
        state = trace["states"][-1]
        return decode(state[PARAM], PARAM)
    except (TypeError, KeyError, IndexError, ITFDecodeError) as err:
        raise CheckerFailed(f"Apalache's counterexample holds no request ({err})") from None
