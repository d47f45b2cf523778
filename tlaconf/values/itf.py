"""Our own lossless codec between TLA+ values and the ITF JSON value encoding.

ITF (the trace format of Apalache and Quint) encodes booleans, strings and
safe integers as JSON, ``{"#bigint": "…"}``, ``{"#set": [...]}``,
``{"#tup": [...]}``, sequences as JSON arrays, records as JSON objects,
``{"#map": [[k, v], ...]}`` for other functions, and ``{"#unserializable": s}``
for values it has no form for (model values here).

Decoding keeps kinds apart: a record stays a function on strings (not a
named tuple), and ``{"#set": [true, 1]}`` is refused instead of collapsing.
"""

from __future__ import annotations

from typing import Any

from tlaconf.values.bigint import DECIMAL, decimal_text, parse_decimal
from tlaconf.values.core import Fn, ModelValue, canonical, make_fn
from tlaconf.values.order import check_comparable

SAFE_INT = 2**53 - 1


class ITFDecodeError(ValueError):
    """A JSON value that is not a valid ITF value; ``path`` says where in the document."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.message = message
        self.path = path


def decode(obj: Any, path: str = "") -> Any:
    """The TLA+ value encoded by the JSON value ``obj``; an :class:`ITFDecodeError` names
    where in it (below ``path``) the first bad value is."""
    try:
        return _value(obj)
    except ITFDecodeError as err:
        where = path + err.path if path or not err.path.startswith(".") else err.path[1:]
        raise ITFDecodeError(err.message, where) from None


def _value(obj: Any) -> Any:
    """``decode`` without the path of an error: the error's ``path`` is relative to ``obj``
    (``.k`` a record field, ``[i]`` an element), found only when there is an error."""
    t = type(obj)
    if t is bool or t is str:
        return obj
    if t is int:
        if obj > SAFE_INT or obj < -SAFE_INT:
            raise ITFDecodeError(f'integer {obj} is not safe in JSON; use {{"#bigint": ...}}', "")
        return obj
    if t is float:
        if obj.is_integer() and abs(obj) <= SAFE_INT:
            return int(obj)
        raise ITFDecodeError(f"{obj!r} is not an integer (TLA+ has no floats)", "")
    if t is list:
        return tuple(_values(obj, "["))
    if t is dict:
        return _decode_object(obj)
    if obj is None:
        raise ITFDecodeError("null is not a TLA+ value", "")
    raise ITFDecodeError(f"unsupported JSON value {obj!r}", "")


def _values(items: list[Any], at: str) -> list[Any]:
    """The decoded elements of the JSON array ``items``; an error's path starts with
    ``{at}{i}]`` (``at`` is ``[`` or ``#set[``...)."""
    try:
        return [_value(x) for x in items]
    except ITFDecodeError:
        for i, x in enumerate(items):
            try:
                _value(x)
            except ITFDecodeError as err:
                raise ITFDecodeError(err.message, f"{at}{i}]{err.path}") from None
        raise


def _decode_object(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        ((key, body),) = obj.items()
        if key.startswith("#"):
            return _encoded(key, body)
    elif not obj:
        return ()  # the empty record is the empty function <<>>
    elif any(k.startswith("#") for k in obj):
        raise ITFDecodeError(f"an encoded value has exactly one key, got {sorted(obj)}", "")
    try:
        return Fn({k: _value(v) for k, v in obj.items()})
    except ITFDecodeError:
        for k, v in obj.items():
            try:
                _value(v)
            except ITFDecodeError as err:
                raise ITFDecodeError(err.message, f".{k}{err.path}") from None
        raise


def _encoded(key: str, body: Any) -> Any:
    """The value of ``{key: body}`` for a ``#`` key."""
    if key == "#set" or key == "#tup":
        if type(body) is not list:
            raise ITFDecodeError(f"{key} takes a JSON array", "")
        if _plain(body):  # strings, or safe integers: themselves, and always comparable
            return tuple(body) if key == "#tup" else frozenset(body)
        items = _values(body, f"{key}[")
        if key == "#tup":
            return tuple(items)
        mix = check_comparable(items)
        if mix:
            raise ITFDecodeError(mix, "")
        return frozenset(items)
    if key == "#map":
        return _decode_map(body)
    if key == "#bigint":
        if not isinstance(body, str) or not DECIMAL.match(body):
            shown = repr(body if len(str(body)) <= 40 else f"{str(body)[:40]}...")
            raise ITFDecodeError(
                f"#bigint {shown} is not a decimal integer (a string matching -?[0-9]+)", "")
        return parse_decimal(body)
    if key == "#unserializable":
        if not isinstance(body, str):
            raise ITFDecodeError("#unserializable takes a string", "")
        return ModelValue(body)
    raise ITFDecodeError(
        f"unknown value encoding {key!r} (expected #bigint, #set, #tup, #map or #unserializable)",
        "")


_STR = frozenset({str})
_INT = frozenset({int})


def _plain(body: list[Any]) -> bool:
    """Whether the JSON array ``body`` holds only strings, or only safe integers."""
    kinds = set(map(type, body))
    if kinds == _STR:
        return True
    return kinds == _INT and min(body) >= -SAFE_INT and max(body) <= SAFE_INT


def _decode_map(body: Any) -> Any:
    if not isinstance(body, list):
        raise ITFDecodeError("#map takes a JSON array of [key, value] pairs", "")
    pairs: list[tuple[Any, Any]] = []
    for i, pair in enumerate(body):
        if not (type(pair) is list and len(pair) == 2):
            raise ITFDecodeError("#map entries are [key, value] pairs", f"#map[{i}]")
        pairs.append((_entry(pair[0], i, 0), _entry(pair[1], i, 1)))
    mix = check_comparable(k for k, _ in pairs)
    if mix:
        raise ITFDecodeError(mix, "")
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise ITFDecodeError("#map has a duplicate key", "")
    return make_fn(mapping)


def _entry(obj: Any, i: int, j: int) -> Any:
    try:
        return _value(obj)
    except ITFDecodeError as err:
        raise ITFDecodeError(err.message, f"#map[{i}][{j}]{err.path}") from None


def encode(v: Any) -> Any:
    """The ITF JSON form of the value ``v`` (sets and maps in canonical order)."""
    t = type(v)
    if t is bool or t is str:
        return v
    if t is int:
        return v if abs(v) <= SAFE_INT else {"#bigint": decimal_text(v)}
    if t is frozenset:
        return {"#set": [encode(x) for x in canonical(v)]}
    if t is tuple:
        return [encode(x) for x in v]
    if t is Fn:
        keys = canonical(v)
        if keys and all(type(k) is str and not k.startswith("#") for k in keys):
            return {k: encode(v[k]) for k in keys}
        return {"#map": [[encode(k), encode(v[k])] for k in keys]}
    if t is ModelValue:
        return {"#unserializable": v.name}
    raise NotEncodable(repr(v))


class NotEncodable(TypeError):
    """A value that is not finite data (an infinite or unenumerated set); ``text`` shows it."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text} has no ITF encoding (only finite values can be encoded)")
        self.text = text


def from_python(v: Any) -> Any:
    """A TLA+ value from plain Python data: set -> set, list/tuple -> sequence, dict -> function.

    Used by implementations that record their state (``harness``) without
    building TLA+ values by hand.
    """
    t = type(v)
    if t in (bool, int, str) or t is ModelValue or t is Fn:
        return v
    if t in (set, frozenset):
        items = [from_python(x) for x in v]
        mix = check_comparable(items)
        if mix:
            raise ValueError(mix)
        return frozenset(items)
    if t in (list, tuple):
        return tuple(from_python(x) for x in v)
    if isinstance(v, dict):
        return make_fn({from_python(k): from_python(x) for k, x in v.items()})
    raise TypeError(f"{v!r} ({t.__name__}) is not a TLA+ value")
