"""The backend abstraction: what replay needs from a checker of TLA+ formulas.

A :class:`Backend` loads a conformance module (:class:`ModuleSpec`: the ``.tla``
file, its search path, constant values and invariant names) into a
:class:`LoadedModule`, which answers the questions replay asks of each
step: does ``A(p)`` hold from ``s`` to ``s'``, is ``ENABLED A(p)`` true in ``s``,
does an invariant hold in ``s``, and, for a step without an action label, does
the module's ``Next`` hold from ``s`` to ``s'``.  Errors in the specification or in the values
given (a missing record field, a type error) raise :class:`~tlaconf.errors.UserError`
(the evaluator's ``EvalError`` is one); replay turns them into an ``error`` verdict.

Backends are registered by name in :data:`BACKENDS` as ``"module:attribute"``
and imported on first use: ``embedded`` is the in-process evaluator
(:mod:`tlaconf.evaluate`).  A backend outside tlaconf is named by its own
``"module:attribute"``.

An :class:`ExternalChecker` (``tlc``, ``apalache``: :data:`CHECKERS`) decides
whole traces instead: replay streams the steps into a :class:`CheckerSession`,
which answers with the first failing step as a :class:`Decision` (TLC checks a
chunk of steps at a time, Apalache one step at a time in one session).  The
checker only decides; the failing step's blame is the embedded evaluator's.
A checker that fails or cannot decide raises :class:`~tlaconf.errors.CheckerFailed`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from tlaconf.errors import UserError, describe
from tlaconf.replay.result import BlameNode
from tlaconf.spec.module_spec import ModuleSpec

if TYPE_CHECKING:
    from tlaconf.trace.reader import Step

State = Mapping[str, Any]


class LoadedModule(Protocol):
    """A conformance module, ready to check steps."""

    @property
    def name(self) -> str: ...

    @property
    def variables(self) -> tuple[str, ...]:
        """The module's VARIABLES (every state of a trace has exactly these)."""
        ...

    @property
    def actions(self) -> tuple[str, ...]:
        """Operators of the module itself with exactly one parameter (valid action labels)."""
        ...

    def check_action(
        self, action: str, params: Any, state: State, next_state: State
    ) -> BlameNode | None:
        """None when ``action(params)`` holds from ``state`` to ``next_state``, else its blame."""
        ...

    def enabled(self, action: str, params: Any, state: State) -> bool:
        """``ENABLED action(params)`` in ``state``."""
        ...

    def check_invariant(self, name: str, state: State) -> BlameNode | None:
        """None when the invariant ``name`` holds in ``state``, else its blame."""
        ...

    def start_trace(self) -> None:
        """Called before each trace: forget what earlier traces left behind (TLCSet
        registers), so that a verdict never depends on which traces ran before."""
        ...

    @property
    def has_next(self) -> bool:
        """Whether the module defines (or extends) ``Next`` without parameters."""
        ...

    def check_next(self, state: State, next_state: State) -> BlameNode | None:
        """None when ``Next`` holds from ``state`` to ``next_state``, else its blame."""
        ...


class Backend(Protocol):
    """A way of checking formulas (the embedded evaluator, Apalache, ...)."""

    name: str

    def load(self, spec: ModuleSpec) -> LoadedModule:
        """Load, bind constants, check the invariants exist; UserError on any problem."""
        ...


@dataclass(frozen=True)
class Decision:
    """An external checker's answer: the first step that fails, and what failed there.

    ``step`` is 0 for the initial state; ``before`` and ``taken`` are the state
    before that step and the step itself (None for step 0), so that the embedded
    evaluator can explain it; ``detail`` is the checker's own account.
    """

    step: int
    line: int
    kind: Literal["action", "invariant"]
    name: str
    detail: str
    before: State | None = None
    taken: Step | None = None


class CheckerSession(Protocol):
    """One trace being decided by an external checker (steps come in order)."""

    def initial(self, state: State) -> Decision | None:
        """Take the initial state; a Decision if the checker already knows it fails."""
        ...

    def add(self, number: int, step: Step, before: State) -> Decision | None:
        """Take step ``number`` (from ``before``); a Decision once some step is known to fail."""
        ...

    def finish(self) -> Decision | None:
        """Every step is in: the first failing step, or None when the trace conforms."""
        ...

    def close(self) -> None:
        """Release what the session holds (files, the checker's session)."""
        ...


class ExternalChecker(Protocol):
    """A model checker that decides whole traces (TLC, Apalache)."""

    name: str

    def open(self, spec: ModuleSpec, module: LoadedModule, trace: Path) -> CheckerSession:
        """A session for the trace at ``trace`` (``module``: the embedded load, for its facts)."""
        ...


BACKENDS: dict[str, str] = {
    "embedded": "tlaconf.replay.embedded:EmbeddedBackend",
}
"""Backend name -> ``"module:class"``; the class is instantiated without arguments."""

CHECKERS: dict[str, str] = {
    "tlc": "tlaconf.replay.tlc.checker:TlcChecker",
    "apalache": "tlaconf.replay.apalache.checker:ApalacheChecker",
}
"""External checker name -> ``"module:class"`` (``--backend`` and ``--cross-check``)."""


def get_checker(name: str, timeout: float | None = None) -> ExternalChecker:
    """The external checker called ``name``; UserError when unknown or not installed.

    ``timeout``: seconds the checker gets per trace (None: its default).
    """
    if name not in CHECKERS:
        raise UserError(f"unknown checker {name!r} (choose from {', '.join(CHECKERS)})")
    module_name, _, attr = CHECKERS[name].partition(":")
    checker: ExternalChecker = getattr(importlib.import_module(module_name), attr)(timeout)
    return checker


_TARGET = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*\Z"
)


def get_backend(name: str) -> Backend:
    """The backend called ``name`` (or ``"module:attribute"``); UserError when unavailable."""
    target = BACKENDS.get(name, name)
    if not _TARGET.match(target):
        raise UserError(
            f"unknown backend {name!r} (choose from {', '.join([*BACKENDS, *CHECKERS])}, "
            "or give module:attribute of a backend class)"
        )
    module_name, _, attr = target.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr, None)
        if factory is None:
            raise UserError(f"backend {name!r} is not available: {module_name} has no {attr}")
        backend = factory()
    except UserError:
        raise
    except Exception as err:  # importing or creating the backend failed
        if name in BACKENDS:  # a built-in one: a bug in tlaconf (exit 4), not bad input
            raise
        raise UserError(f"backend {name!r} is not available: {describe(err)}") from None
    if not callable(getattr(backend, "load", None)) or not isinstance(
        getattr(backend, "name", None), str
    ):
        raise UserError(f"backend {name!r}: {target} did not give a backend (an object with "
                        "a name and a load(spec) method)")
    loaded: Backend = backend
    return loaded
