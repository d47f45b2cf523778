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

import operator
from collections.abc import Iterable
from itertools import chain
from typing import Any

from tlaconf.values import shape
from tlaconf.values.bigint import DECIMAL, decimal_text, parse_decimal
from tlaconf.values.core import Fn, ModelValue, canonical, make_fn
from tlaconf.values.order import check_comparable
from tlaconf.values.records import SAFE_INT, SMALL, decode_set, scalars


class ITFDecodeError(ValueError):
    """A JSON value that is not a valid ITF value; ``path`` says where in the document."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.message = message
        self.path = path

    def within(self, segment: str) -> ITFDecodeError:
        """The same error one level up: ``segment`` (``[3]``, ``.field``, ``#set[0]``)
        is where the value it was found in sits in its parent."""
        return ITFDecodeError(self.message, segment + self.path)


def decode(obj: Any, path: str = "") -> Any:
    """The TLA+ value encoded by the JSON value ``obj``; ``path`` names ``obj`` in messages.

    Linear in the size of ``obj``, with no per-element work where a container holds
    only strings or safe integers; where in ``obj`` an error is (``path[2].f#set[0]``)
    is worked out only when there is one."""
    try:
        return _decode(obj)
    except ITFDecodeError as err:
        where = path + err.path if path or not err.path.startswith(".") else err.path[1:]
        raise ITFDecodeError(err.message, where) from None


def _decode(obj: Any) -> Any:
    t = type(obj)
    if t is bool or t is str:
        return obj
    if t is int:
        if abs(obj) > SAFE_INT:
            raise ITFDecodeError(f'integer {obj} is not safe in JSON; use {{"#bigint": ...}}', "")
        return obj
    if t is float:
        if obj.is_integer() and abs(obj) <= SAFE_INT:
            return int(obj)
        raise ITFDecodeError(f"{obj!r} is not an integer (TLA+ has no floats)", "")
    if t is list:
        return tuple(obj) if scalars(obj) else tuple(_items(obj, "["))
    if t is dict:
        return _decode_object(obj)
    if obj is None:
        raise ITFDecodeError("null is not a TLA+ value", "")
    raise ITFDecodeError(f"unsupported JSON value {obj!r}", "")


def _items(body: list[Any], segment: str) -> list[Any]:
    """The decoded elements of ``body``; an error names the element (``segment[i]``)."""
    out: list[Any] = []
    append = out.append
    try:
        for x in body:
            append(_decode(x))
    except ITFDecodeError as err:
        raise err.within(f"{segment}{len(out)}]") from None
    return out


def _decode_object(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        key, body = next(iter(obj.items()))
        if key.startswith("#"):
            return _encoded(key, body)
    elif not obj:
        return ()  # the empty record is the empty function <<>>
    if len(obj) > SMALL and _plain_values(obj):
        return Fn(dict(obj))
    out: dict[str, Any] = {}
    k = ""
    try:
        for k, v in obj.items():
            if k.startswith("#"):
                break
            out[k] = _decode(v)
        else:
            return Fn(out)
    except ITFDecodeError as err:
        raise err.within(f".{k}") from None
    raise ITFDecodeError(f"an encoded value has exactly one key, got {sorted(obj)}", "")


def _encoded(key: str, body: Any) -> Any:
    """The value of ``{key: body}``, an encoded value (``#set``, ``#bigint``, ...)."""
    if key == "#bigint":
        if not isinstance(body, str) or not DECIMAL.match(body):
            shown = repr(body if len(str(body)) <= 40 else f"{str(body)[:40]}...")
            raise ITFDecodeError(
                f"#bigint {shown} is not a decimal integer (a string matching -?[0-9]+)", "")
        return parse_decimal(body)
    if key in ("#set", "#tup"):
        if not isinstance(body, list):
            raise ITFDecodeError(f"{key} takes a JSON array", "")
        if key == "#tup":
            return tuple(body) if scalars(body) else tuple(_items(body, "#tup["))
        if _plain(body):  # strings, or safe integers: themselves, and always comparable
            return frozenset(body)
        flat = decode_set(body)
        if flat is not None:
            return flat
        items = _flat_records(body) or _items(body, "#set[")
        found = shape.of_items(items)  # elements of one shape always compare
        if found is None:
            mix = check_comparable(items)
            if mix:
                raise ITFDecodeError(mix, "")
        decoded = frozenset(items)
        shape.remember(decoded, found)  # known to the evaluator without another pass
        return decoded
    if key == "#map":
        return _decode_map(body)
    if key == "#unserializable":
        if not isinstance(body, str):
            raise ITFDecodeError("#unserializable takes a string", "")
        return ModelValue(body)
    raise ITFDecodeError(
        f"unknown value encoding {key!r} (expected #bigint, #set, #tup, #map or #unserializable)",
        "",
    )


_STR = frozenset({str})
_INT = frozenset({int})
_DICT = {dict}
_ENCODING_KEY = operator.methodcaller("startswith", "#")


def _encoding_key(keys: Iterable[str]) -> bool:
    """Whether a key of ``keys`` starts with ``#`` (looked for one by one only when one
    holds a ``#`` at all)."""
    keys = list(keys)
    return "#" in "".join(keys) and any(map(_ENCODING_KEY, keys))


def _plain(body: list[Any]) -> bool:
    """Whether the JSON array ``body`` holds only strings, or only safe integers."""
    kinds = set(map(type, body))
    if kinds == _STR:
        return True
    return kinds == _INT and min(body) >= -SAFE_INT and max(body) <= SAFE_INT


def _plain_values(obj: dict[str, Any]) -> bool:
    """Whether ``obj`` is a record of scalars (no key starts with ``#``): its values are
    themselves."""
    return not _encoding_key(obj) and scalars(obj.values())


def _flat_records(body: list[Any]) -> list[Any] | None:
    """The records of ``body`` when it is a list of non-empty JSON objects holding only
    scalars (no key starts with ``#``), of different keys or of several kinds in a field
    (:func:`~tlaconf.values.records.decode_set` takes the others), told in a few passes at
    C speed; else None (then each element is decoded, and an error named, one by one)."""
    if (len(body) <= SMALL or set(map(type, body)) != _DICT or not all(body)
            or _encoding_key(chain.from_iterable(body))
            or not scalars(list(chain.from_iterable(map(dict.values, body))))):
        return None
    return list(map(Fn, map(dict, body)))


def _decode_map(body: Any) -> Any:
    if not isinstance(body, list):
        raise ITFDecodeError("#map takes a JSON array of [key, value] pairs", "")
    pairs: list[tuple[Any, Any]] = []
    append = pairs.append
    side = ""
    try:
        for pair in body:
            if not (type(pair) is list and len(pair) == 2):
                side = ""
                raise ITFDecodeError("#map entries are [key, value] pairs", "")
            side = "[0]"
            k = _decode(pair[0])
            side = "[1]"
            append((k, _decode(pair[1])))
    except ITFDecodeError as err:
        raise err.within(f"#map[{len(pairs)}]{side}") from None
    mix = check_comparable([k for k, _ in pairs])
    if mix:
        raise ITFDecodeError(mix, "")
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise ITFDecodeError("#map has a duplicate key", "")
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
