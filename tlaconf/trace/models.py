"""Pydantic models of the three line kinds of a ``tlaconf-trace`` v1 file.

Every model validates the JSON shape strictly (no unknown fields, no type
coercion) and decodes TLA+ values with our own ITF codec
(:func:`tlaconf.values.decode`), so a validated line holds TLA+ values.

========== ======================================================================
line 1     :class:`TraceHeader`  ``format``, ``version``, ``module``, ``revision``,
           ``constants`` (name -> value), ``meta`` (free-form JSON object)
line 2     :class:`StateLine`    ``state`` (variable -> value)
line 3..   :class:`StepLine`     ``action``, ``params`` (a record), ``outcome``, ``state``
           :class:`UnlabeledStepLine`  ``state`` (and optionally ``outcome``): a step
           without an action label, checked against the module's ``Next``
========== ======================================================================
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from tlaconf.trace.writer import FORMAT, VERSION, Outcome
from tlaconf.values import Fn, ITFDecodeError, Value, decode

IDENTIFIER = r"^[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*$"
"""A TLA+ identifier (module, action and variable names)."""
REVISION = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
"""A revision names the folder ``spec/reference-profile/rev<R>``: no separators."""

_IDENTIFIER = re.compile(IDENTIFIER)


def _decode_named(values: dict[str, Any], what: str) -> dict[str, Value]:
    """Decode every value of a JSON object of named values (state variables, constants)."""
    out: dict[str, Value] = {}
    for name, obj in values.items():
        if not _IDENTIFIER.match(name):
            message = f"{what} name {name!r} is not a TLA+ identifier"
            raise PydanticCustomError("itf_value", "{msg}", {"msg": message})
        try:
            out[name] = decode(obj, f"{what}.{name}")
        except ITFDecodeError as err:
            raise PydanticCustomError("itf_value", "{msg}", {"msg": str(err)}) from None
    return out


def decode_params(obj: dict[str, Any]) -> Value:
    """The params record encoded by the JSON object ``obj`` (``ValueError`` if it is not one)."""
    try:
        value = decode(obj, "params")
    except ITFDecodeError as err:
        raise ValueError(str(err)) from None
    if value != () and not (type(value) is Fn and all(type(k) is str for k in value)):
        raise ValueError("params must be a record (a JSON object of named fields)")
    return value


def json_kind(obj: Any) -> str:
    """The JSON name of the kind of ``obj`` (for messages)."""
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "a boolean"
    if isinstance(obj, int | float):
        return "a number"
    if isinstance(obj, str):
        return "a string"
    return "an array" if isinstance(obj, list) else "an object"


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class TraceHeader(_Line):
    """Line 1: what the trace is and which specification it is checked against."""

    format: str
    version: int
    module: str = Field(pattern=IDENTIFIER)
    revision: str = Field(pattern=REVISION)
    constants: dict[str, Any] = Field(default_factory=dict)
    meta: dict[str, Any] = Field(default_factory=dict)
    partial: bool = False
    """A partial trace (:mod:`tlaconf.trace.partial`): states may give some variables only."""

    @field_validator("format")
    @classmethod
    def _format(cls, v: str) -> str:
        if v != FORMAT:
            message = f"not a {FORMAT} file (format is {v!r})"  # pydantic has no !r
            raise PydanticCustomError("trace_format", "{msg}", {"msg": message})
        return v

    @field_validator("version")
    @classmethod
    def _version(cls, v: int) -> int:
        if v != VERSION:
            raise PydanticCustomError(
                "trace_version",
                "unsupported {fmt} version {got} (this tlaconf reads version {want})",
                {"fmt": FORMAT, "got": v, "want": VERSION},
            )
        return v

    @field_validator("constants")
    @classmethod
    def _constants(cls, v: dict[str, Any]) -> dict[str, Value]:
        return _decode_named(v, "constants")


class StateLine(_Line):
    """Line 2: the initial state."""

    state: dict[str, Any]

    @field_validator("state")
    @classmethod
    def _state(cls, v: dict[str, Any]) -> dict[str, Value]:
        return _decode_named(v, "state")


class StepLine(_Line):
    """Lines 3..: one step, with the full state after it (unchanged when rejected)."""

    action: str = Field(pattern=IDENTIFIER)
    params: Any
    outcome: Outcome
    state: dict[str, Any]

    @field_validator("params", mode="before")
    @classmethod
    def _params(cls, v: Any) -> Value:
        if not isinstance(v, dict):
            raise PydanticCustomError(
                "params_record", "params must be a record (a JSON object), not {got}",
                {"got": json_kind(v)},
            )
        try:
            return decode_params(v)
        except ValueError as err:
            raise PydanticCustomError("itf_value", "{msg}", {"msg": str(err)}) from None

    @field_validator("state")
    @classmethod
    def _state(cls, v: dict[str, Any]) -> dict[str, Value]:
        return _decode_named(v, "state")


class UnlabeledStepLine(_Line):
    """Lines 3..: a step without an action label (checked against ``Next``).

    ``outcome`` defaults to ``accepted``; a ``rejected`` one is a stuttering step.
    """

    outcome: Outcome = "accepted"
    state: dict[str, Any]

    @field_validator("state")
    @classmethod
    def _state(cls, v: dict[str, Any]) -> dict[str, Value]:
        return _decode_named(v, "state")
