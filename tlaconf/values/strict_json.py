"""JSON parsing that refuses duplicate object keys (``json.loads`` keeps the last one).

A duplicated key in a trace state or a params record would silently drop a
value, so it is an error naming the key and the line of the object holding it.
"""

from __future__ import annotations

import json
from json.decoder import JSONObject  # type: ignore[attr-defined]
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from typing import Any


class DuplicateKeyError(ValueError):
    """``key`` appears twice in the JSON object that starts on ``line`` (1-based)."""

    def __init__(self, key: str, line: int) -> None:
        super().__init__(f"duplicate key {key!r} in the object starting on line {line}")
        self.key = key
        self.line = line


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key
        self.pos: int | None = None


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def loads(text: str) -> Any:
    """``json.loads(text)``, but a duplicate key raises :class:`DuplicateKeyError`."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _Duplicate as dup:
        raise DuplicateKeyError(dup.key, _line_of_duplicate(text)) from None


def _line_of_duplicate(text: str) -> int:
    """The line of the innermost object with a duplicate key (parsed again, in Python, only
    on this error path: the C parser does not say where an object starts)."""
    decoder = json.JSONDecoder(object_pairs_hook=_unique)

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> Any:
        try:
            return JSONObject(s_and_end, *args)
        except _Duplicate as dup:
            if dup.pos is None:
                dup.pos = s_and_end[1] - 1
            raise

    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(text)
    except _Duplicate as dup:
        return text.count("\n", 0, dup.pos or 0) + 1
    return 1
