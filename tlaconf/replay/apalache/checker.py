"""``--backend apalache``: Apalache's explorer server decides a trace in one session.

The session loads the root module of :mod:`tlaconf.replay.apalache.root` with
the bundle of :mod:`tlaconf.replay.apalache.bundle` once per trace, then walks
the trace: ``assumeTransition`` of ``Init`` and ``nextStep``, the state
invariants (``checkInvariant``, kind STATE); for each step k, for a rejected
step first the ``TlaconfE<k>`` transitions (ENABLED: the step was rejected
although its action is enabled), then the ``TlaconfS<k>`` transitions (none
ENABLED: step k does not hold), ``nextStep`` and, after an accepted step, the
invariants.  A DISABLED transition leaves the server at the snapshot before it.
An UNKNOWN answer (solver timeout, ``APALACHE_TIMEOUT`` seconds per query,
default 600) means Apalache could not decide: CheckerFailed naming the step.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.apalache.bundle import read_bundle, read_types
from tlaconf.replay.apalache.root import root_module, trace_types
from tlaconf.replay.apalache.server import Client, Server, find_apalache
from tlaconf.replay.backend import Decision, LoadedModule, State
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.reader import Step


def _labelled(transitions: list[dict[str, Any]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t in transitions:
        for label in t.get("labels", ()):
            out.setdefault(label, []).append(int(t["index"]))
    return out


class ApalacheSession:
    """One trace, one Apalache session."""

    def __init__(self, client: Client, spec: ModuleSpec, module: LoadedModule, trace: Path) -> None:
        self._client = client
        self._invariants = list(spec.invariants)
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
        root = root_module(spec, bound, variables, trace, types, params, annotations)
        self.root = root
        parameters = client.load((root, *bundle.texts), self._invariants)
        self._init = [int(t["index"]) for t in parameters.get("initTransitions", [])]
        self._next = _labelled(parameters.get("nextTransitions", []))
        states = len(parameters.get("stateInvariants", []))
        if states != len(self._invariants):
            raise UserError(
                f"Apalache sees {states} state invariant(s) among {', '.join(self._invariants)}: "
                "the apalache backend checks invariants of the state only (no primes)"
            )

    def _transitions(self, label: str, number: int) -> list[int]:
        found = self._next.get(label)
        if not found:
            raise CheckerFailed(f"Apalache lists no transition labelled {label} (step {number}): "
                                "the apalache backend needs Apalache 0.62 or later")  # fmt: skip
        return found

    def _enabled(self, transitions: list[int], number: int) -> bool:
        for t in transitions:
            status = self._client.status("assumeTransition", transitionId=t, checkEnabled=True)
            if status == "ENABLED":
                return True
            if status != "DISABLED":
                raise CheckerFailed(f"Apalache answered {status} at step {number} "
                                    "(solver timeout? see APALACHE_TIMEOUT)")  # fmt: skip
        return False

    def _violated(self, number: int) -> str | None:
        for i, name in enumerate(self._invariants):
            status = self._client.status("checkInvariant", invariantId=i, kind="STATE")
            if status == "VIOLATED":
                return name
            if status != "SATISFIED":
                raise CheckerFailed(f"Apalache answered {status} for invariant {name} at step "
                                    f"{number} (solver timeout? see APALACHE_TIMEOUT)")  # fmt: skip
        return None

    def initial(self, state: State) -> Decision | None:
        if not self._enabled(self._init, 0):
            raise CheckerFailed("Apalache finds no initial state equal to the trace's (step 0)")
        self._client.call("nextStep")
        name = self._violated(0)
        if name is None:
            return None
        return Decision(0, 2, "invariant", name, f"invariant {name} is violated by the "
                        "initial state", state, None)  # fmt: skip

    def add(self, number: int, step: Step, before: State) -> Decision | None:
        action = step.action or NEXT
        if step.outcome == "rejected" and step.action is not None and self._enabled(
            self._transitions(f"TlaconfE{number}", number), number
        ):
            return Decision(number, step.line, "action", action,
                            f"{action}(p) is enabled in step {number}'s state", before, step)
        if not self._enabled(self._transitions(f"TlaconfS{number}", number), number):
            detail = f"no transition of step {number} ({action}) reaches the recorded state"
            return Decision(number, step.line, "action", action, detail, before, step)
        self._client.call("nextStep")
        name = self._violated(number) if step.outcome == "accepted" else None
        if name is None:
            return None
        detail = f"invariant {name} is violated after step {number}"
        return Decision(number, step.line, "invariant", name, detail, before, step)

    def finish(self) -> Decision | None:
        return None

    def close(self) -> None:
        self._client.dispose()


class ApalacheChecker:
    """The ``apalache`` checker; UserError at construction when Apalache is not found."""

    name = "apalache"

    def __init__(self) -> None:
        self._url, self._executable = find_apalache()
        self._server: Server | None = None
        timeout = os.environ.get("APALACHE_TIMEOUT", "600")
        if not timeout.isdigit():
            raise UserError(f"APALACHE_TIMEOUT={timeout} is not a number of seconds")
        self._timeout = int(timeout)

    def _server_url(self) -> str:
        if self._url is None:
            assert self._executable is not None
            self._server = Server(self._executable)
            self._url = self._server.url
        return self._url

    def open(self, spec: ModuleSpec, module: LoadedModule, trace: Path) -> ApalacheSession:
        client = Client(self._server_url(), self._timeout)
        try:
            return ApalacheSession(client, spec, module, trace)
        except BaseException:
            client.dispose()
            raise

    def close(self) -> None:
        """Stop the server this checker started (if any); also done at exit."""
        if self._server is not None:
            self._server.stop()
