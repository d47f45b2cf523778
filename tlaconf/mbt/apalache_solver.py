"""Directed requests solved by Apalache where a params domain is too large to enumerate.

:class:`ApalacheSolver` enumerates as :class:`~tlaconf.mbt.solver.EnumerationSolver`
does; where that is incomplete (a domain of more than
:data:`~tlaconf.mbt.solver.ENUMERATION_LIMIT` requests) and a guard still lacks an
allowed request or a near miss, it asks Apalache's explorer server, in one session for
the state (:mod:`tlaconf.replay.apalache.solving`), the current state assumed:

* **allowed**: every conjunct of the action's conjunction (those Apalache can be told);
* for each guard ``g`` still open, a **near miss**: ``~g`` and every other guard of the
  action (not those ``g`` lies inside or that lie inside ``g``); and **TRUE**: ``g``
  alone (when no request makes it TRUE, it is dead in that state);
* where no near miss exists, in a second session, the **closest miss**: ``g`` FALSE and
  at most one other guard.

A request Apalache finds is checked as any other: ``ENABLED`` and the guards' walk of
the embedded evaluator classify it (a near miss whose walk finds another guard FALSE,
one the query could not state, is a miss).  "None" from Apalache is a proof for that
state; a question Apalache does not decide in time (``timeout`` seconds per state and
action) is reported as undecided, with why, never guessed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from tlaconf.evaluate.coverage import Key
from tlaconf.mbt.boundary import Edge
from tlaconf.mbt.domains import Domain
from tlaconf.mbt.memo import value_key
from tlaconf.mbt.solver import NOT_ASKED, EnumerationSolver, Solution
from tlaconf.replay.apalache.guard_texts import Conjunct, Where, by_where
from tlaconf.replay.apalache.server import Client, Server, find_apalache
from tlaconf.replay.apalache.solving import Answer, Question, Solving
from tlaconf.values import Fn

DEFAULT_TIMEOUT = 120.0
"""Seconds Apalache gets per state and action (loading the modules and every question)."""

PATIENCE = 2
"""Apalache is asked about an action no more once this many of its sessions in a row
(each a state) settled nothing new: a session costs its loading (tens of seconds)."""

SPENT = NOT_ASKED + ": {n} sessions in a row had settled nothing new for this action"

NO_TEXT = "Apalache was not asked: the guard reads the next state or names what it cannot"
NOT_CHAINED = ("Apalache was not asked: the guard is not in the action's chain of "
               "conjunctions (it is under a disjunction, a quantifier, an IF or a CASE)")


class Connection:
    """Clients of one Apalache server: ``APALACHE_SERVER``'s, else one started on first use
    (restarted after one that gave no answer) and stopped by :meth:`close` (or at exit)."""

    _shared: ClassVar[dict[tuple[str | None, str | None], Connection]] = {}

    def __init__(self) -> None:
        self._url, self._executable = find_apalache()
        self._server: Server | None = None

    @classmethod
    def shared(cls) -> Connection:
        """The connection of this process to the Apalache found now (one server serves every
        driver of a run: starting one takes seconds)."""
        found = cls()
        return cls._shared.setdefault((found._url, found._executable), found)

    def __call__(self, limit: float) -> Client:
        if self._url is not None:
            return Client(self._url, limit)
        if self._server is None or not self._server.running:
            self.close()
            assert self._executable is not None
            self._server = Server(self._executable)
        return Client(self._server.url, limit)

    def done(self, client: Client) -> None:
        if client.hung:
            self.close()

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


def _where(key: Key) -> Where:
    return (str(Path(key[0]).resolve()), key[1], key[2], key[3], key[4])


class ApalacheSolver:
    """Enumeration, then Apalache for the large domains (see the module docstring)."""

    name = "apalache"

    def __init__(self, enumeration: EnumerationSolver, solving: Solving,
                 connect: Callable[[float], Client], timeout: float = DEFAULT_TIMEOUT,
                 done: Callable[[Client], None] | None = None) -> None:  # fmt: skip
        self.enumeration = enumeration
        self.solving = solving
        self.connect = connect
        self.timeout = timeout
        self._done = done
        self.calls = 0
        self.seconds = 0.0
        self._idle: dict[str, int] = {}
        self._known: dict[str, set[tuple[Key, str]]] = {}
        """Per action, what its sessions settled: (guard, what) found or proved absent."""

    def guards(self, action: str) -> tuple[Key, ...]:
        return self.enumeration.guards(action)

    def edges(self, action: str, state: Mapping[str, Any], key: int, seeds: list[Fn],
              wanted: frozenset[Key]) -> list[Edge]:  # fmt: skip
        """Boundary values come from the domain's own values: enumeration's."""
        return self.enumeration.edges(action, state, key, seeds, wanted)

    def solve(self, action: str, state: Mapping[str, Any], key: int,
              wanted: frozenset[Key] | None = None) -> Solution:  # fmt: skip
        out = self.enumeration.solve(action, state, key, wanted)
        if out.complete:
            return out
        open_ = [g for g in self.guards(action) if (wanted is None or g in wanted)
                 and not (g in out.allowed and g in out.near_miss)]  # fmt: skip
        if not open_:
            return out
        if self._idle.get(action, 0) >= PATIENCE:
            for g in open_:
                out.undecided[g] = SPENT.format(n=PATIENCE)
            return out
        known = self._known.setdefault(action, set())
        before = len(known)
        self._ask(out, action, state, key, open_)
        known |= out.solved | {(g, "settled") for g in out.decided}
        self._idle[action] = 0 if len(known) > before else self._idle.get(action, 0) + 1
        return out

    def _conjuncts(self, action: str) -> dict[Where, Conjunct]:
        return by_where(self.solving.conjuncts(action).conjuncts)

    def _ask(self, out: Solution, action: str, state: Mapping[str, Any], key: int,
             open_: list[Key]) -> None:  # fmt: skip
        chain = self._conjuncts(action)
        every = self.guards(action)
        stated = {g: chain[w] for g in every if (w := _where(g)) in chain and chain[w].text}
        questions = [Question(" /\\ ".join(f"({c.text})" for c in chain.values() if c.text))]
        asked: dict[int, tuple[Key, str]] = {}
        for g in open_:
            if g not in stated:
                out.undecided[g] = NOT_CHAINED if _where(g) not in chain else NO_TEXT
                continue
            asked[len(questions)] = (g, "near miss")
            questions.append(Question(_without(stated, g)))
            asked[len(questions)] = (g, "true")
            questions.append(Question(f"{stated[g].text}"))
        if len(questions) == 1:
            return
        dom = self.enumeration.domains.domain(action, state, key)
        answer = self._session(out, action, state, dom, questions)
        self._learn(out, action, state, key, dom, answer, asked)
        alone = [g for i, (g, kind) in asked.items() if kind == "near miss" and i in answer.none]
        if alone:
            self._closest(out, action, state, key, dom, stated, alone)

    def _session(self, out: Solution, action: str, state: Mapping[str, Any], dom: Domain,
                 questions: list[Question]) -> Answer:  # fmt: skip
        client = self.connect(self.timeout)
        answer = self.solving.ask(client, action, state, dom.fields, dom.records, questions)
        if self._done is not None:
            self._done(client)
        self.calls += 1
        self.seconds += answer.seconds
        out.solver_seconds += answer.seconds
        return answer

    def _closest(self, out: Solution, action: str, state: Mapping[str, Any], key: int,
                 dom: Domain, stated: dict[Key, Conjunct], alone: list[Key]) -> None:  # fmt: skip
        """For each guard no near miss exists for, the closest miss: a request breaking it
        and at most one other guard (``~g``, and at most one of the innermost other guards
        FALSE), asked in a second session, and sent besides the miss enumeration found
        (an implementation that skips the check of ``g`` may still refuse it for the other
        guard, but nothing closer exists)."""
        answer = self._session(out, action, state, dom,
                               [Question(_closest(stated, g)) for g in alone])
        every = set(self.guards(action))
        en = self.enumeration
        for i, g in enumerate(alone):
            params = _in_domain(dom, answer.found[i]) if i in answer.found else None
            if params is None or en.domains.allowed(action, params, state, key):
                continue
            if g in en._false(out, params, state, every, every):
                out.closest[g] = params
                out.solved.add((g, "closest miss"))

    def _learn(self, out: Solution, action: str, state: Mapping[str, Any], key: int,
               dom: Domain, answer: Answer, asked: dict[int, tuple[Key, str]]) -> None:  # fmt: skip
        every = set(self.guards(action))
        start = time.perf_counter()
        allowed_none = 0 in answer.none
        if 0 in answer.found:
            self._try(out, action, dom, answer.found[0], state, key, every)
        for i, (g, kind) in asked.items():
            if i in answer.undecided or 0 in answer.undecided:
                out.undecided[g] = answer.undecided.get(i) or answer.undecided[0]
                continue
            if i in answer.found:
                params = self._try(out, action, dom, answer.found[i], state, key, every)
                if params is None:
                    out.undecided[g] = "Apalache answered a request outside the params domain"
                    continue
                if kind == "near miss" and g not in out.near_miss:
                    out.undecided[g] = ("Apalache's near miss breaks another guard too (one "
                                        "its query could not state)")
                    continue
                if kind == "near miss":
                    out.solved.add((g, "near miss"))
            if g in out.allowed:
                out.solved.add((g, "allowed"))
            settled = all(j in answer.found or j in answer.none
                          for j, (h, _) in asked.items() if h == g)  # fmt: skip
            if settled and (allowed_none or 0 in answer.found) and g not in out.undecided:
                out.decided.add(g)
        out.solver_seconds += time.perf_counter() - start

    def _try(self, out: Solution, action: str, dom: Domain, found: Any,
             state: Mapping[str, Any], key: int, every: set[Key]) -> Fn | None:  # fmt: skip
        """Check a request Apalache found as any other (ENABLED, then the guards' walk);
        None when it is not a request of the domain."""
        params = _in_domain(dom, found)
        if params is None:
            return None
        en = self.enumeration
        if en.domains.allowed(action, params, state, key):
            if all(value_key(p) != value_key(params) for p in out.enabled):
                out.enabled.append(params)
            for g, value in en._walk(out, action, params, state):
                if value and g in every:
                    out.allowed.setdefault(g, params)
        else:
            en._false(out, params, state, every, every)
        return params


def _without(stated: dict[Key, Conjunct], g: Key) -> str:
    """``~g`` and every other stated guard but those ``g`` lies inside or holds."""
    mine = stated[g]
    others = [c for k, c in stated.items() if k != g and c.where not in mine.inside
              and mine.where not in c.inside]  # fmt: skip
    return " /\\ ".join([f"~({mine.text})", *(f"({c.text})" for c in others)])


def _closest(stated: dict[Key, Conjunct], g: Key) -> str:
    """``~g`` and at most one other innermost guard FALSE (one with no stated guard inside
    it; not one ``g`` lies inside or holds)."""
    mine = stated[g]
    holders = {w for c in stated.values() for w in c.inside}
    leaves = [c for k, c in stated.items() if k != g and c.where not in holders
              and c.where not in mine.inside and mine.where not in c.inside]  # fmt: skip
    count = " + ".join(f"(IF ({c.text}) THEN 0 ELSE 1)" for c in leaves) or "0"
    return f"~({mine.text}) /\\ ({count}) <= 1"


def _in_domain(dom: Domain, found: Any) -> Fn | None:
    """``found`` as the domain's request (fields in the domain's order), or None."""
    if dom.records is not None:
        text = value_key(found)
        return next((r for r in dom.records if value_key(r) == text), None)
    assert dom.fields is not None
    if type(found) is not Fn or set(found) != {name for name, _ in dom.fields}:
        return None
    for name, values in dom.fields:
        text = value_key(found[name])
        if all(value_key(v) != text for v in values):
            return None
    return Fn({name: found[name] for name, _ in dom.fields})
