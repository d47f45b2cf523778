"""JSON parsing that refuses duplicate object keys (``json.loads`` keeps the last one).

A duplicated key in a trace state or a params record would silently drop a
value, so it is an error naming the key and the line of the object holding it.
"""

from __future__ import annotations

import json
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
    """The line where the object that ``json.loads`` refused starts: the first object to
    close with a repeated key, as ``object_pairs_hook`` meets them (run only on this error
    path, over text ``json.loads`` has already scanned, so it is well formed up to there)."""
    opened: list[tuple[int, set[str], bool]] = []  # (start, keys, has a repeated key)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i)
            j = end
            while j < n and text[j] in " \t\r\n":
                j += 1
            if opened and j < n and text[j] == ":":  # an object key
                start, keys, dup = opened[-1]
                key = json.loads(text[i:end])
                opened[-1] = (start, keys, dup or key in keys)
                keys.add(key)
            i = end
            continue
        if ch == "{":
            opened.append((i, set(), False))
        elif ch == "}" and opened:
            start, _, dup = opened.pop()
            if dup:
                return text.count("\n", 0, start) + 1
        i += 1
    return 1


def _string_end(text: str, i: int) -> int:
    """The index just past the JSON string starting at ``text[i]`` (a quote)."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == '"':
            return j + 1
        else:
            j += 1
    return j
