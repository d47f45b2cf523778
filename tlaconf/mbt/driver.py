"""What a driver is: the implementation under test, seen through the conformance module.

A driver is any object with

- ``module``: the conformance module's name (``"ZoneMembership"``);
- ``reset()``: start a fresh implementation and return its state mapped onto the
  module's variables (plain Python data: sets, lists, dicts, ints, strings, bools);
- ``apply(action, params)``: carry out one request (``params`` a dict of plain values)
  and return ``(accepted, state)`` or ``(accepted, state, reported)``: ``reported`` holds
  params fields the implementation fills in (results it reports, such as a shuffle's
  order), which replace or extend the request's in the recorded step; a
  :class:`Response` is accepted too.

and optionally ``constants`` (the trace header's constants), ``revision`` (of the
profile; default ``"1"``) and ``close()``.

:class:`MappedDriver` makes one from the implementation and the refinement mapping a
:class:`tlaconf.Recorder` is given, so one mapping serves recording and spec-driven
testing alike.
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from tlaconf.errors import UserError
from tlaconf.recorder import Refine, refined
from tlaconf.values import Fn

DEFAULT_REVISION = "1"


@dataclass(frozen=True)
class Response:
    """The implementation's answer to one request."""

    accepted: bool
    state: Mapping[str, Any]
    params: Mapping[str, Any] | None = field(default=None)


class Driver(Protocol):
    """See the module docstring."""

    module: str

    def reset(self) -> Mapping[str, Any]: ...

    def apply(self, action: str, params: dict[str, Any]) -> Any: ...


S = TypeVar("S")
"""The implementation's state (the implementation itself, say)."""

Act = Callable[[S, str, dict[str, Any]], "bool | tuple[bool, Mapping[str, Any]]"]
"""Carries out one request on the implementation: ``(implementation, action, params)`` ->
whether it accepted, or ``(accepted, reported params)``."""


class MappedDriver(Generic[S]):
    """A driver for conformance module ``module`` made of the implementation's own parts:
    ``make()`` a fresh implementation, ``act(implementation, action, params)`` carries out
    one request, and ``refine`` maps the implementation onto the module's variables: the
    refinement mapping :class:`tlaconf.Recorder` takes (default: the implementation is its
    own mapping), applied as the recorder applies it.  ``constants`` and ``revision`` are
    the recorder's too; ``close`` (optional) is called with the last implementation.
    ``act`` raising is the implementation crashing (a failure ``mbt`` reports and
    shrinks); TypeError when it returns anything else."""

    def __init__(self, module: str, make: Callable[[], S], act: Act[S],
                 refine: Refine[S] | None = None, *, constants: Mapping[str, Any] | None = None,
                 revision: str = DEFAULT_REVISION, close: Callable[[S], None] | None = None
                 ) -> None:
        self.module = module
        self.make, self.act, self.refine, self._close = make, act, refine, close
        self.constants = dict(constants or {})
        self.revision = revision
        self.implementation: S | None = None
        """The implementation of the current run (None before the first ``reset``)."""

    def reset(self) -> Mapping[str, Any]:
        self.implementation = self.make()
        return refined(self.implementation, self.refine)

    def apply(self, action: str, params: dict[str, Any]) -> Response:
        if self.implementation is None:
            raise RuntimeError("apply() before reset(): no implementation to drive")
        answer = self.act(self.implementation, action, params)
        accepted, reported = answer if isinstance(answer, tuple) else (answer, None)
        if type(accepted) is not bool or not (reported is None or isinstance(reported, Mapping)):
            raise TypeError(f"act(..., {action!r}, ...) returned {answer!r}: expected whether "
                            "the request was accepted (a bool), or (accepted, reported params)")
        return Response(accepted, refined(self.implementation, self.refine), reported)

    def close(self) -> None:
        if self._close is not None and self.implementation is not None:
            self._close(self.implementation)


def response(answer: Any, action: str) -> Response:
    """``answer`` (what ``apply`` returned) as a :class:`Response`; TypeError when malformed."""
    if isinstance(answer, Response):
        return answer
    if isinstance(answer, tuple) and len(answer) in (2, 3):
        accepted, state, *rest = answer
        if type(accepted) is bool and isinstance(state, Mapping):
            params = rest[0] if rest else None
            if params is None or isinstance(params, Mapping):
                return Response(accepted, state, params)
    raise TypeError(f"the driver's apply({action!r}, ...) returned {answer!r}: expected "
                    "(accepted: bool, state: dict) or (accepted, state, recorded_params)")


def plain(value: Any) -> Any:
    """A TLA+ value as plain Python data for a driver: records and functions as dicts,
    sequences as tuples, sets as frozensets (whose records and functions stay read-only
    mappings, :class:`~tlaconf.values.Fn`, since a dict cannot be a set's element)."""
    if type(value) is Fn:
        return {plain(k): plain(v) for k, v in value.items()}
    if type(value) is tuple:
        return tuple(plain(v) for v in value)
    if type(value) is frozenset:
        return frozenset(_hashable(v) for v in value)
    return value


def _hashable(value: Any) -> Any:
    if type(value) is tuple:
        return tuple(_hashable(v) for v in value)
    if type(value) is frozenset:
        return frozenset(_hashable(v) for v in value)
    return value


class DriverCrashed(Exception):
    """Importing a driver's module or making the driver raised: the implementation crashed
    (``traceback`` is the formatted traceback)."""

    def __init__(self, name: str, what: str) -> None:
        self.traceback = traceback.format_exc()
        super().__init__(f"driver {name!r}: {what} raised "
                         f"{self.traceback.strip().splitlines()[-1]}")


def load_driver(name: str) -> Driver:
    """The driver named ``package.module:attr`` (an object, or a class or function called
    without arguments to make one); UserError when it cannot be found or is no driver,
    :class:`DriverCrashed` when importing or making it raised."""
    mod_name, sep, attr = name.partition(":")
    if not sep or not mod_name or not attr:
        raise UserError(f"driver {name!r}: expected module:attr (e.g. mypkg.drivers:Bank)")
    try:
        mod = importlib.import_module(mod_name)
    except ModuleNotFoundError as err:
        raise UserError(f"driver {name!r}: cannot import {mod_name}: {err}") from None
    except Exception:
        raise DriverCrashed(name, f"importing {mod_name}") from None
    obj: Any = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UserError(f"driver {name!r}: {mod_name} has no attribute {attr}")
        obj = getattr(obj, part)
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "apply")):
        try:
            obj = obj()
        except Exception:
            raise DriverCrashed(name, f"{attr}() (making the driver)") from None
    missing = [a for a in ("module", "reset", "apply") if not hasattr(obj, a)]
    if missing:
        raise UserError(f"driver {name!r} is not a driver: it lacks {', '.join(missing)} "
                        "(a driver has module, reset() and apply(action, params))")
    if not isinstance(obj.module, str):
        raise UserError(f"driver {name!r}: its module is {obj.module!r}, not a module name")
    return obj
