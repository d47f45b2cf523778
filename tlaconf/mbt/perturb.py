r"""Near-miss observations: the guards only what the implementation reports makes FALSE.

A guard on a field the implementation fills in (a view, a shuffle's order, a leak
check's worlds) is TRUE on every accepted step of a correct implementation, and no
request makes it FALSE: only a wrong report would.  What can be checked is the
harness's side of it, that a wrong report is refused and blamed on that guard.  For each
such guard never made FALSE by a rejected step, an accepted step the implementation took
is changed in one reported field (a one-edit neighbour of its value, or another value of
the field's set in ``Params_A``) until the walk of ``A(p)`` from its state before to its
state after makes that guard FALSE, and no other guard but those it lies under (the walk
that stops at the first FALSE guard, TLC's order, finds the same FALSE guards as the walk
that goes on past it): a **near-miss observation**.
It is checked as ``tlaconf replay`` checks a step: it must be rejected, and the blame
must lead to the guard: it names the guard, or stops at a formula the guard lies under
(an ``\E`` whose every witness failed names the quantifier), and names no guard the walk
found TRUE.  Then the guard is covered FALSE *by perturbation*; otherwise the check
failed: the step was accepted (the guard does not decide what it reads, as when another
disjunct admits the same step), or blamed on a guard that holds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tlaconf.evaluate.coverage import CoverageProbe, Key
from tlaconf.mbt.domains import Domains
from tlaconf.mbt.driver import plain
from tlaconf.mbt.machine import Session, State
from tlaconf.mbt.memo import value_key
from tlaconf.mbt.online import Taken
from tlaconf.replay import Replayer, get_backend
from tlaconf.replay.coverage import Coverage
from tlaconf.replay.result import BlameNode
from tlaconf.values import Fn, from_python

CANDIDATES = 64
"""Perturbed values tried per reported field of one step, at most."""

WALKS = 120
"""Walks of one action, at most, in the search for its near-miss observations (a walk of
an action comparing many worlds' views is costly)."""

Verdict = Literal["rejected", "accepted", "blamed elsewhere"]


@dataclass(frozen=True)
class Perturbed:
    """One near-miss observation and what the step check said of it."""

    action: str
    guard: Key
    field: str
    params: Fn
    verdict: Verdict
    """``rejected`` naming the guard (the check holds), else how it failed."""
    blamed: str
    """The location the check's blame named last (empty when accepted)."""
    named: bool = False
    """The blame names the guard itself (not only a formula it lies under)."""

    @property
    def holds(self) -> bool:
        return self.verdict == "rejected"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "guard": list(self.guard[:5]), "field": self.field,
                "verdict": self.verdict, "blamed": self.blamed, "named": self.named}


def neighbours(value: Any) -> Iterator[Any]:
    """One-edit neighbours of a TLA+ value: an integer one off, a Boolean negated, a
    sequence with an element dropped, two swapped or one changed, a set with an element
    dropped or changed, a function or record with one value changed.  The edits of a
    structure's parts are interleaved (each part's first edit, then each one's second, ...),
    so that a bounded look reaches every part."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value - 1
        yield value + 1
    elif isinstance(value, tuple):
        yield from (value[:i] + value[i + 1:] for i in range(len(value)))
        yield from ((*value[:i], value[i + 1], value[i], *value[i + 2:])
                    for i in range(len(value) - 1))
        yield from _interleave([((*value[:i], w, *value[i + 1:]) for w in neighbours(v))
                                for i, v in enumerate(value)])
    elif isinstance(value, frozenset):
        yield from (value - {v} for v in value)
        yield from _interleave([((value - {v}) | {w} for w in neighbours(v) if w not in value)
                                for v in value])
    elif isinstance(value, Fn):
        yield from _interleave([(Fn({**dict(value.items()), k: w}) for w in neighbours(v))
                                for k, v in value.items()])


def _interleave(parts: list[Iterator[Any]]) -> Iterator[Any]:
    """The first item of each part, then the second of each, ..."""
    while parts:
        alive = []
        for part in parts:
            item = next(part, _END)
            if item is not _END:
                alive.append(part)
                yield item
        parts = alive


_END = object()


def _tried(field: str, value: Any, domains: Domains, action: str,
           before: State) -> Iterator[Any]:  # fmt: skip
    seen = {value_key(value)}
    dom = domains.domain(action, before)
    from_set = dict(dom.fields or ()).get(field, ())
    n = 0
    for v in (*neighbours(value), *from_set):
        try:
            text = value_key(v)
        except ValueError:  # a set of values TLC cannot compare: no TLA+ value
            continue
        if text in seen:
            continue
        seen.add(text)
        yield v
        n += 1
        if n >= CANDIDATES:
            return


def _where(key: Key) -> tuple[str, int, int]:
    return Path(key[0]).name, key[1], key[2]


def _locations(node: BlameNode | None) -> Iterator[tuple[str, int, int]]:
    if node is None:
        return
    yield Path(node.file).name, node.line, node.col
    for c in node.children:
        yield from _locations(c)


class Perturber:
    """Near-miss observations of one run (see the module docstring)."""

    def __init__(self, session: Session, probe: CoverageProbe,
                 guards: Mapping[str, tuple[Key, ...]]) -> None:  # fmt: skip
        self.session = session
        self.probe = probe
        self.guards = guards
        self._replayer = Replayer(get_backend("embedded"))
        self._tmp = tempfile.TemporaryDirectory(prefix="tlaconf-perturb-")
        self._n = 0
        self._walks: dict[str, int] = {}

    def close(self) -> None:
        self._tmp.cleanup()

    def run(self, wanted: Mapping[str, set[Key]]) -> dict[tuple[str, Key], Perturbed]:
        """For each guard of ``wanted`` (per action: the guards never FALSE on a rejected
        step), the first near-miss observation found in the steps observed, checked."""
        out: dict[tuple[str, Key], Perturbed] = {}
        for action, open_ in wanted.items():
            for before, taken, fields in self.session.observed.get(action, {}).values():
                left = open_ - {g for a, g in out if a == action}
                if not left:
                    break
                for found in self._near_misses(action, before, taken, fields, left):
                    out[(action, found.guard)] = found
        return out

    def _near_misses(self, action: str, before: State, taken: Taken, fields: frozenset[str],
                     wanted: set[Key]) -> Iterator[Perturbed]:  # fmt: skip
        every = set(self.guards[action])
        params = from_python(dict(taken.params))
        done: set[Key] = set()
        for name in sorted(fields):
            for value in _tried(name, params[name], self.session.domains, action, before):
                if done >= wanted or self._walks.get(action, 0) >= WALKS:
                    return
                changed = Fn({**dict(params.items()), name: value})
                false = self._false(action, changed, before, taken, every, True)
                if not false or not false & wanted - done:
                    continue
                if self._false(action, changed, before, taken, every, False) != false:
                    continue
                for g in sorted(false & wanted - done):
                    done.add(g)
                    yield self._judge(action, g, name, changed, before, taken,
                                      every - false)

    def _false(self, action: str, params: Fn, before: State, taken: Taken, every: set[Key],
               through: bool) -> set[Key] | None:  # fmt: skip
        """The guards the walk of the accepted step with ``params`` found FALSE, walking on
        past a FALSE one (``through``) or stopping there (TLC's order: then only the
        chain of guards, each under the one before, that leads to the first FALSE);
        None when the walk cannot be made."""
        self._walks[action] = self._walks.get(action, 0) + 1
        try:
            _, noted = self.probe.step(action, (params,), before, taken.state, through)
        except Exception:
            return None
        return {g for g, v in noted if not v and g in every}

    def _judge(self, action: str, guard: Key, name: str, params: Fn, before: State,
               taken: Taken, holding: set[Key]) -> Perturbed:  # fmt: skip
        """The step check's verdict on the near-miss observation (``holding``: the guards
        its walk found TRUE)."""
        self._n += 1
        path = Path(self._tmp.name) / f"{self._n}.trace.jsonl"
        step = Taken(action, {**dict(taken.params), name: plain(params[name])}, "accepted",
                     taken.state)
        self.session.checker.write(path, before, (step,))
        try:
            result = self._replayer.replay(path, self.session.checker.spec_dir)
        finally:
            path.unlink()
        if result.verdict == "conforms" or result.failure is None:
            return Perturbed(action, guard, name, params, "accepted", "")
        blame = result.failure.blame
        blamed = set(_locations(blame))
        named = _where(guard) in blamed
        wrong = any(_where(g) in blamed for g in holding)
        where = blame.innermost().location if blame is not None else ""
        return Perturbed(action, guard, name, params,
                         "blamed elsewhere" if wrong else "rejected", where, named)


def perturb(session: Session, probe: CoverageProbe, guards: Mapping[str, tuple[Key, ...]],
            coverage: Coverage) -> dict[tuple[str, Key], Perturbed]:  # fmt: skip
    """The near-miss observations of the guards of ``session``'s module that ``coverage``
    has TRUE on an accepted step and never FALSE on a rejected one, in the actions whose
    reported fields the session observed."""
    wanted: dict[str, set[Key]] = {}
    for action in session.observed:
        ac = coverage.actions.get((session.driver.module, action))
        if ac is None:
            continue
        open_ = {g for g in guards.get(action, ())
                 if (pc := ac.points.get(g)) is not None
                 and pc.accepted_true and not pc.rejected_false}
        if open_:
            wanted[action] = open_
    if not wanted:
        return {}
    perturber = Perturber(session, probe, guards)
    try:
        return perturber.run(wanted)
    finally:
        perturber.close()
