"""The one search core: a model's states, each stored once under its fingerprint, found
breadth first (level by level, as TLC's model checker), depth first, or along random
walks, with observers (:mod:`tlaconf.explore.hooks`) riding the search.

Every mode takes a step the same way (:meth:`Engine._step`): the state's successors,
those that satisfy every ``CONSTRAINT`` and ``ACTION_CONSTRAINT``, their fingerprints
(:meth:`Model.fingerprint`: ``VIEW``, ``SYMMETRY``, kinds apart), the new ones recorded
with their parent and label and checked against the invariants.  A state without any
successor is a deadlock (unless ``CHECK_DEADLOCK FALSE``).  Counts are TLC's:
``total_states`` every state generated, ``distinct_states`` the new ones.

A hook, an invariant or a deadlock ends the search with :class:`Stop`; a bound (depth,
distinct states, seconds) ends it incomplete (:attr:`Result.bound` says which).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from tlaconf.explore.adapter import Label
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.hooks import Hooks, State, StateId, Stop
from tlaconf.explore.model import Model, Transition
from tlaconf.explore.result import Result, Step, Violation

Progress = Callable[[Result, int], None]
"""Called now and then with the counts so far and the number of states queued."""
_EVERY = 2000


class Bound(Exception):
    """A bound (``"depth"``, ``"states"``, ``"seconds"``) cut the search at ``level``."""

    def __init__(self, which: str, level: int) -> None:
        super().__init__(which)
        self.which = which
        self.level = level


class Space(Protocol):
    """What the engine searches: a :class:`Model`, or any state space answering the
    same calls (partial-trace replay's silent steps are one)."""

    check_deadlock: bool

    def initial_states(self) -> list[State]: ...

    def successors(self, state: Mapping[str, Any]) -> list[Transition]: ...

    def in_constraints(self, state: Mapping[str, Any]) -> bool: ...

    def action_allowed(self, state: Mapping[str, Any], nxt: Mapping[str, Any]) -> bool: ...

    def violated_invariant(self, state: Mapping[str, Any]) -> str | None: ...

    def fingerprint(self, state: Mapping[str, Any]) -> int: ...

    def guard(self) -> Any: ...


class Found(Exception):
    """The engine found an invariant FALSE (``kind`` "invariant", ``name`` it) or a
    deadlock in the state ``sid``; with ``last``, the invariant is FALSE in a state the
    constraints exclude (never recorded), reached by the step ``last`` from ``sid`` (None:
    an initial state)."""

    def __init__(self, kind: str, name: str, sid: StateId | None,
                 last: Step | None = None) -> None:
        super().__init__(kind)
        self.kind, self.name, self.sid, self.last = kind, name, sid, last


class Engine:
    """One search of ``model``: ``bfs()``, ``dfs()`` or ``walks(...)`` (once each engine).

    ``max_depth`` levels (states along a path) are explored, at most ``max_states``
    distinct states are held and ``max_seconds`` spent (None: no bound)."""

    def __init__(self, model: Space, hooks: Sequence[Hooks] = (), *,
                 max_depth: int | None = None, max_states: int | None = None,
                 max_seconds: float | None = None, progress: Progress | None = None) -> None:
        self.model = model
        self.max_depth = max_depth
        self.max_states = max_states
        self.max_seconds = max_seconds
        self.progress = progress
        self.result = Result()
        self.level = 0
        """The level being expanded (or, before any, 1 while initial states are found)."""
        self.frontier: list[StateId] = []
        """The states of the level expanded last (breadth first): where the search ended."""
        self._seen: dict[StateId, tuple[StateId | None, Label | None, State, int]] = {}
        own = getattr(model, "hooks", None)  # what the model's .cfg needs (PROPERTY)
        self._hooks = (*hooks, *(own() if own is not None else ()))
        self._on = {name: [getattr(h, name) for h in self._hooks
                           if getattr(type(h), name) is not getattr(Hooks, name)]
                    for name in ("initial", "transition", "dead_end", "level_done",
                                 "finished", "evaluating", "level_begins", "halts", "expanding",
                                 "excluded")}
        self._fp = model.fingerprint
        self._start = time.perf_counter()
        self._deadline: float | None = None

    # ------------------------------------------------------------------ the store

    def state(self, sid: StateId) -> State:
        """The state ``sid`` (stored once)."""
        return self._seen[sid][2]

    def level_of(self, sid: StateId) -> int:
        """The level at which ``sid`` was first found (an initial state: 1)."""
        return self._seen[sid][3]

    def record(self, sid: StateId) -> tuple[StateId | None, Label | None, State]:
        """How ``sid`` was first found: (parent id, label, state); (None, None, state)
        for an initial state."""
        parent, label, state, _ = self._seen[sid]
        return parent, label, state

    def __iter__(self) -> Iterator[StateId]:
        """The ids of the states found, in the order they were found."""
        return iter(self._seen)

    def __contains__(self, sid: StateId) -> bool:
        return sid in self._seen

    def __len__(self) -> int:
        return len(self._seen)

    def ids(self, sid: StateId) -> tuple[StateId, ...]:
        """The ids of the states on the path by which ``sid`` was found."""
        out: list[StateId] = []
        k: StateId | None = sid
        while k is not None:
            out.append(k)
            k = self._seen[k][0]
        return tuple(reversed(out))

    def path(self, sid: StateId) -> tuple[Step, ...]:
        """The path by which ``sid`` was first found, from an initial state, labelled
        (breadth first: a shortest one)."""
        return tuple(Step(self._seen[k][1], self._seen[k][2]) for k in self.ids(sid))

    def steps(self, ids: Sequence[StateId]) -> tuple[Step, ...]:
        """The behaviour through the states ``ids``, each step labelled with an action
        that takes it, re-derived from the successor relation (under ``SYMMETRY`` or
        ``VIEW`` each state is the successor of the one before with that identity)."""
        if not ids:
            return ()
        state = self.state(ids[0])
        out = [Step(None, state)]
        for sid in ids[1:]:
            with self.model.guard():
                t = next((t for t in self.model.successors(state)
                          if self._fp(t.state) == sid), None)
            if t is None:
                raise ValueError(f"no step of the model leads to state {sid:#x} from the "
                                 "state before it in the path")
            state = t.state
            out.append(Step(t.label, state))
        return tuple(out)

    # ------------------------------------------------------------------ searches

    def bfs(self) -> Result:
        """Breadth first, level by level: the first violation found has a shortest path."""
        return self._search(self._bfs)

    def dfs(self) -> Result:
        """Depth first (a successor's successors before its siblings)."""
        return self._search(self._dfs)

    def walks(self, n: int, depth: int, seed: int) -> Result:
        """``n`` seeded random walks of at most ``depth`` states each: from a random
        initial state, a random successor at every step.  A walk stops at ``depth``, at a
        state all of whose successors the constraints exclude, or at a violation (every
        successor of a state walked through is generated and checked, as in TLC's
        simulation); ``distinct_states`` counts them over all walks, ``depth`` is the
        longest walk."""
        if getattr(self.model, "properties", None) is not None:
            where = getattr(self.model, "cfg", None)
            raise Unsupported("random walks do not check PROPERTY lines (a liveness property "
                              "needs the whole state graph): search breadth-first, or give "
                              "--skip-properties",
                              str(getattr(where, "path", None) or getattr(self.model, "tla", "")))
        self.result.complete = False
        return self._search(lambda: self._walks(n, depth, random.Random(seed)))

    # ------------------------------------------------------------------ internals

    def _search(self, run: Callable[[], None]) -> Result:
        self._start = time.perf_counter()
        if self.max_seconds is not None:
            self._deadline = self._start + self.max_seconds
        res = self.result
        try:
            try:
                run()
            except Bound as cut:
                res.complete = False
                res.bound = cut.which
                res.bound_level = cut.level
                self._finished(False)
            else:
                self._finished(res.complete)
        except Found as found:
            res.result = "deadlock" if found.kind == "deadlock" else "violation"
            res.violation = Violation(found.name or None, self.found_path(found), found.kind)
        except Stop as stop:
            res.result = "deadlock" if stop.kind == "deadlock" else "violation"
            ids = tuple(stop.path)
            path = (self.path(ids[-1]) if ids and ids[-1] in self._seen
                    and ids == self.ids(ids[-1]) else self.steps(ids))
            res.violation = Violation(stop.name or None, path, stop.kind, stop.loop,
                                      stop.detail)
        unchecked = [u for h in self._hooks for u in getattr(h, "unchecked", ())]
        if unchecked:  # a hook's checks that a search cut short leaves undone
            res.extra["unchecked"] = unchecked
        res.seconds = time.perf_counter() - self._start
        return res

    def found_path(self, found: Found) -> tuple[Step, ...]:
        """The behaviour to what ``found`` found."""
        head = () if found.sid is None else self.path(found.sid)
        return head + (() if found.last is None else (found.last,))

    def _finished(self, complete: bool) -> None:
        for f in self._on["finished"]:
            f(complete)

    def _at(self, level: int) -> None:
        for f in self._on["evaluating"]:
            f(level)

    def initial_candidates(self) -> Iterator[tuple[StateId, State]]:
        """The initial states generated (each counted) that satisfy the constraints,
        with their ids, duplicates included."""
        model, res = self.model, self.result
        self.level = 1
        self._at(0)
        inits = model.initial_states()
        for state in inits:
            res.total_states += 1
            self._at(1)
            if model.in_constraints(state):
                yield self._fp(state), state
            else:
                self._excluded(None, None, None, state)

    def _initial(self) -> list[tuple[StateId, State]]:
        """The distinct initial states satisfying the constraints, recorded and checked."""
        found = []
        for sid, state in self.initial_candidates():
            if sid in self._seen:
                continue
            self._seen[sid] = (None, None, state, 1)
            for f in self._on["initial"]:
                f(sid, state)
            self._new(sid, state, 1)
            found.append((sid, state))
        return found

    def _new(self, sid: StateId, state: State, level: int) -> None:
        """Count the new state ``sid`` and check its invariants."""
        res = self.result
        res.distinct_states += 1
        if level > res.depth:
            res.depth = level
        if self.max_states is not None and res.distinct_states > self.max_states:
            raise Bound("states", level)
        inv = self.model.violated_invariant(state)
        if inv is not None:
            raise Found("invariant", inv, sid)

    def generate(self, sid: StateId, state: State, level: int
                 ) -> Iterator[tuple[Label, StateId, State]]:
        """The successors of ``sid`` (at ``level``) that satisfy the constraints, with
        their ids, as they are generated (each counted); a deadlock ends the search."""
        model, res = self.model, self.result
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise Bound("seconds", level)
        evaluating = self._on["evaluating"]
        self._at(level)
        succs = model.successors(state)
        if not succs and model.check_deadlock:
            raise Found("deadlock", "", sid)
        if not evaluating and not getattr(model, "constrained", True):
            fp = self._fp
            for t in succs:
                res.total_states += 1
                yield t.label, fp(t.state), t.state
            return
        for t in succs:
            res.total_states += 1
            nxt = t.state
            if evaluating:
                self._at(level + 1)
            if not model.in_constraints(nxt):
                self._excluded(sid, state, t.label, nxt)
                continue
            if evaluating:
                self._at(level)
            if not model.action_allowed(state, nxt):
                self._excluded(sid, state, t.label, nxt)
                continue
            if evaluating:
                self._at(level + 1)
            yield t.label, self._fp(nxt), nxt

    def _excluded(self, src: StateId | None, src_state: State | None, label: Label | None,
                  state: State) -> None:
        """A generated state the constraints exclude: not kept, but, as TLC does, its
        invariants are checked (and the hooks told, for the properties TLC checks
        there)."""
        inv = self.model.violated_invariant(state)
        if inv is not None:
            raise Found("invariant", inv, src, Step(label, state))
        hooks = self._on["excluded"]
        if hooks:
            dst = self._fp(state)
            kept = dst in self._seen
            if not kept:  # for a Stop's path; forgotten unless the search ends here
                self._seen[dst] = (src, label, state, 0)
            for f in hooks:
                f(src, src_state, label, dst, state)
            if not kept:
                del self._seen[dst]

    def admit(self, src: StateId | None, label: Label | None, dst: StateId, state: State,
               level: int) -> bool:
        """Record ``dst`` (found at ``level`` from ``src``) if it is new, and check it;
        whether it was new."""
        if dst in self._seen:
            return False
        self._seen[dst] = (src, label, state, level)
        self._new(dst, state, level)
        return True

    def _step(self, sid: StateId, state: State, level: int, queued: int = 0
              ) -> list[tuple[Label, StateId, State, bool]]:
        """Expand ``sid`` (at ``level``): its successors that satisfy the constraints, as
        (label, id, state, new), the new ones recorded and checked."""
        out: list[tuple[Label, StateId, State, bool]] = []
        on = self._on
        transition = on["transition"]
        seen = self._seen
        with self.model.guard():
            if not transition and not on["dead_end"] and not on["expanding"]:
                for label, dst, nxt in self.generate(sid, state, level):
                    new = dst not in seen
                    if new:
                        seen[dst] = (sid, label, nxt, level + 1)
                        self._new(dst, nxt, level + 1)
                    out.append((label, dst, nxt, new))
                return out
            for label, dst, nxt in self.generate(sid, state, level):
                new = dst not in seen
                if new:
                    seen[dst] = (sid, label, nxt, level + 1)
                out.append((label, dst, nxt, new))
            fresh = sum(new for *_, new in out)
            for f in on["expanding"]:
                f(sid, state, queued + fresh)
            if not out:
                for f in on["dead_end"]:
                    f(sid, state)
            for label, dst, nxt, new in out:
                for f in transition:
                    f(sid, state, label, dst, nxt, new)
                if new:
                    self._new(dst, nxt, level + 1)
        return out

    def _deep(self, level: int) -> bool:
        """Whether states at ``level`` are past the depth bound (not expanded)."""
        if self.max_depth is not None and level >= self.max_depth:
            self.result.complete = False
            return True
        return False

    def _bfs(self) -> None:
        layer = self._initial()
        level = 1
        res = self.result
        while layer:
            self.level = level
            self.frontier = [sid for sid, _ in layer]
            if self._deep(level):
                break
            for f in self._on["level_begins"]:
                f(level, len(layer))
            nxt: list[tuple[StateId, State]] = []
            for i, (sid, state) in enumerate(layer):
                succs = self._step(sid, state, level, len(layer) - i - 1 + len(nxt))
                nxt += [(d, s) for _, d, s, new in succs if new]
                if self.progress is not None and res.distinct_states % _EVERY < len(succs) + 1:
                    res.seconds = time.perf_counter() - self._start
                    self.progress(res, len(nxt))
                if self._on["halts"] and any(f() for f in self._on["halts"]):
                    for f in self._on["level_done"]:
                        f(level)
                    if nxt:
                        self.level = level + 1
                        self.frontier = [sid for sid, _ in nxt]
                    return
            for f in self._on["level_done"]:
                f(level)
            layer = nxt
            level += 1

    def _dfs(self) -> None:
        stack = [(sid, state, 1) for sid, state in reversed(self._initial())]
        while stack:
            sid, state, level = stack.pop()
            self.level = level
            if self._deep(level):
                continue
            succs = self._step(sid, state, level, len(stack))
            stack += [(d, s, level + 1) for _, d, s, new in reversed(succs) if new]

    def _walks(self, n: int, depth: int, rng: random.Random) -> None:
        res = self.result
        starts = [sid for sid, _ in self._initial()]
        for _ in range(n):
            if not starts:
                break
            sid = rng.choice(starts)
            length = 1
            while length < depth:
                self.level = length
                succs = self._step(sid, self.state(sid), length)
                if not succs:
                    break
                _, sid, _, _ = rng.choice(succs)
                length += 1
            res.depth = max(res.depth, length)
            if self.progress is not None:
                res.seconds = time.perf_counter() - self._start
                self.progress(res, 0)


def bfs(model: Model, max_depth: int | None = None, progress: Progress | None = None,
        hooks: Iterable[Hooks] = ()) -> Result:
    """Explore ``model`` breadth first, up to ``max_depth`` levels (all when None)."""
    return Engine(model, tuple(hooks), max_depth=max_depth, progress=progress).bfs()


def dfs(model: Model, max_depth: int | None = None, progress: Progress | None = None,
        hooks: Iterable[Hooks] = ()) -> Result:
    """Explore ``model`` depth first, paths up to ``max_depth`` states (all when None)."""
    return Engine(model, tuple(hooks), max_depth=max_depth, progress=progress).dfs()


def walks(model: Model, n: int, depth: int, seed: int, progress: Progress | None = None,
          hooks: Iterable[Hooks] = ()) -> Result:
    """``n`` seeded random walks of at most ``depth`` states (:meth:`Engine.walks`)."""
    return Engine(model, tuple(hooks), progress=progress).walks(n, depth, seed)


__all__ = ["Bound", "Engine", "Found", "Progress", "Space", "bfs", "dfs", "walks"]
