"""Solving for directed requests: in one state, for each guard of an action, an allowed
request (every guard TRUE, ``ENABLED A(p)``) and a **near miss** (a forbidden request
whose only FALSE guard is that one: the request that tells an implementation which
check it skipped).

A guard is a conjunct of the action that reads the request (see
:func:`tlaconf.evaluate.coverage.outline`).  Which guards a request makes TRUE and FALSE
is the coverage walk of ``ENABLED A(p)``, walking on past a FALSE guard as if it were
TRUE, so that every guard is evaluated: a near miss is a request whose walk makes that
guard FALSE and no other.

:class:`Solver` is the seam: :class:`EnumerationSolver` looks at the requests of the
params domain: all of them up to :data:`ENUMERATION_LIMIT` requests (``ENABLED`` for
each, the guards walked for up to :data:`WALK_LIMIT` forbidden ones, the one-field
neighbours of allowed requests first); past that the domain is reported too large,
after a bounded look (:data:`SCAN_LIMIT` requests in a stride, and the neighbours of the
allowed ones met; when none is allowed, a climb from a forbidden one, a field at a
time, towards fewer FALSE guards).  :class:`~tlaconf.mbt.apalache_solver.ApalacheSolver`
asks Apalache for what that leaves open.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from tlaconf.evaluate.coverage import GUARD, CoverageProbe, Key
from tlaconf.mbt.boundary import Edge, edges
from tlaconf.mbt.domains import Domain, Domains, stride
from tlaconf.mbt.memo import value_key
from tlaconf.values import Fn

ENUMERATION_LIMIT = 600
"""Largest params domain (requests in one state) enumerated whole."""

SCAN_LIMIT = 300
"""Requests of a larger domain looked at (in a fixed stride) for allowed ones."""

WALK_LIMIT = 300
"""Forbidden requests walked for near misses, at most (in one state, for one action)."""

CLIMB_LIMIT = 300
"""Requests walked, at most, climbing towards an allowed request in a large domain."""

SEEDS = 4
"""Allowed requests whose one-field neighbours are tried as near misses."""

NOT_ASKED = "Apalache was not asked in this state"
"""How the reason begins when a symbolic solver was not asked (its budget spent)."""


@dataclass
class Solution:
    """What a solver found for one action in one state."""

    action: str
    domain: int
    """Requests in the params domain."""
    complete: bool
    """Every request of the domain was looked at (so what was not found does not exist):
    at most :data:`ENUMERATION_LIMIT` requests, :data:`WALK_LIMIT` of them walked."""
    allowed: dict[Key, Fn] = field(default_factory=dict)
    """guard -> an allowed request whose walk made it TRUE."""
    near_miss: dict[Key, Fn] = field(default_factory=dict)
    """guard -> a forbidden request whose walk made it, and only it, FALSE."""
    miss: dict[Key, Fn] = field(default_factory=dict)
    """guard -> a forbidden request whose walk made it FALSE (other guards too)."""
    closest: dict[Key, Fn] = field(default_factory=dict)
    """guard -> a forbidden request making it and at most one other guard FALSE, where no
    near miss exists (found by a symbolic solver)."""
    reached: set[Key] = field(default_factory=set)
    true: set[Key] = field(default_factory=set)
    enabled: list[Fn] = field(default_factory=list)
    """The allowed requests met (all of them when ``complete``)."""
    walks: int = 0
    decided: set[Key] = field(default_factory=set)
    """Guards a symbolic solver settled in this state although the domain was not
    enumerated (what it found checked, or none proved to exist)."""
    undecided: dict[Key, str] = field(default_factory=dict)
    """guard -> why a symbolic solver did not settle it in this state."""
    solved: set[tuple[Key, str]] = field(default_factory=set)
    """(guard, "allowed", "near miss" or "closest miss"): found by a symbolic solver."""
    solver_seconds: float = 0.0


class Solver(Protocol):
    """Finds directed requests for an action in a state (see the module docstring)."""

    name: str

    def guards(self, action: str) -> tuple[Key, ...]:
        """The action's guards, in walk order."""
        ...

    def solve(self, action: str, state: Mapping[str, Any], key: int,
              wanted: frozenset[Key] | None = None) -> Solution:  # fmt: skip
        """The directed requests of ``action`` in ``state`` (whose state key is ``key``);
        ``wanted``: the guards still looked for (default all; the others may be left out)."""
        ...

    def edges(self, action: str, state: Mapping[str, Any], key: int, seeds: list[Fn],
              wanted: frozenset[Key]) -> list[Edge]:  # fmt: skip
        """The boundary values of the ``wanted`` guards of ``action`` in ``state``, from
        the allowed requests ``seeds`` (see :mod:`tlaconf.mbt.boundary`)."""
        ...


class EnumerationSolver:
    """Directed requests by looking at the params domain's requests (see the module
    docstring)."""

    name = "enumeration"

    def __init__(self, domains: Domains, probe: CoverageProbe,
                 limit: int = ENUMERATION_LIMIT) -> None:  # fmt: skip
        self.domains = domains
        self.probe = probe
        self.limit = limit
        self._guards: dict[str, tuple[Key, ...]] = {}
        self._focus: dict[str, frozenset[Key]] = {}
        """Per action, its guards and the call sites leading to them: what a walk needs."""

    def guards(self, action: str) -> tuple[Key, ...]:
        found = self._guards.get(action)
        if found is None:
            leads: set[Key] = set()
            found = self._guards[action] = tuple(
                k for k, role in self.probe.points(action, leads).items() if role == GUARD)
            self._focus[action] = frozenset(found) | leads
        return found

    def solve(self, action: str, state: Mapping[str, Any], key: int,
              wanted: frozenset[Key] | None = None) -> Solution:  # fmt: skip
        dom = self.domains.domain(action, state, key)
        every = set(self.guards(action))
        guards = every if wanted is None else every & wanted
        complete = dom.count <= self.limit
        out = Solution(action, dom.count, complete)
        seen: set[int] = set()
        allowed: list[Fn] = []
        forbidden: list[Fn] = []
        for params in _candidates(dom, complete):
            text = value_key(params)
            if text in seen:
                continue
            seen.add(text)
            ok = self.domains.allowed(action, params, state, key)
            (allowed if ok else forbidden).append(params)
        if not allowed and not complete and forbidden and dom.fields is not None and guards:
            found = self._climb(out, dom, forbidden[0], state, key, every, guards)
            if found is not None:
                allowed.append(found)
        out.enabled = allowed
        for params in allowed:
            if guards <= out.allowed.keys():
                break
            for g, value in self._walk(out, action, params, state):
                if value and g in guards:
                    out.allowed.setdefault(g, params)
        order = self._forbidden_order(dom, allowed, forbidden, seen, action, state, key)
        for n, params in enumerate(order):
            if guards <= out.near_miss.keys():
                break
            if n >= WALK_LIMIT:
                out.complete = False
                break
            self._false(out, params, state, every, guards)
        return out

    def edges(self, action: str, state: Mapping[str, Any], key: int, seeds: list[Fn],
              wanted: frozenset[Key]) -> list[Edge]:  # fmt: skip
        dom = self.domains.domain(action, state, key)
        scratch = Solution(action, dom.count, False)
        found: list[Edge] = []
        for seed in seeds:
            left = wanted - {e.guard for e in found}
            found += edges(dom, seed, lambda p: self._walk(scratch, action, p, state, True),
                           left)
        return found

    def _false(self, out: Solution, params: Fn, state: Mapping[str, Any], every: set[Key],
               guards: set[Key]) -> set[Key]:  # fmt: skip
        """The guards ``params`` makes FALSE (walking through, so every guard is
        evaluated); a miss and, when it is the only one, a near miss noted for each."""
        noted = self._walk(out, out.action, params, state, through=True)
        false = {g for g, value in noted if not value and g in every}
        for g in false & guards:
            out.miss.setdefault(g, params)
            if len(false) == 1:
                out.near_miss.setdefault(g, params)
        return false

    def _climb(self, out: Solution, dom: Domain, start: Fn, state: Mapping[str, Any],
               key: int, every: set[Key], guards: set[Key]) -> Fn | None:  # fmt: skip
        """From ``start``, one field at a time towards fewer FALSE guards (what a large
        domain's stride met may hold no allowed request); the allowed request reached, if
        any, within :data:`CLIMB_LIMIT` walks.  Every request walked is a candidate miss."""
        current, false = start, self._false(out, start, state, every, guards)
        walks = 0
        while false and walks < CLIMB_LIMIT:
            best, fewest = None, false
            for f, size in enumerate(dom.sizes()):
                for v in range(size):
                    candidate = dom.changed(current, f, v)
                    walks += 1
                    now = self._false(out, candidate, state, every, guards)
                    if not now and self.domains.allowed(out.action, candidate, state, key):
                        return candidate
                    if len(now) < len(fewest):
                        best, fewest = candidate, now
            if best is None:
                return None
            current, false = best, fewest
        return None

    def _walk(self, out: Solution, action: str, params: Fn, state: Mapping[str, Any],
              through: bool = False) -> set[tuple[Key, bool]]:  # fmt: skip
        """The guards the walk of ``ENABLED action(params)`` noted; ``through``: walking on
        past a FALSE guard (as if TRUE), so that every guard is evaluated (a walk that
        cannot go on past one keeps what it noted before)."""
        self.guards(action)
        focus = self._focus[action]
        try:
            _, noted = self.probe.step(action, (params,), state, None, through, focus)
        except Exception:
            if not through:
                raise
            _, noted = self.probe.step(action, (params,), state, None, False, focus)
        out.walks += 1
        for g, value in noted:
            out.reached.add(g)
            if value:
                out.true.add(g)
        return noted

    def _forbidden_order(self, dom: Domain, allowed: list[Fn], forbidden: list[Fn],
                         seen: set[int], action: str, state: Mapping[str, Any],
                         key: int) -> Iterator[Fn]:  # fmt: skip
        """Forbidden requests, the one-field neighbours of allowed ones first (most
        likely to break a single guard), then the others met."""
        done: set[int] = set()
        for seed in allowed[:SEEDS]:
            for f, size in enumerate(dom.sizes() if dom.fields is not None else ()):
                for v in range(size):
                    params = dom.changed(seed, f, v)
                    text = value_key(params)
                    if text in done:
                        continue
                    done.add(text)
                    if text not in seen and self.domains.allowed(action, params, state, key):
                        continue
                    yield params
        for params in forbidden:
            if value_key(params) not in done:
                yield params


def _candidates(dom: Domain, complete: bool) -> Iterator[Fn]:
    """Every request of ``dom`` when ``complete``, else :data:`SCAN_LIMIT` of them in a
    fixed stride through the domain."""
    if complete:
        for i in range(dom.count):
            yield dom.nth(i)
        return
    step = stride(dom.count)
    for i in range(SCAN_LIMIT):
        yield dom.nth((i * step) % dom.count)

