"""The Hypothesis state machine: one rule draws a request from the module and checks it.

Each example resets the implementation (through the driver), checks its initial
state, then runs up to ``stateful_step_count`` steps.  A step draws an action, whether
to ask for an allowed or a forbidden request, and the params field by field (each a
Hypothesis draw, so each shrinks towards the first value of its set); it applies the
request through the driver and checks the step online.  A nonconforming step raises
:class:`StepFailed`, which Hypothesis shrinks.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from tlaconf.explore import fingerprint
from tlaconf.mbt.domains import Domain, Domains, Request, stride
from tlaconf.mbt.driver import Driver, plain, response
from tlaconf.mbt.memo import state_key
from tlaconf.mbt.online import OnlineChecker, Taken
from tlaconf.replay import TraceResult
from tlaconf.values import Fn, from_python, make_fn

KINDS = ("forbidden", "allowed", "near miss")
"""What a step asks for; Hypothesis shrinks towards the first."""

SCAN = 24
"""Requests looked at per step to find one of the kind asked for (allowed or forbidden)."""

OBSERVED = 8
"""Accepted steps with reported fields kept per action (each from a distinct state)."""

_KIND = st.sampled_from(KINDS)
_KIND_OR_AIMED = st.sampled_from((*KINDS, "aimed"))


@lru_cache(maxsize=256)
def _below(n: int) -> st.SearchStrategy[int]:
    """``0..n-1`` as a strategy (made once per ``n``: a step draws several)."""
    return st.integers(0, n - 1)


State = dict[str, Any]


class StepFailed(AssertionError):
    """A run that did not conform: its steps up to the failing one, and why.

    ``result`` is replay's result for the failing step (``None`` when the driver raised:
    then ``crash`` holds the traceback and ``request`` what it was asked, if anything).
    """

    def __init__(self, initial: State, steps: list[Taken], result: TraceResult | None,
                 crash: str | None = None, request: Request | None = None) -> None:  # fmt: skip
        self.initial = initial
        self.steps = steps
        self.result = result
        self.crash = crash
        self.request = request
        failure = result.failure if result is not None else None
        if failure is not None:
            why = failure.reason
        else:
            why = f"the driver raised: {(crash or '').strip().splitlines()[-1]}"
        super().__init__(f"step {self.length}: {why}")

    @property
    def length(self) -> int:
        """Requests made, the failing one included."""
        return len(self.steps) + (self.request is not None)


@dataclass
class Stats:
    """What a run did so far (shared by every example of one run)."""

    examples: int = 0
    steps: int = 0
    allowed: int = 0
    forbidden: int = 0
    check_seconds: float = 0.0
    first: StepFailed | None = None
    first_at: int = 0
    """The run (1 = the first example) in which the first failure was found."""
    on_example: Callable[[Stats], None] | None = field(default=None, repr=False)


def _mapped(state: Any, what: str) -> State:
    """A driver's state as TLA+ values (a copy: the implementation may change its own)."""
    if not isinstance(state, Mapping) or not all(isinstance(k, str) for k in state):
        raise TypeError(f"{what} returned {state!r}: expected a dict of variable -> value")
    return {k: from_python(v) for k, v in state.items()}


def _recorded(requested: Fn, reported: Mapping[str, Any]) -> Any:
    """The params a step records as a TLA+ value: those requested, the fields the
    implementation reported replacing theirs."""
    if not reported:
        return requested
    fields = dict(requested.items()) if type(requested) is Fn else {}
    fields.update((k, from_python(v)) for k, v in reported.items())
    return make_fn(fields)


class Session:
    """A driver, its module's requests and the online checker, for one run."""

    def __init__(self, driver: Driver, domains: Domains, checker: OnlineChecker) -> None:
        self.driver = driver
        self.domains = domains
        self.checker = checker
        self.stats = Stats()
        self.rewritten: set[tuple[str, int]] = set()
        """(action, encoded params) of the requests whose fields the implementation
        filled in with other values than those requested."""
        self.reported: set[str] = set()
        """The actions whose params the implementation reported fields of."""
        self.observed: dict[str, dict[int, tuple[State, Taken, frozenset[str]]]] = {}
        """Per action, up to :data:`OBSERVED` accepted steps whose params the
        implementation reported fields of, by the key of their state before: that
        state, the step, the fields reported (what :mod:`.perturb` changes)."""
        self.aimed: dict[int, list[Request]] = {}
        """State key -> the directed requests a survey found there (see :mod:`.directed`):
        a step in such a state may draw one of them."""
        self._keyed: tuple[State, int] | None = None

    def key(self, state: State) -> int:
        """``state``'s :func:`~tlaconf.mbt.memo.state_key` (kept for the last state asked
        about: the state after a step is the state before the next)."""
        if self._keyed is None or self._keyed[0] is not state:
            self._keyed = (state, state_key(state))
        return self._keyed[1]

    def _fail(self, exc: StepFailed) -> StepFailed:
        if self.stats.first is None:
            self.stats.first = exc
            self.stats.first_at = self.stats.examples
        return exc

    def start(self) -> State:
        """Reset the implementation; its initial state, checked."""
        self.stats.examples += 1
        if self.stats.on_example is not None:
            self.stats.on_example(self.stats)
        try:
            initial = _mapped(self.driver.reset(), "the driver's reset()")
        except Exception:
            raise self._fail(StepFailed({}, [], None, traceback.format_exc())) from None
        failure = self.checker.initial(initial, self.key(initial))
        if failure is not None:
            raise self._fail(StepFailed(initial, [], failure))
        return initial

    def draw(self, data: st.DataObject, state: State) -> Request | None:
        """A request for ``state``: forbidden, allowed, or a near miss (an allowed request
        with one field changed, usually forbidden: one guard broken), as drawn; after a
        directed survey, also one of the requests it aimed at in this state.

        One draw picks a start in the domain; the search for the kind asked for goes on
        from there in a fixed stride (so a shrunk start still finds one).
        """
        key = self.key(state)
        domains = [d for a in self.domains.actions
                   if not (d := self.domains.domain(a, state, key)).empty]
        if not domains:
            return None
        dom = domains[data.draw(_below(len(domains)), label="action")]
        kind = data.draw(_KIND_OR_AIMED if self.aimed else _KIND, label="kind")
        if kind == "aimed":
            here = [r for r in self.aimed.get(key, ()) if r.action == dom.action]
            if here:
                return here[data.draw(_below(len(here)), label="target")]
            kind = "near miss"
        start = data.draw(_below(dom.count), label="params")
        found = self._scan(dom, state, key, start, kind != "forbidden")
        if kind != "near miss" or not found.allowed or not dom.sizes():
            return found
        field = data.draw(_below(len(dom.sizes())), label="field")
        value = data.draw(_below(dom.sizes()[field]), label="value")
        params = dom.changed(found.params, field, value)
        return Request(dom.action, params, self.domains.allowed(dom.action, params, state, key))

    def _scan(self, dom: Domain, state: State, key: int, start: int, allowed: bool) -> Request:
        """From request ``start`` of ``dom``, the first of up to :data:`SCAN` requests whose
        kind is ``allowed`` (else the last one looked at)."""
        step = stride(dom.count)
        found = None
        for i in range(min(SCAN, dom.count)):
            params = dom.nth((start + i * step) % dom.count)
            found = Request(dom.action, params,
                            self.domains.allowed(dom.action, params, state, key))
            if found.allowed == allowed:
                break
        assert found is not None
        return found

    def step(self, initial: State, steps: list[Taken], before: State,
             data: st.DataObject) -> State:  # fmt: skip
        """Draw, apply and check one request from ``before``; the state after it."""
        request = self.draw(data, before)
        if request is None:
            return before
        return self.apply(initial, steps, before, request)

    def apply(self, initial: State, steps: list[Taken], before: State,
              request: Request) -> State:  # fmt: skip
        """Apply ``request`` from ``before`` (``steps`` taken so far from ``initial``) and
        check the step; the state after it.  StepFailed when it does not conform."""
        params = plain(request.params)
        try:
            answer = response(self.driver.apply(request.action, dict(params)), request.action)
            after = _mapped(answer.state, f"the driver's apply({request.action!r}, ...)")
            reported = answer.params or {}
            recorded = {**params, **reported}
            value = _recorded(request.params, reported)
            if reported:
                self.reported.add(request.action)
                requested = fingerprint(request.params)
                if fingerprint(value) != requested:
                    self.rewritten.add((request.action, requested))
        except Exception:
            raise self._fail(StepFailed(initial, list(steps), None, traceback.format_exc(),
                                        request)) from None
        taken = Taken(request.action, recorded, "accepted" if answer.accepted else "rejected",
                      after)
        steps.append(taken)
        start = time.perf_counter()
        failure = self.checker.step(before, taken, self.key(before), self.key(after), value)
        self.stats.check_seconds += time.perf_counter() - start
        self.stats.steps += 1
        if request.allowed:
            self.stats.allowed += 1
        else:
            self.stats.forbidden += 1
        if failure is not None:
            raise self._fail(StepFailed(initial, list(steps), failure))
        if answer.params and answer.accepted:
            seen = self.observed.setdefault(request.action, {})
            if len(seen) < OBSERVED:
                seen.setdefault(self.key(before), (before, taken, frozenset(answer.params)))
        return after


def machine_class(session: Session, name: str) -> type[RuleBasedStateMachine]:
    """A state machine class named ``name`` (Hypothesis keys its database by the name)."""

    class SpecMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.initial = self.state = session.start()
            self.steps: list[Taken] = []

        @rule(data=st.data())
        def request(self, data: st.DataObject) -> None:
            self.state = session.step(self.initial, self.steps, self.state, data)

    SpecMachine.__name__ = SpecMachine.__qualname__ = name
    return SpecMachine
