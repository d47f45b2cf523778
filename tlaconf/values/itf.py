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
    """The TLA+ value encoded by the JSON value ``obj``."""
    t = type(obj)
    if t is bool or t is str:
        return obj
    if t is int:
        if abs(obj) > SAFE_INT:
            raise ITFDecodeError(f'integer {obj} is not safe in JSON; use {{"#bigint": ...}}', path)
        return obj
    if t is float:
        if obj.is_integer() and abs(obj) <= SAFE_INT:
            return int(obj)
        raise ITFDecodeError(f"{obj!r} is not an integer (TLA+ has no floats)", path)
    if t is list:
        return tuple(decode(x, f"{path}[{i}]") for i, x in enumerate(obj))
    if t is dict:
        return _decode_object(obj, path)
    if obj is None:
        raise ITFDecodeError("null is not a TLA+ value", path)
    raise ITFDecodeError(f"unsupported JSON value {obj!r}", path)


def _decode_object(obj: dict[str, Any], path: str) -> Any:
    special = [k for k in obj if k.startswith("#")]
    if not obj:
        return ()  # the empty record is the empty function <<>>
    if not special:
        return Fn({k: decode(v, f"{path}.{k}" if path else k) for k, v in obj.items()})
    if len(obj) != 1:
        raise ITFDecodeError(f"an encoded value has exactly one key, got {sorted(obj)}", path)
    key = special[0]
    body = obj[key]
    if key == "#bigint":
        if not isinstance(body, str) or not DECIMAL.match(body):
            shown = repr(body if len(str(body)) <= 40 else f"{str(body)[:40]}...")
            raise ITFDecodeError(
                f"#bigint {shown} is not a decimal integer (a string matching -?[0-9]+)", path)
        return parse_decimal(body)
    if key in ("#set", "#tup"):
        if not isinstance(body, list):
            raise ITFDecodeError(f"{key} takes a JSON array", path)
        if _plain(body):  # strings, or safe integers: themselves, and always comparable
            return tuple(body) if key == "#tup" else frozenset(body)
        items = [decode(x, f"{path}{key}[{i}]") for i, x in enumerate(body)]
        if key == "#tup":
            return tuple(items)
        mix = check_comparable(items)
        if mix:
            raise ITFDecodeError(mix, path)
        return frozenset(items)
    if key == "#map":
        return _decode_map(body, path)
    if key == "#unserializable":
        if not isinstance(body, str):
            raise ITFDecodeError("#unserializable takes a string", path)
        return ModelValue(body)
    raise ITFDecodeError(
        f"unknown value encoding {key!r} (expected #bigint, #set, #tup, #map or #unserializable)",
        path,
    )


_STR = frozenset({str})
_INT = frozenset({int})


def _plain(body: list[Any]) -> bool:
    """Whether the JSON array ``body`` holds only strings, or only safe integers."""
    kinds = set(map(type, body))
    if kinds == _STR:
        return True
    return kinds == _INT and min(body) >= -SAFE_INT and max(body) <= SAFE_INT


def _decode_map(body: Any, path: str) -> Any:
    if not isinstance(body, list):
        raise ITFDecodeError("#map takes a JSON array of [key, value] pairs", path)
    pairs: list[tuple[Any, Any]] = []
    for i, pair in enumerate(body):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ITFDecodeError("#map entries are [key, value] pairs", f"{path}#map[{i}]")
        pairs.append(
            (decode(pair[0], f"{path}#map[{i}][0]"), decode(pair[1], f"{path}#map[{i}][1]"))
        )
    mix = check_comparable(k for k, _ in pairs)
    if mix:
        raise ITFDecodeError(mix, path)
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise ITFDecodeError("#map has a duplicate key", path)
    return make_fn(mapping)


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
