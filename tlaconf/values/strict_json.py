"""JSON parsing that refuses duplicate object keys (``json.loads`` keeps the last one)
and documents nested deeper than :data:`MAX_DEPTH`.

A duplicated key in a trace state or a params record would silently drop a
value, so it is an error naming the key and the line of the object holding it.
Nesting is limited before parsing (Python's own limit is a ``RecursionError`` that
depends on the stack in use): :class:`TooDeep` names the line and column where the
document goes deeper than :data:`MAX_DEPTH` arrays and objects.
"""

from __future__ import annotations

import json
import re
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
    out = dict(pairs)
    if len(out) != len(pairs):  # only then look for the key that came twice
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


MAX_DEPTH = 200
"""The deepest nesting of arrays and objects a JSON document may have (a TLA+ value
takes two levels per level of its own: ``{"#set": [...]}``)."""


class TooDeep(ValueError):
    """The document nests deeper than :data:`MAX_DEPTH` at ``line``:``col`` (1-based)."""

    def __init__(self, line: int, col: int) -> None:
        super().__init__(f"JSON nested deeper than {MAX_DEPTH} arrays and objects")
        self.line = line
        self.col = col


_ESCAPE = re.compile(r"\\.", re.S)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def check_depth(text: str) -> None:
    """TooDeep when ``text`` nests deeper than :data:`MAX_DEPTH` (linear: a few passes of
    the regular-expression engine; a malformed document is left for the parser)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    rest = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    for _ in range(MAX_DEPTH):  # each pass removes the innermost level everywhere
        shorter = rest.replace("[]", "").replace("{}", "")
        if shorter == rest:
            break
        rest = shorter
    if rest:
        _locate(text)


def _locate(text: str) -> None:
    """Find where ``text`` first goes deeper than MAX_DEPTH (only on that path)."""
    depth = 0
    in_string = escaped = False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, i) + 1
                raise TooDeep(line, i - (text.rfind("\n", 0, i) + 1) + 1)
        elif c in "]}":
            depth -= 1


def loads(text: str) -> Any:
    """``json.loads(text)``, but a duplicate key raises :class:`DuplicateKeyError` and
    nesting deeper than :data:`MAX_DEPTH` raises :class:`TooDeep`."""
    check_depth(text)
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
