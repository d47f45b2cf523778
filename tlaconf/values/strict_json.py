"""JSON parsing that refuses duplicate object keys (``json.loads`` keeps the last one)
and documents nested deeper than :data:`MAX_DEPTH`.

A duplicated key in a trace state or a params record would silently drop a
value, so it is an error naming the key and the line of the object holding it.
Nesting is limited before parsing (Python's own limit is a ``RecursionError`` that
depends on the stack in use): :class:`TooDeep` names the line and column where the
document goes deeper than :data:`MAX_DEPTH` arrays and objects.

A large document is parsed without a hook per object: its members are counted in its
text (the colons outside strings) and in the parsed objects, and only when the counts
differ (a key given twice) is it parsed again, object by object, to name the key.
"""

from __future__ import annotations

import json
import re
from itertools import chain, compress, repeat
from operator import is_
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

LARGE = 1 << 16
"""A longer document is parsed without a hook per object (see the module's text)."""


class TooDeep(ValueError):
    """The document nests deeper than :data:`MAX_DEPTH` at ``line``:``col`` (1-based)."""

    def __init__(self, line: int, col: int) -> None:
        super().__init__(f"JSON nested deeper than {MAX_DEPTH} arrays and objects")
        self.line = line
        self.col = col


_ESCAPE = re.compile(rb"\\.", re.S)
_STRING = re.compile(rb'"[^"]*"')
_OTHER = bytes(b for b in range(256) if b not in b'"[]{}:')
_OPEN_CLOSE = bytes.maketrans(b"{}", b"[]")


def _structure(text: str) -> bytes:
    """The brackets and colons of ``text`` outside its strings, in order (a few passes at C
    speed over its bytes: escapes out, then every byte but quotes, brackets and colons, then
    what lies from a quote to the next one, as the parser pairs them; a quote left alone
    goes too)."""
    data = text.encode("utf-8", "surrogatepass")  # a character over 127 is bytes over 127
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    data = data.translate(None, _OTHER)
    if data.count(b'"') % 2 == 0:
        # most strings hold none of these bytes: two quotes in a row. Two quotes in a row
        # that close a string and open the next leave those strings as one span between
        # the quotes around them, with nothing else in it: the pairing is kept.
        data = data.replace(b'""', b"")
    return _STRING.sub(b"", data).replace(b'"', b"") if b'"' in data else data


def check_depth(text: str) -> None:
    """TooDeep when ``text`` nests deeper than :data:`MAX_DEPTH` (linear: a few passes at C
    speed; a malformed document is left for the parser)."""
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(text, _structure(text))


def _check_depth(text: str, structure: bytes) -> None:
    # one kind of bracket (the depth counts both alike): each pass removes one level
    rest = structure.translate(_OPEN_CLOSE, b":")
    for _ in range(MAX_DEPTH):
        shorter = rest.replace(b"[]", b"")
        if shorter == rest:
            break
        rest = shorter
    if rest:  # deeper, or unbalanced: found on that path only
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
    if len(text) <= LARGE:
        check_depth(text)
        return _by_object(text)
    structure = _structure(text)
    _check_depth(text, structure)
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return _by_object(text)  # raises the same error, or the duplicate met first
    # every object and array of the text is in ``parsed`` and its members in its objects,
    # unless a key was given twice (the parser kept its last value)
    if _members(parsed, structure.count(b"[") + structure.count(b"{")) != structure.count(b":"):
        return _by_object(text)
    return parsed


def _by_object(text: str) -> Any:
    """``text`` parsed with each object's keys checked as it closes."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _Duplicate as dup:
        raise DuplicateKeyError(dup.key, _line_of_duplicate(text)) from None


def _members(obj: Any, containers: int) -> int:
    """How many members the objects in the parsed ``obj`` hold, all levels, a level at a time
    in a few passes at C speed; the walk stops below the level where the ``containers``
    objects and arrays of the text have all been met (what lies below holds none)."""
    total = 0
    level = [obj]
    while level:
        found = set(map(type, level))
        if found == _DICT:
            dicts, lists = level, []
        elif found == _LIST:
            dicts, lists = [], level
        else:
            kinds = list(map(type, level))
            dicts = list(compress(level, map(is_, kinds, repeat(dict))))
            lists = list(compress(level, map(is_, kinds, repeat(list))))
        total += sum(map(len, dicts))
        containers -= len(dicts) + len(lists)
        if containers <= 0:
            break
        level = list(chain(chain.from_iterable(map(dict.values, dicts)),
                           chain.from_iterable(lists)))
    return total


_DICT = {dict}
_LIST = {list}


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
