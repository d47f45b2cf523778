"""tlaconf: check that an implementation does what a TLA+ specification says.

The public API (documented in the manual's "Python API" page)::

    import tlaconf

    results = tlaconf.replay("traces/", spec="spec")      # full or partial traces
    tlaconf.exit_code(results)                            # tlaconf.ExitCode.OK, ...
    tlaconf.validate("TraceSpec.tla", env={"JSON": "log.ndjson"})
    tlaconf.explore("Spec.tla", depth=10)
    tlaconf.mbt("mypkg.drivers:queue", steps=25)
    with tlaconf.Recorder("run.trace.jsonl", "Queue", partial=True) as rec: ...

Nothing heavy is imported until a name is used (``tlaconf --version`` loads neither the
evaluator nor pydantic nor rich).  ``replay``, ``validate``, ``explore`` and ``mbt`` are
also the names of tlaconf's subpackages: ``tlaconf.replay(...)`` calls the function,
while ``tlaconf.replay.engine`` and ``from tlaconf.replay import Replayer`` still reach the
subpackage.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "replay": "tlaconf.api",
    "validate": "tlaconf.api",
    "explore": "tlaconf.api",
    "mbt": "tlaconf.api",
    "exit_code": "tlaconf.api",
    "settings": "tlaconf.api",
    "Recorder": "tlaconf.recorder",
    "ConformanceError": "tlaconf.validate.online",
    "Some": "tlaconf.recorder",
    "ExitCode": "tlaconf.errors",
    "UserError": "tlaconf.errors",
    "TraceResult": "tlaconf.replay.result",
    "Failure": "tlaconf.replay.result",
    "BlameNode": "tlaconf.replay.result",
    "Verdict": "tlaconf.replay.result",
    "ValidateOutcome": "tlaconf.api",
    "ExploreResult": "tlaconf.api",
    "MbtOutcome": "tlaconf.api",
    "Driver": "tlaconf.mbt.driver",
    "MappedDriver": "tlaconf.mbt.driver",
    "Response": "tlaconf.mbt.driver",
}
"""Public name -> the module that defines it (imported when the name is first used)."""

__all__ = ["__version__", *_EXPORTS]

_SUBPACKAGES = ("replay", "validate", "explore", "mbt")
"""Public functions named as a subpackage."""

if TYPE_CHECKING:
    from tlaconf.api import ExploreResult as ExploreResult
    from tlaconf.api import MbtOutcome as MbtOutcome
    from tlaconf.api import ValidateOutcome as ValidateOutcome
    from tlaconf.api import exit_code as exit_code
    from tlaconf.api import explore as explore
    from tlaconf.api import mbt as mbt
    from tlaconf.api import replay as replay
    from tlaconf.api import settings as settings
    from tlaconf.api import validate as validate
    from tlaconf.errors import ExitCode as ExitCode
    from tlaconf.errors import UserError as UserError
    from tlaconf.mbt.driver import Driver as Driver
    from tlaconf.mbt.driver import MappedDriver as MappedDriver
    from tlaconf.mbt.driver import Response as Response
    from tlaconf.recorder import Recorder as Recorder
    from tlaconf.recorder import Some as Some
    from tlaconf.replay.result import BlameNode as BlameNode
    from tlaconf.replay.result import Failure as Failure
    from tlaconf.replay.result import TraceResult as TraceResult
    from tlaconf.replay.result import Verdict as Verdict
    from tlaconf.validate.online import ConformanceError as ConformanceError


class _Entry:
    # ``tlaconf.replay`` (and ``validate``, ``explore``, ``mbt``): called, the public
    # function of tlaconf.api; any attribute, the subpackage's (``tlaconf.replay.engine``,
    # ``import tlaconf.replay.engine as e``), so both keep working whichever is used first.
    # help() and inspect.signature() show the function's (its doc, ``__wrapped__``).

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        doc: str | None = self._function().__doc__
        return doc

    def __get__(self, obj: object, kind: type | None = None) -> _Entry:
        return self  # a routine to pydoc, so help() documents the call

    def _function(self) -> Any:
        return getattr(importlib.import_module("tlaconf.api"), self._name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._function()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "__wrapped__":  # inspect.signature and help() show the function's
            return self._function()
        return getattr(importlib.import_module(f"tlaconf.{self._name}"), name)

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(f"tlaconf.{self._name}"))

    def __repr__(self) -> str:
        return f"<function tlaconf.{self._name} (and the subpackage tlaconf.{self._name})>"


class _Package(ModuleType):
    """The ``tlaconf`` module: importing a subpackage named as a public function does not
    replace the function (the import machinery sets the subpackage as an attribute)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SUBPACKAGES and isinstance(value, ModuleType):
            return  # reachable through the entry and sys.modules
        super().__setattr__(name, value)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tlaconf' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if not TYPE_CHECKING:
    for _name in _SUBPACKAGES:
        globals()[_name] = _Entry(_name)
    sys.modules[__name__].__class__ = _Package
