"""ITF as Apalache, Quint and itf-py read it: each value in the ADR-015 form its type asks for.

Some TLA+ values have two ITF forms: a tuple is also a sequence (``{"#tup": [...]}``
or a JSON array), a record is also a function on strings (a JSON object or
``{"#map": [[k, v], ...]}``).  A :class:`Form` says which one a place of a
value takes (its element, field, key and value forms included).  Forms come
from an Apalache type (``Seq(Int)``, ``<<Int, Str>>``, ``{a: Int}``, ``Str -> Int``)
or from the JSON of the first value seen (:func:`form_of_json`).

:func:`encode_itf` writes every integer as ``{"#bigint": "…"}`` (as Apalache
and Quint do), sets as ``#set``, a tuple or sequence by its form (a JSON array
when none is known), a function whose keys are all identifiers as a record
unless its form is a map, every other function as ``#map``, and model values
as ``#unserializable``.  The forms never change a value: decoding gives it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from tlaconf.values.core import Fn, ModelValue, canonical

FormKind = Literal["any", "seq", "tup", "rec", "map", "set"]
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
"""A record field name every ITF reader takes (itf-py makes named tuples of records)."""


@dataclass(frozen=True)
class Form:
    """``kind`` with ``items``: ``seq``/``set`` (element,), ``map`` (key, value), ``tup`` each."""

    kind: FormKind = "any"
    items: tuple[Form, ...] = ()
    fields: tuple[tuple[str, Form], ...] = ()

    def item(self, i: int) -> Form:
        return self.items[i] if i < len(self.items) else ANY

    def field(self, name: str) -> Form:
        for k, f in self.fields:
            if k == name:
                return f
        return ANY


ANY = Form()


def form_of_json(obj: Any) -> Form:
    """The form of an ITF JSON value as written (its first element, key and value for
    collections)."""
    if isinstance(obj, list):
        return Form("seq", (form_of_json(obj[0]),) if obj else ())
    if not isinstance(obj, dict):
        return ANY
    if len(obj) == 1:
        key, body = next(iter(obj.items()))
        if key == "#tup" and isinstance(body, list):
            return Form("tup", tuple(form_of_json(x) for x in body))
        if key == "#set" and isinstance(body, list):
            return Form("set", (form_of_json(body[0]),) if body else ())
        if key == "#map" and isinstance(body, list):
            first = body[0] if body else None
            if isinstance(first, list) and len(first) == 2:
                return Form("map", (form_of_json(first[0]), form_of_json(first[1])))
            return Form("map")
        if key.startswith("#"):
            return ANY
    return Form("rec", fields=tuple((k, form_of_json(v)) for k, v in obj.items()))


def encode_itf(v: Any, form: Form = ANY) -> Any:
    """The ITF JSON of the value ``v`` in ``form`` (sets and maps in canonical order)."""
    t = type(v)
    if t is bool or t is str:
        return v
    if t is int:
        return {"#bigint": str(v)}
    if t is frozenset:
        elem = form.item(0) if form.kind == "set" else ANY
        return {"#set": [encode_itf(x, elem) for x in canonical(v)]}
    if t is tuple:
        if form.kind == "tup":
            return {"#tup": [encode_itf(x, form.item(i)) for i, x in enumerate(v)]}
        if not v and form.kind == "rec":
            return {}
        if not v and form.kind == "map":
            return {"#map": []}
        elem = form.item(0) if form.kind == "seq" else ANY
        return [encode_itf(x, elem) for x in v]
    if t is Fn:
        keys = canonical(v)
        if form.kind != "map" and all(type(k) is str and _FIELD.match(k) for k in keys):
            return {k: encode_itf(v[k], form.field(k)) for k in keys}
        kf, vf = (form.item(0), form.item(1)) if form.kind == "map" else (ANY, ANY)
        return {"#map": [[encode_itf(k, kf), encode_itf(v[k], vf)] for k in keys]}
    if t is ModelValue:
        return {"#unserializable": v.name}
    raise TypeError(f"{v!r} has no ITF encoding (only finite values can be encoded)")
