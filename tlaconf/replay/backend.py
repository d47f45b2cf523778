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
(:mod:`tlaconf.evaluate`); ``apalache`` is :mod:`tlaconf.replay.apalache`.
A backend outside tlaconf is named by its own ``"module:attribute"``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from typing import Any, Protocol

from tlaconf.errors import UserError, describe
from tlaconf.replay.result import BlameNode
from tlaconf.spec.module_spec import ModuleSpec

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


BACKENDS: dict[str, str] = {
    "embedded": "tlaconf.replay.embedded:EmbeddedBackend",
    "apalache": "tlaconf.replay.apalache:ApalacheBackend",
}
"""Backend name -> ``"module:class"``; the class is instantiated without arguments."""


_TARGET = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*\Z"
)


def get_backend(name: str) -> Backend:
    """The backend called ``name`` (or ``"module:attribute"``); UserError when unavailable."""
    target = BACKENDS.get(name, name)
    if not _TARGET.match(target):
        raise UserError(
            f"unknown backend {name!r} (choose from {', '.join(BACKENDS)}, "
            "or give module:attribute of a backend class)"
        )
    module_name, _, attr = target.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr, None)
        if factory is None:
            raise UserError(f"backend {name!r} is not available: {module_name} has no {attr}")
        backend = factory()
    except ModuleNotFoundError as err:  # the backend or what it needs is not installed
        raise UserError(f"backend {name!r} is not available: {err}") from None
    except UserError:
        raise
    except Exception as err:  # importing or creating the backend failed
        raise UserError(f"backend {name!r} is not available: {describe(err)}") from None
    if not callable(getattr(backend, "load", None)) or not isinstance(
        getattr(backend, "name", None), str
    ):
        raise UserError(f"backend {name!r}: {target} did not give a backend (an object with "
                        "a name and a load(spec) method)")
    loaded: Backend = backend
    return loaded
