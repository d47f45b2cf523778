"""Streaming reader for ``tlaconf-trace`` v1 files.

::

    with open_trace(path) as t:
        t.header.module, t.header.revision, t.header.constants, t.header.meta
        t.initial                      # line 2, read on first use
        for step in t.steps():         # lines 3.., read lazily: constant memory
            step.line, step.action, step.params, step.outcome, step.state
            # step.action and step.params are None for a step without an action label

Every malformed input raises :class:`TraceFormatError` (a
:class:`~tlaconf.errors.UserError`) naming the file and the 1-based line
number of the bad line: unreadable file, bytes that are not UTF-8, invalid
JSON, a line that is not an object, a missing, unknown or mistyped field, a
wrong ``format`` or ``version``, an unknown value encoding, a bad outcome, a
params value that is not a record, a missing initial state, a blank line.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from tlaconf.errors import UserError
from tlaconf.files import NotText, decode, unreadable_path
from tlaconf.trace.models import (
    IDENTIFIER,
    Outcome,
    StateLine,
    StepLine,
    TraceHeader,
    UnlabeledStepLine,
    decode_params,
    json_kind,
)
from tlaconf.trace.sharing import SharedStates, count_booleans
from tlaconf.values import Value, strict_json


class TraceFormatError(UserError):
    """A malformed trace file.  ``line`` is the 1-based number of the bad line.

    ``line`` is None only when the file cannot be opened at all.
    """

    def __init__(self, message: str, path: str | os.PathLike[str], line: int | None) -> None:
        self.path = Path(path)
        self.line = line
        super().__init__(message, f"{path}:{line}" if line is not None else str(path))


@dataclass(frozen=True, slots=True)
class Step:
    """One step line: ``line`` is its 1-based line number in the file (3 for the first step).

    ``action`` and ``params`` are None for a step without an action label.
    """

    line: int
    action: str | None
    params: Value | None
    outcome: Outcome
    state: dict[str, Value]


M = TypeVar("M", bound=BaseModel)

MAX_LINE_BYTES = 256 * 1024 * 1024
"""A longer line is refused (a line holds one state; this bounds the memory one line takes)."""

_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "dict_type": "an object",
    "model_type": "an object",
}
_STEP_KEYS = frozenset({"action", "params", "outcome", "state"})
_UNLABELED_KEYS = (frozenset({"state"}), frozenset({"outcome", "state"}))
_OUTCOMES = frozenset({"accepted", "rejected"})
_IDENTIFIER = re.compile(IDENTIFIER)
_SHARED_LINE = 1 << 20
"""A state on a line up to this long is kept (as JSON and as values) for the next one to
be decoded against (:mod:`tlaconf.trace.sharing`), and the words ``true`` and ``false``
are counted on it (at most so many booleans are in it: a string may hold the words too);
a longer line's state is not kept, so a large state is held once, not twice."""

_CUSTOM = {"itf_value", "trace_format", "trace_version", "params_record"}


def describe_validation_error(err: ValidationError) -> str:
    """A one-line, user-facing account of a pydantic validation error."""
    parts: list[str] = []
    for e in err.errors(include_url=False):
        loc = ".".join(str(x) for x in e["loc"])
        kind = e["type"]
        if kind in _CUSTOM:
            parts.append(e["msg"])
        elif kind == "missing":
            parts.append(f"missing field {loc!r}")
        elif kind == "extra_forbidden":
            parts.append(f"unknown field {loc!r}")
        elif kind in _EXPECTED:
            what = f"{loc} must be" if loc else "a line must be"
            parts.append(f"{what} {_EXPECTED[kind]}, not {json_kind(e['input'])}")
        elif kind == "literal_error":
            parts.append(f"{loc} must be 'accepted' or 'rejected', not {e['input']!r}")
        elif kind == "string_pattern_mismatch":
            what = "a revision name" if loc == "revision" else "a TLA+ identifier"
            parts.append(f"{loc} {e['input']!r} is not {what}")
        else:
            parts.append(f"{loc}: {e['msg']}" if loc else e["msg"])
    return "; ".join(parts)


class TraceReader:
    """An open trace file.  Use :func:`open_trace`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        why = unreadable_path(self.path)
        if why is not None:
            raise TraceFormatError(f"cannot read trace: it {why}", path, None)
        try:
            self._file: IO[bytes] = self.path.open("rb")
        except OSError as err:
            raise TraceFormatError(f"cannot read trace: {err.strerror}", path, None) from None
        self._lineno = 0
        self._initial: dict[str, Value] | None = None
        self._stepping = False
        self._states = SharedStates()
        self._names: frozenset[str] = frozenset()
        self._short = True
        self._bools = -1
        """How many times ``true`` and ``false`` occur in the line read last (-1: not
        counted)."""
        try:
            obj = self._next_object()
            if obj is None:
                raise self._error("empty file: expected the trace header", 1)
            self.header: TraceHeader = self._validate(TraceHeader, obj)
        except BaseException:
            self._file.close()
            raise

    def _error(self, message: str, line: int | None = None) -> TraceFormatError:
        return TraceFormatError(message, self.path, self._lineno if line is None else line)

    def _next_object(self) -> Any | None:
        """The next line parsed as JSON, or None at the end of the file."""
        raw = self._file.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return None
        self._lineno += 1
        if len(raw) > MAX_LINE_BYTES:
            raise self._error(f"the line is longer than {MAX_LINE_BYTES:,} bytes")
        try:
            text = decode(raw, str(self.path), self._lineno)
        except NotText as err:
            raise self._error(f"{err.message} (column {err.col})") from None
        del raw  # a line may be one large state: keep one copy of it while it is parsed
        if not text.strip():
            raise self._error("blank line (every line must be one JSON object)")
        self._short = len(text) <= _SHARED_LINE
        self._bools = text.count("true") + text.count("false") if self._short else -1
        try:
            with _collector_paused(not self._short):
                return strict_json.loads(text)
        except strict_json.TooDeep as err:
            raise self._error(f"{err} (column {err.col})") from None
        except strict_json.DuplicateKeyError as err:
            raise self._error(f"duplicate key {err.key!r} in a JSON object "
                              "(each key may appear once)") from None
        except RecursionError:
            raise self._error("JSON nested too deeply") from None
        except ValueError as err:
            raise self._error(f"invalid JSON: {err}") from None

    def _validate(self, model: type[M], obj: Any) -> M:
        if not isinstance(obj, dict):
            raise self._error(f"a line must be a JSON object, not {json_kind(obj)}")
        try:
            with _collector_paused(not self._short):
                return model.model_validate(obj)
        except ValidationError as err:
            raise self._error(describe_validation_error(err)) from None
        except RecursionError:
            raise self._error("value nested too deeply") from None

    @property
    def initial(self) -> dict[str, Value]:
        """The initial state (line 2)."""
        if self._initial is None:
            obj = self._next_object()
            if obj is None:
                raise self._error("missing initial state (the file ends after the header)", 2)
            if isinstance(obj, dict) and "action" in obj:
                raise self._error('missing initial state: line 2 is a step, expected {"state": …}')
            quick = self._quick_step(obj) if _keys(obj) == _UNLABELED_KEYS[0] else None
            if quick is not None:
                self._initial = quick.state
            else:
                self._initial = self._validate(StateLine, obj).state
                self._states.remember(obj["state"], self._initial, keep=self._short)
        return self._initial

    def steps(self) -> Iterator[Step]:
        """The step lines, lazily, in file order (may be iterated once)."""
        if self._stepping:
            raise RuntimeError("steps() of a trace can be iterated only once")
        self._stepping = True
        _ = self.initial
        return self._iter_steps()

    def _iter_steps(self) -> Iterator[Step]:
        while (obj := self._next_object()) is not None:
            quick = self._quick_step(obj)
            if quick is not None:
                yield quick
                continue
            if isinstance(obj, dict) and "action" not in obj and "params" not in obj:
                u = self._validate(UnlabeledStepLine, obj)
                self._states.remember(obj["state"], u.state, keep=self._short)
                yield Step(self._lineno, None, None, u.outcome, u.state)
                continue
            m = self._validate(StepLine, obj)
            self._states.remember(obj["state"], m.state, keep=self._short)
            yield Step(self._lineno, m.action, m.params, m.outcome, m.state)

    def _quick_step(self, obj: Any) -> Step | None:
        """The step (or state) of a well-formed line, read without pydantic and its state
        decoded against the previous one (:mod:`tlaconf.trace.sharing`); None when the line
        is not plainly well formed, for the models to validate and say what is wrong."""
        keys = _keys(obj)
        if keys is None:
            return None
        state, outcome = obj.get("state"), obj.get("outcome", "accepted")
        if type(state) is not dict or type(outcome) is not str or outcome not in _OUTCOMES:
            return None
        action, params = obj.get("action"), obj.get("params")
        if keys == _STEP_KEYS:
            if (type(action) is not str or type(params) is not dict
                    or not _IDENTIFIER.fullmatch(action)):
                return None
        elif keys not in _UNLABELED_KEYS:
            return None
        if state.keys() != self._names:
            if not all(map(_IDENTIFIER.match, state)):
                return None
            self._names = frozenset(state)
        exact = self._bools == 0 or (self._bools > 0 and params is not None
                                     and self._bools == count_booleans(params))
        try:  # exact: every boolean of the line is in its params, none in its state
            with _collector_paused(not self._short):
                values = self._states.decode(state, exact=exact, keep=self._short)
                record = None if params is None else decode_params(params)
        except (ValueError, RecursionError):
            return None
        return Step(self._lineno, action, record, outcome, values)  # type: ignore[arg-type]

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TraceReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


@contextmanager
def _collector_paused(paused: bool) -> Iterator[None]:
    """Python's cyclic garbage collector paused while a line over 1 MiB is parsed and
    decoded: it passed over the millions of objects a large state holds again and again
    (half the time of a 50 MB set of records), and values hold no cycles (reference
    counting frees them). They are not frozen out of its passes (``gc.freeze`` acts on the
    whole process: a trace left open would keep every object of the process from it)."""
    if not paused or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _keys(obj: Any) -> frozenset[str] | None:
    return frozenset(obj) if type(obj) is dict and len(obj) <= len(_STEP_KEYS) else None


def open_trace(path: str | os.PathLike[str]) -> TraceReader:
    """Open the trace at ``path`` and validate its header (line 1)."""
    return TraceReader(path)
