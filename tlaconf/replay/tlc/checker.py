"""``--backend tlc``: TLC decides a trace, checked in bounded chunks so memory stays flat.

Replay streams the steps into a :class:`TlcSession`; every ``TLACONF_TLC_CHUNK``
steps (default 500) it writes them as one module (:func:`tlaconf.trace.export.write_module`,
the shape ``tlaconf export`` writes) whose initial state is the last state of the
previous chunk, and runs TLC on it (:mod:`tlaconf.replay.tlc.process`).  A
deadlock after ``trace_step = j`` is the failure of the chunk's step ``j + 1``
(its action is FALSE, or a rejected step changed the state or was enabled); an
invariant violation at ``trace_step = j`` is the failure of the state after its
step ``j``.  Everything lives in a private temporary folder, removed when the
trace is done.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from tlaconf import environment
from tlaconf.errors import CheckerFailed
from tlaconf.replay.backend import Decision, LoadedModule, State
from tlaconf.replay.tlc.process import Tlc, TlcResult, find_tlc, run_tlc
from tlaconf.spec.module_spec import NEXT, ModuleSpec
from tlaconf.trace.export import ModuleFacts, check_names, write_cfg, write_module
from tlaconf.trace.reader import Step

CHUNK_NAME = "TlaconfChunk"
DEFAULT_CHUNK = 500


def chunk_size() -> int:
    """Steps per TLC run: ``TLACONF_TLC_CHUNK`` (default 500)."""
    return environment.count("TLACONF_TLC_CHUNK", DEFAULT_CHUNK)


class TlcSession:
    """One trace decided by TLC, a chunk of steps at a time."""

    def __init__(self, tlc: Tlc, spec: ModuleSpec, module: LoadedModule, chunk: int) -> None:
        self._tlc = tlc
        self._spec = spec
        constants = getattr(module, "constants", frozenset(spec.constants))
        self._facts = ModuleFacts(frozenset(module.variables), frozenset(module.actions),
                                  frozenset(constants), module.has_next)  # fmt: skip
        self._chunk = chunk
        self._folder = Path(tempfile.mkdtemp(prefix="tlaconf-tlc-"))
        check_names(self._folder / f"{CHUNK_NAME}.tla", spec)
        with (self._folder / f"{CHUNK_NAME}.cfg").open("w", encoding="utf-8") as f:
            write_cfg(f, CHUNK_NAME, spec, self._facts)
        self._start: State = {}
        self._steps: list[tuple[int, Step, State]] = []
        self._runs = 0

    def initial(self, state: State) -> Decision | None:
        self._start = state
        return None

    def add(self, number: int, step: Step, before: State) -> Decision | None:
        self._steps.append((number, step, before))
        if len(self._steps) < self._chunk:
            return None
        return self._run()

    def finish(self) -> Decision | None:
        if self._steps or self._runs == 0:
            return self._run()
        return None

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)

    def _run(self) -> Decision | None:
        module = self._folder / f"{CHUNK_NAME}.tla"
        with module.open("w", encoding="utf-8", newline="\n") as f:
            write_module(f, CHUNK_NAME, self._spec, self._facts, self._start,
                         (step for _, step, _ in self._steps))  # fmt: skip
        outcome = run_tlc(self._tlc, self._folder, CHUNK_NAME, self._spec.search_path)
        self._runs += 1
        decision = self._decision(outcome)
        if self._steps:
            self._start = self._steps[-1][1].state
        self._steps.clear()
        return decision

    def _decision(self, outcome: TlcResult) -> Decision | None:
        if outcome.kind == "ok":
            return None
        j = outcome.last_step
        if j is None or not 0 <= j <= len(self._steps):
            raise CheckerFailed(f"TLC reported a {outcome.kind} but no state of this trace "
                                f"({outcome.text or 'no message'})")  # fmt: skip
        if outcome.kind == "deadlock":
            if j == len(self._steps):
                raise CheckerFailed("TLC reported a deadlock after the last step")
            number, step, before = self._steps[j]
            action = step.action or NEXT
            detail = f"no successor state: step {number} ({action}) does not hold"
            return Decision(number, step.line, "action", action, detail, before, step)
        name = outcome.invariant or "?"
        if j == 0:
            if self._runs > 1:
                raise CheckerFailed(f"TLC says the chunk's initial state violates {name}, "
                                    "which it accepted as the previous chunk's last state")
            detail = f"invariant {name} is violated by the initial state"
            return Decision(0, 2, "invariant", name, detail, self._start, None)
        number, step, before = self._steps[j - 1]
        detail = f"invariant {name} is violated after step {number}"
        return Decision(number, step.line, "invariant", name, detail, before, step)


class TlcChecker:
    """The ``tlc`` checker; UserError at construction when TLC or Java is missing."""

    name = "tlc"

    def __init__(self, timeout: float | None = None) -> None:
        """``timeout``: seconds per TLC run (one per chunk of steps), else ``TLC_TIMEOUT``."""
        self._tlc = find_tlc(timeout)
        self._chunk = chunk_size()

    def open(self, spec: ModuleSpec, module: LoadedModule, trace: Path) -> TlcSession:
        return TlcSession(self._tlc, spec, module, self._chunk)
