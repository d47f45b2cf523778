"""Streaming trace recorder: implementation states mapped onto a conformance module's variables.

The recorder is given a refinement mapping (implementation state -> spec
variables) and writes ``tlaconf-trace`` v1 through :class:`TraceWriter`, one
line per request as it happens.  Accepted requests become ``accepted`` steps,
rejected ones ``rejected`` steps carrying the state the implementation is in
after refusing (which a correct implementation left unchanged).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, Generic, TypeVar

from tlaconf.trace.writer import Outcome, TraceWriter

S = TypeVar("S")
REVISION = "2"
DEFAULT_CONSTANTS: Mapping[str, Any] = {"Seats4": {"SideA", "SideB"}}


class Recorder(Generic[S]):
    """Record one trace of module ``module`` from implementation states of type ``S``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        refine: Callable[[S], Mapping[str, Any]],
        *,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = REVISION,
    ) -> None:
        self.refine = refine
        consts = DEFAULT_CONSTANTS if constants is None else constants
        self.writer = TraceWriter(path, module, revision, consts, meta)

    @property
    def path(self) -> os.PathLike[str]:
        """Where the trace goes."""
        return self.writer.path

    @property
    def steps(self) -> int:
        """How many steps were recorded."""
        return self.writer.steps

    def init(self, state: S) -> None:
        """Record the initial state."""
        self.writer.init(self.refine(state))

    def record(self, action: str, params: Mapping[str, Any], outcome: Outcome, state: S) -> None:
        """Record one request and the state after it."""
        self.writer.step(action, params, outcome, self.refine(state))

    def accepted(self, action: str, params: Mapping[str, Any], state: S) -> None:
        """Record an accepted request and the new state."""
        self.record(action, params, "accepted", state)

    def rejected(self, action: str, params: Mapping[str, Any], state: S) -> None:
        """Record a rejected request and the state the implementation is in after refusing it."""
        self.record(action, params, "rejected", state)

    def close(self) -> None:
        """Finish the trace file."""
        self.writer.close()

    def __enter__(self) -> Recorder[S]:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.writer.__exit__(exc_type, exc, tb)


Observe = Callable[[str, Mapping[str, Any], S], Mapping[str, Any]]
"""(action, params, implementation state after it) -> what the event logs of the spec
variables: some variables only, ``Some({...})`` for some keys of one."""


class PartialRecorder(Recorder[S]):
    """Record a partial trace: the initial state in full (``refine``), then one line per
    event with only what ``observe`` says the implementation logs (a step the
    implementation does not log is simply not recorded)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        refine: Callable[[S], Mapping[str, Any]],
        observe: Observe[S],
        *,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = REVISION,
    ) -> None:
        self.refine = refine
        self.observe = observe
        consts = DEFAULT_CONSTANTS if constants is None else constants
        self.writer = TraceWriter(path, module, revision, consts, meta, partial=True)

    def record(self, action: str, params: Mapping[str, Any], outcome: Outcome, state: S) -> None:
        """Record one event and what it logs of the state after it."""
        self.writer.step(action, params, outcome, self.observe(action, params, state))
