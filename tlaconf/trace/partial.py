"""Partial traces: ``tlaconf-trace`` v1 files whose header says ``"partial": true``.

A partial trace logs *events* with what the implementation knows of the state:

* a state line may give some variables only; a variable it does not give is unknown;
* a variable given as a plain value is compared as a whole;
* ``{"#partial": {"field": v, ...}}`` gives some fields of a record (or some keys of a
  function with string keys), ``{"#partial": {"#map": [[k, v], ...]}}`` some keys of any
  function; the rest is unknown.  The given values may be ``#partial`` again;
* a step line has ``action`` and ``params`` (checked against that action) or neither
  (checked against ``Next``), an optional ``outcome`` (``accepted``, the default, or
  ``rejected``) and a ``state`` (possibly ``{}``: nothing observed).

Line 2 is the initial state (partial too; then the module's ``Init`` says what it may
be).  Values are ITF as in every trace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tlaconf.files import read_text
from tlaconf.trace.models import IDENTIFIER, TraceHeader, decode_params
from tlaconf.trace.reader import MAX_LINE_BYTES, TraceFormatError, describe_validation_error
from tlaconf.values import ITFDecodeError, decode, strict_json, to_tla

MARKER = "#partial"


@dataclass(frozen=True)
class Partial:
    """Some keys of a record or function, each with its (possibly partial) value."""

    entries: tuple[tuple[Any, Any], ...]

    def __str__(self) -> str:
        return "[" + ", ".join(f"{to_tla(k)} |-> {show(v)}" for k, v in self.entries) + ", ...]"


Logged = Mapping[str, Any]
"""Variable -> value or :class:`Partial`."""


def show(v: Any) -> str:
    return str(v) if isinstance(v, Partial) else to_tla(v)


@dataclass(frozen=True)
class PartialStep:
    line: int
    action: str | None
    params: Any
    outcome: str
    state: Logged


@dataclass(frozen=True)
class PartialTrace:
    path: Path
    header: TraceHeader
    initial: Logged
    steps: tuple[PartialStep, ...]


def is_partial(path: Path) -> bool:
    """Whether ``path``'s first line is a header with ``"partial": true`` (False for
    anything unreadable or not a regular file, which is never opened: a named pipe would
    block; the ordinary reader reports it)."""
    try:
        if not path.is_file():
            return False
        with open(path, encoding="utf-8") as f:
            first = strict_json.loads(f.readline(MAX_LINE_BYTES))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and first.get("partial") is True


def decode_logged(obj: Any, where: str) -> Any:
    """A logged value: ITF, or a ``#partial`` object."""
    if isinstance(obj, dict) and MARKER in obj:
        if len(obj) != 1:
            raise ITFDecodeError(f"{MARKER} must be the only key of its object", where)
        inner = obj[MARKER]
        if isinstance(inner, dict) and set(inner) == {"#map"}:
            pairs = inner["#map"]
            if not isinstance(pairs, list) or not all(
                    isinstance(p, list) and len(p) == 2 for p in pairs):
                raise ITFDecodeError('{"#map": ...} must hold [key, value] pairs', where)
            return Partial(tuple((decode(k, f"{where}[{i}]"), decode_logged(v, f"{where}[{i}]"))
                                 for i, (k, v) in enumerate(pairs)))
        if not isinstance(inner, dict) or any(k.startswith("#") for k in inner):
            raise ITFDecodeError(f'{MARKER} takes an object of fields or {{"#map": [...]}}',
                                 where)
        return Partial(tuple((k, decode_logged(v, f"{where}.{k}")) for k, v in inner.items()))
    return decode(obj, where)


def _state(obj: Any, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ITFDecodeError("state must be an object of variables", where)
    return {name: decode_logged(v, f"{where}.{name}") for name, v in obj.items()}


_STEP_KEYS = frozenset({"action", "params", "outcome", "state"})


def read_partial(path: Path) -> PartialTrace:
    """The partial trace at ``path``; TraceFormatError naming the line otherwise."""
    text = read_text(path, "trace")
    lines = list(_objects(text, path))
    if not lines:
        raise TraceFormatError("empty file: expected a header line", path, 1)
    try:
        header = TraceHeader.model_validate(lines[0][1])
    except ValidationError as err:
        raise TraceFormatError(describe_validation_error(err), path, 1) from None
    if not header.partial:
        raise TraceFormatError('not a partial trace (the header has no "partial": true)',
                               path, 1)
    if len(lines) < 2:
        raise TraceFormatError("missing initial state (the file ends after the header)", path, 2)
    initial = initial_line(lines[1][1], path, lines[1][0])
    steps = tuple(step_line(obj, path, n) for n, obj in lines[2:])
    return PartialTrace(path, header, initial, steps)


def initial_line(obj: Any, path: Path, n: int = 2) -> Logged:
    """The initial state of the partial trace at ``path`` from its line ``n`` (2), parsed
    as JSON; TraceFormatError naming the line otherwise."""
    if not isinstance(obj, dict) or set(obj) != {"state"}:
        raise TraceFormatError('line 2 must be the initial state, {"state": {...}}', path, n)
    try:
        return _state(obj["state"], "state")
    except ITFDecodeError as err:
        raise TraceFormatError(str(err), path, n) from None


def step_line(obj: Any, path: Path, n: int) -> PartialStep:
    """Step line ``n`` of the partial trace at ``path``, parsed as JSON;
    TraceFormatError naming the line otherwise."""
    try:
        return _step(obj, n)
    except _LineError as err:
        raise TraceFormatError(err.message, path, err.line) from None


class _LineError(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message, self.line = message, line


def _step(obj: Any, n: int) -> PartialStep:
    if not isinstance(obj, dict):
        raise _LineError("a step must be a JSON object", n)
    unknown = set(obj) - _STEP_KEYS
    if unknown:
        raise _LineError(f"unknown field(s) {', '.join(sorted(unknown))} (a step has "
                         "action, params, outcome, state)", n)
    if "state" not in obj:
        raise _LineError('missing field "state" ({} when nothing was observed)', n)
    action = obj.get("action")
    if ("action" in obj) != ("params" in obj):
        raise _LineError("action and params come together (or neither, for a step "
                         "checked against Next)", n)
    if action is not None and (not isinstance(action, str) or not _identifier(action)):
        raise _LineError(f"action {action!r} is not a TLA+ identifier", n)
    outcome = obj.get("outcome", "accepted")
    if outcome not in ("accepted", "rejected"):
        raise _LineError(f"outcome must be accepted or rejected, not {outcome!r}", n)
    params = None
    if action is not None:
        if not isinstance(obj["params"], dict):
            raise _LineError("params must be a record (a JSON object)", n)
        try:
            params = decode_params(obj["params"])
        except ValueError as err:
            raise _LineError(str(err), n) from None
    try:
        state = _state(obj["state"], "state")
    except ITFDecodeError as err:
        raise _LineError(str(err), n) from None
    return PartialStep(n, action, params, outcome, state)


def _identifier(name: str) -> bool:
    import re

    return re.match(IDENTIFIER, name) is not None


def _objects(text: str, path: Path) -> Iterator[tuple[int, Any]]:
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            raise TraceFormatError("blank line (every line is one JSON object)", path, n)
        try:
            yield n, strict_json.loads(line)
        except strict_json.TooDeep as err:
            raise TraceFormatError(f"{err} (column {err.col})", path, n) from None
        except strict_json.DuplicateKeyError as err:
            raise TraceFormatError(f"duplicate key {err.key!r} in a JSON object (each key "
                                   "may appear once)", path, n) from None
        except json.JSONDecodeError as err:
            raise TraceFormatError(f"not JSON: {err.msg} (column {err.colno})", path, n) \
                from None


_FIELD_PART = re.compile(r"\.([A-Za-z0-9_]+)|\[(.+?)\]")


def field_span(line: str, field: str) -> tuple[int, int] | None:
    """Where the logged ``field`` (``var``, ``var.f``, ``var[k]``, nested) is in the text of
    its log ``line``: (first column, last column), 1-based, of its innermost key that can
    be found after ``"state"``; None when not even the variable can."""
    at = line.find('"state"')
    head = re.match(r"[A-Za-z0-9_]+", field)
    if at < 0 or head is None:
        return None
    keys = [f'"{head.group(0)}"']
    rest = field[head.end():]
    keys += [f'"{dot}"' if dot else key.strip() for dot, key in _FIELD_PART.findall(rest)]
    span: tuple[int, int] | None = None
    for key in keys:
        found = line.find(key, at)
        if found < 0:
            break
        span = (found + 1, found + len(key))
        at = found + len(key)
    return span
