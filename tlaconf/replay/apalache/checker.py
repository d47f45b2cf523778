"""``--backend apalache``: Apalache's explorer server decides a trace in one session.

The session loads the root module of :mod:`tlaconf.replay.apalache.root` with
the bundle of :mod:`tlaconf.replay.apalache.bundle` once per trace, then walks
the trace: ``assumeTransition`` of ``Init`` and ``nextStep``, the state
invariants (``checkInvariant``, kind STATE), the stuttering ``TlaconfS0``; for
each step k, for a rejected step first its guard ``TlaconfG<k>`` (STATE invariants:
one VIOLATED means its action is disabled) and, unless the guard settled it, the
``TlaconfE<k>`` transitions (ENABLED: the step was rejected although its action is
enabled), then the ``TlaconfS<k>``
transitions (none ENABLED: step k does not hold), for an accepted step the
``TlaconfA<k>`` ACTION invariants (one VIOLATED: step k does not hold),
``nextStep`` and, after an accepted step, the invariants.  A DISABLED
transition leaves the server at the snapshot before it.
Each trace has a time limit (``--checker-timeout``, default
:data:`DEFAULT_TIMEOUT` seconds, for loading and every question together); no
answer within it, or an UNKNOWN answer (the solver ran out of it), means
Apalache could not decide: CheckerFailed naming the step and what Apalache was
doing.  A server that gave no answer is stopped, and the next trace starts a
new one; otherwise one server serves every trace of a run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.apalache.bundle import read_bundle, read_types
from tlaconf.replay.apalache.enabling import NO_GUARDS, Guards, state_guards
from tlaconf.replay.apalache.root import (
    ACTION,
    GUARD,
    INVARIANT,
    INVARIANT_LABEL,
    Root,
    root_module,
    trace_types,
)
from tlaconf.replay.apalache.server import CheckerTimedOut, Client, Server, find_apalache
from tlaconf.replay.apalache.types import Type
from tlaconf.replay.backend import Decision, LoadedModule, State
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.reader import Step


def _labelled(transitions: list[dict[str, Any]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t in transitions:
        for label in t.get("labels", ()):
            out.setdefault(label, []).append(int(t["index"]))
    return out


@dataclass
class SessionTexts:
    """What a trace's session sends: the bundle, and the root module (with or without the
    rejected steps' guards)."""

    spec: ModuleSpec
    trace: Path
    variables: tuple[str, ...]
    bound: list[str]
    types: dict[str, Type]
    params: dict[str, Type]
    annotations: dict[str, Type]
    bundle: tuple[str, ...]
    guards: Guards

    def root(self, guarded: bool = True) -> Root:
        guards = self.guards if guarded else NO_GUARDS
        return root_module(self.spec, self.bound, self.variables, self.trace, self.types,
                           self.params, self.annotations, guards)  # fmt: skip


def session_texts(spec: ModuleSpec, module: LoadedModule, trace: Path) -> SessionTexts:
    """The texts of ``trace``'s session (UserError for a trace or spec Apalache cannot take)."""
    variables = tuple(module.variables)
    typing = read_types(spec)
    annotations = {c: t for m in typing.modules.values() for c, t in m.items()
                   if c in spec.constants}  # a constant may be declared where it is used
    annotations.update(typing.of(spec.name))
    types, params, labels = trace_types(trace, variables, annotations)
    evaluate = getattr(module, "constant", None)
    if evaluate is None:
        raise UserError("the apalache backend needs the embedded evaluator's module load")
    bundle = read_bundle(spec, labels | set(spec.invariants), evaluate, params, typing)
    declared = getattr(module, "constants", frozenset(spec.constants))
    bound = sorted(c for c in spec.constants if c in declared)
    guards = state_guards(spec, labels - {NEXT}, variables)
    return SessionTexts(spec, trace, variables, bound, types, params, annotations,
                        bundle.texts, guards)  # fmt: skip


class ApalacheSession:
    """One trace, one Apalache session."""

    def __init__(self, client: Client, spec: ModuleSpec, module: LoadedModule, trace: Path,
                 done: Callable[[Client], None]) -> None:  # fmt: skip
        self._client = client
        self._done = done
        self._invariants = list(spec.invariants)
        texts = session_texts(spec, module, trace)
        ours = [f"{INVARIANT}{i}" for i in range(len(self._invariants))]
        root = texts.root()
        try:
            parameters = client.load((root.text, *texts.bundle), ours + root.checks + root.guards)
        except CheckerTimedOut:
            raise
        except (UserError, CheckerFailed):
            if not root.guards:
                raise
            root = texts.root(guarded=False)  # the guards only save time: load without them
            parameters = client.load((root.text, *texts.bundle), ours + root.checks)
        self._init = [int(t["index"]) for t in parameters.get("initTransitions", [])]
        self._next = _labelled(parameters.get("nextTransitions", []))
        self._conjuncts = self._read_invariants(parameters)
        self._steps = _labelled(parameters.get("actionInvariants", []))
        self._guards = {int(label[len(GUARD):]): ids for label, ids in
                        _labelled(parameters.get("stateInvariants", [])).items()
                        if label.startswith(GUARD) and label[len(GUARD):].isdigit()}  # fmt: skip

    def _read_invariants(self, parameters: dict[str, Any]) -> list[list[int]]:
        """For each invariant, the indices of Apalache's state invariants that are its conjuncts.

        An invariant Apalache lists among its action invariants has primes: refused,
        since the explorer server does not solve an action invariant at step 1 (it
        answers SATISFIED there) and tlaconf checks invariants of states only.
        """
        for t in parameters.get("actionInvariants", []):
            labels = [lb for lb in t.get("labels", ()) if lb.startswith(INVARIANT_LABEL)]
            if not labels and any(lb.startswith((ACTION, GUARD)) for lb in t.get("labels", ())):
                continue  # a step's check (TlaconfA<k>), or a guard Apalache finds primes in
            names = [self._invariants[int(lb[len(INVARIANT_LABEL):])] for lb in labels]
            raise UserError(f"invariant {', '.join(names) or '?'} is an action (it has primes): "
                            "the apalache backend checks invariants of states only")  # fmt: skip
        labelled = _labelled(parameters.get("stateInvariants", []))
        out = [labelled.get(f"{INVARIANT_LABEL}{i}", []) for i in range(len(self._invariants))]
        missing = [name for name, found in zip(self._invariants, out, strict=True) if not found]
        if missing:
            raise CheckerFailed(f"Apalache lists no state invariant labelled as {missing[0]} "
                                "(the apalache backend needs Apalache 0.62 or later)")  # fmt: skip
        return out

    def _transitions(self, label: str, number: int) -> list[int]:
        found = self._next.get(label)
        if not found:
            raise CheckerFailed(f"Apalache lists no transition labelled {label} (step {number}): "
                                "the apalache backend needs Apalache 0.62 or later")  # fmt: skip
        return found

    def _unknown(self, status: str) -> CheckerFailed:
        return CheckerFailed(
            f"Apalache answered {status} while {self._client.doing} (the solver found no answer "
            f"within the time limit of {self._client.limit:g} s: --checker-timeout)"
        )

    def _enabled(self, transitions: list[int], doing: str) -> bool:
        for t in transitions:
            status = self._client.status("assumeTransition", doing, transitionId=t,
                                         checkEnabled=True)  # fmt: skip
            if status == "ENABLED":
                return True
            if status != "DISABLED":
                raise self._unknown(status)
        return False

    def _holds(self, number: int, doing: str) -> bool:
        """Whether step ``number``'s action holds between the states (after ``TlaconfS<k>``)."""
        found = self._steps.get(f"{ACTION}{number}")
        if not found:
            raise CheckerFailed(f"Apalache lists no action invariant labelled {ACTION}{number} "
                                "(the apalache backend needs Apalache 0.62 or later)")  # fmt: skip
        return self._satisfied(found, doing, "ACTION")

    def _satisfied(self, ids: list[int], doing: str, kind: str) -> bool:
        """Whether every invariant of ``ids`` (of ``kind`` STATE or ACTION) holds."""
        for i in ids:
            status = self._client.status("checkInvariant", doing, invariantId=i, kind=kind)
            if status == "VIOLATED":
                return False
            if status != "SATISFIED":
                raise self._unknown(status)
        return True

    def _violated(self, number: int) -> str | None:
        for name, conjuncts in zip(self._invariants, self._conjuncts, strict=True):
            where = "the initial state" if number == 0 else f"the state after step {number}"
            doing = f"checking invariant {name} in {where}"
            if not self._satisfied(conjuncts, doing, "STATE"):
                return name
        return None

    def initial(self, state: State) -> Decision | None:
        if not self._enabled(self._init, "finding the initial state (step 0)"):
            raise CheckerFailed("Apalache finds no initial state equal to the trace's (step 0)")
        self._client.step("taking the initial state (step 0)")
        name = self._violated(0)
        if name is None:
            self._stutter()
            return None
        return Decision(0, 2, "invariant", name, f"invariant {name} is violated by the "
                        "initial state", state, None)  # fmt: skip

    def _guarded(self, number: int, action: str) -> bool:
        """Whether step ``number``'s guard is false in the state before it (so its action is
        disabled there); False without a guard, or when Apalache refuses to check it."""
        ids = self._guards.get(number)
        if not ids:
            return False
        doing = (f"checking whether the state before step {number} allows its action {action} "
                 "(it was rejected)")  # fmt: skip
        try:
            return not self._satisfied(ids, doing, "STATE")
        except CheckerTimedOut:
            raise
        except CheckerFailed:
            return False  # the full probe decides

    def add(self, number: int, step: Step, before: State) -> Decision | None:
        action = step.action or NEXT
        probe = f"deciding whether step {number}'s action {action} is enabled (it was rejected)"
        if step.outcome == "rejected" and step.action is not None and not self._guarded(
            number, action
        ) and self._enabled(self._transitions(f"TlaconfE{number}", number), probe):
            return Decision(number, step.line, "action", action,
                            f"{action}(p) is enabled in step {number}'s state", before, step)
        doing = f"deciding step {number} ({action})"
        if not self._enabled(self._transitions(f"TlaconfS{number}", number), doing) or (
            step.outcome == "accepted" and step.action is not None
            and not self._holds(number, doing)
        ):
            detail = f"no transition of step {number} ({action}) reaches the recorded state"
            return Decision(number, step.line, "action", action, detail, before, step)
        self._client.step(f"moving past step {number}")
        name = self._violated(number) if step.outcome == "accepted" else None
        if name is None:
            return None
        detail = f"invariant {name} is violated after step {number}"
        return Decision(number, step.line, "invariant", name, detail, before, step)

    def _stutter(self) -> None:
        """``TlaconfS0``: the server answers an ACTION invariant right after ``Init`` without
        solving it, so step 1's check comes after a stuttering step."""
        doing = "stuttering after the initial state"
        if not self._enabled(self._transitions("TlaconfS0", 0), doing):
            raise CheckerFailed("Apalache finds no stuttering step after the initial state")
        self._client.step(doing)

    def finish(self) -> Decision | None:
        return None

    def close(self) -> None:
        self._client.dispose()
        self._done(self._client)


DEFAULT_TIMEOUT = 300.0
"""Seconds per trace when ``--checker-timeout`` is not given (see the README for the sizing)."""


class ApalacheChecker:
    """The ``apalache`` checker; UserError at construction when Apalache is not found.

    ``timeout``: seconds per trace (loading and every question together).  The
    server is started on the first trace and serves every later one; use the
    checker as a context manager, or call :meth:`close`, to stop it (it is also
    stopped at interpreter exit, and by its guard when this process dies).
    """

    name = "apalache"

    def __init__(self, timeout: float | None = None) -> None:
        self._url, self._executable = find_apalache()
        self._server: Server | None = None
        if timeout is not None and not timeout > 0:
            raise UserError(f"--checker-timeout takes a positive number of seconds, not {timeout}")
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout

    def _server_url(self) -> tuple[str, Server | None]:
        if self._url is not None:
            return self._url, None
        if self._server is None or not self._server.running:
            assert self._executable is not None
            if self._server is not None:
                self._server.stop()
            self._server = Server(self._executable)
        return self._server.url, self._server

    def open(self, spec: ModuleSpec, module: LoadedModule, trace: Path) -> ApalacheSession:
        url, server = self._server_url()
        log = None
        if server is not None:
            since = server.log_size()
            log = lambda: server.last_pass(since)  # noqa: E731 - read only on a timeout
        client = Client(url, self.timeout, log)
        try:
            return ApalacheSession(client, spec, module, trace, self._done)
        except BaseException:
            client.dispose()
            self._done(client)
            raise

    def _done(self, client: Client) -> None:
        """After a session: a server that gave no answer is stopped (the next trace starts one)."""
        if client.hung and self._server is not None:
            self._server.stop()
            self._server = None

    def close(self) -> None:
        """Stop the server this checker started (if any)."""
        if self._server is not None:
            self._server.stop()
            self._server = None

    def __enter__(self) -> ApalacheChecker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
