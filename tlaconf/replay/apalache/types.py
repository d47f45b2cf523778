"""Apalache (Snowcat) types of trace values, and values written as typed TLA+ literals.

A type is a tuple: ``("Int",)``, ``("Str",)``, ``("Bool",)``, ``("Set", T)``,
``("Seq", T)``, ``("Tup", (T, ...))``, ``("Fun", K, V)``, ``("Rec", ((field, T), ...))``;
None where no value shows it (the element of an empty set, ...).  The empty
function ``<<>>`` is ``("Empty",)``: it is the empty sequence and the empty
function of every domain, so it unifies with any sequence or function type.

Types come from the ``\\* @type:`` annotations first (of the conformance
module's variables, and of its actions, whose parameter is the step's params;
:func:`~tlaconf.replay.apalache.typesyntax.parse_type` reads them):
:func:`conform` checks a value against an annotation and gives its concrete
type (a record's row variable ``{f: T, a}`` stands for the value's other
fields).  Unannotated, types come from every value of the trace.
:class:`TypeBook` keeps one type per variable and per action's params across
a trace and, when two lines disagree, raises a UserError naming both lines.
An element type that no value shows is ``Int``.  Model values have no Apalache form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tlaconf.errors import UserError
from tlaconf.replay.apalache.typesyntax import Type
from tlaconf.values import Fn, ModelValue, to_tla

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class NoCommonType(UserError):
    """Two values have no common Apalache type."""


def infer(v: Any, record: bool = False) -> Type:
    """The Apalache type of the value ``v`` (``record``: a function on strings is a record)."""
    t = type(v)
    if t is bool:
        return ("Bool",)
    if t is int:
        return ("Int",)
    if t is str:
        return ("Str",)
    if t is frozenset:
        return ("Set", unify_all([infer(x) for x in v]))
    if t is tuple:
        if not v:
            return EMPTY
        items = [infer(x) for x in v]
        try:
            return ("Seq", unify_all(items))
        except NoCommonType:
            return ("Tup", tuple(items))
    if t is Fn:
        keys = list(v)
        if keys and all(type(k) is str for k in keys):
            values = [infer(v[k]) for k in keys]
            if not record:
                try:
                    return ("Fun", ("Str",), unify_all(values))
                except NoCommonType:
                    pass
            return ("Rec", tuple(sorted(zip(keys, values, strict=True))))
        return ("Fun", unify_all([infer(k) for k in keys]), unify_all([infer(v[k]) for k in keys]))
    if t is ModelValue:
        raise UserError(f"model value {v.name} has no Apalache form (apalache backend)")
    raise UserError(f"{v!r} has no Apalache form (apalache backend)")


EMPTY: Type = ("Empty",)


def unify(a: Type, b: Type) -> Type:
    """The one type of values typed ``a`` and ``b``; NoCommonType when there is none."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if EMPTY in (a, b):
        other = b if a == EMPTY else a
        if other is not None and other[0] in ("Seq", "Fun", "Tup"):
            return other
    if a[0] == b[0] == "Rec" and [f for f, _ in a[1]] == [f for f, _ in b[1]]:
        return ("Rec", tuple((f, unify(x, y)) for (f, x), (_, y) in zip(a[1], b[1], strict=True)))
    if a[0] == b[0] == "Tup" and len(a[1]) == len(b[1]):
        return ("Tup", tuple(unify(x, y) for x, y in zip(a[1], b[1], strict=True)))
    if a[0] == b[0] and a[0] in ("Set", "Seq"):
        return (a[0], unify(a[1], b[1]))
    if a[0] == b[0] == "Fun":
        return ("Fun", unify(a[1], b[1]), unify(a[2], b[2]))
    if {a[0], b[0]} in ({"Seq", "Fun"}, {"Tup", "Fun"}):
        # a function whose domain happened to be 1..n (a sequence value) in some state
        fun, other = (a, b) if a[0] == "Fun" else (b, a)
        items = [other[1]] if other[0] == "Seq" else list(other[1])
        return ("Fun", unify(fun[1], ("Int",)), unify_all([fun[2], *items]))
    if {a[0], b[0]} == {"Seq", "Tup"}:
        seq, tup = (a, b) if a[0] == "Seq" else (b, a)
        return ("Seq", unify_all([seq[1], *tup[1]]))
    if {a[0], b[0]} == {"Fun", "Rec"}:
        # a function on strings whose values happened to differ in kind is a record
        fun, rec = (a, b) if a[0] == "Fun" else (b, a)
        if fun[1] == ("Str",) or fun[1] is None:
            return ("Rec", tuple((f, unify(t, fun[2])) for f, t in rec[1]))
    raise NoCommonType(f"{type_text(a)} and {type_text(b)} have no common Apalache type")


def unify_all(types: list[Type]) -> Type:
    out: Type = None
    for t in types:
        out = unify(out, t)
    return out


def known(t: Type, closed: bool = False) -> bool:
    """Whether ``t`` is fully known (no element type left open by empty values); ``closed``:
    and without a type or row variable (a definition of that type is not polymorphic)."""
    if t is None or t == EMPTY:
        return False
    if t[0] in ("Set", "Seq"):
        return known(t[1], closed)
    if t[0] == "Fun":
        return known(t[1], closed) and known(t[2], closed)
    if t[0] == "Tup":
        return all(known(x, closed) for x in t[1])
    if t[0] == "Rec":
        return all(known(x, closed) for _, x in t[1])
    return not (closed and t[0] in ("Open", "Var"))


def type_text(t: Type) -> str:
    """The type in Apalache's annotation syntax (unknown element types are ``Int``)."""
    if t is None:
        return "Int"
    head = t[0]
    if head in ("Int", "Str", "Bool"):
        return str(head)
    if head == "Empty":
        return "Seq(Int)"
    if head in ("Set", "Seq"):
        return f"{head}({type_text(t[1])})"
    if head == "Tup":
        return "<<" + ", ".join(type_text(x) for x in t[1]) + ">>"
    if head == "Fun":
        return f"({type_text(t[1])} -> {type_text(t[2])})"
    if head in ("Var", "Const"):
        return str(t[1])
    if head == "Oper":
        return "(" + ", ".join(type_text(x) for x in t[1]) + f") => {type_text(t[2])}"
    if head == "Open":
        return "{" + ", ".join([f"{f}: {type_text(x)}" for f, x in t[1]] + [t[2]]) + "}"
    if head != "Rec":
        return head.lower()  # Real, variants, rows, sparse tuples: not values of a trace
    return "{" + ", ".join(f"{f}: {type_text(x)}" for f, x in t[1]) + "}"


Share = Callable[[str, Type], str]
"""Given a composite value's text and type, the text to send for it (a name, or the text)."""


def literal(v: Any, t: Type, share: Share | None = None) -> str:
    """The value ``v`` as a TLA+ expression Apalache reads with the type ``t``; with
    ``share``, each composite part (the value itself included) is sent as ``share`` says."""
    if t is None:
        t = infer(v)
    head = t[0] if t is not None else "Int"
    if head in ("Int", "Str", "Bool"):
        return to_tla(v)
    if head == "Empty":
        return "<<>>"
    assert t is not None
    text = _composite(v, t, head, share)
    return text if share is None else share(text, t)


def _composite(v: Any, t: Any, head: str, share: Share | None) -> str:
    if head == "Set":
        return "{" + ", ".join(literal(x, t[1], share) for x in sorted(v, key=to_tla)) + "}"
    if head == "Seq":
        return "<<" + ", ".join(literal(x, t[1], share) for x in v) + ">>"
    if head == "Tup":
        return "<<" + ", ".join(literal(x, xt, share) for x, xt in zip(v, t[1], strict=True)) + ">>"
    items = list(v.items()) if type(v) is Fn else list(enumerate(v, start=1))
    if head == "Fun":
        pairs = ", ".join(f"<<{literal(k, t[1], share)}, {literal(x, t[2], share)}>>"
                          for k, x in items)  # fmt: skip
        return f"SetAsFun({{{pairs}}})"
    fields = dict(t[1])
    for k, _ in items:
        if not (type(k) is str and _IDENT.match(k)):
            raise UserError(f"record field {k!r} is not a TLA+ identifier (apalache backend)")
    return "[" + ", ".join(f"{k} |-> {literal(x, fields[k], share)}" for k, x in items) + "]"


def conform(v: Any, t: Type, where: str = "the value") -> Type:
    """The concrete type of ``v`` read with the annotation ``t`` (NoCommonType: it does not fit)."""
    if t is None:
        return infer(v)
    head, kind = t[0], type(v)

    def no(what: str) -> NoCommonType:
        shown = _clip(to_tla(v), 120)
        return NoCommonType(f"{where} is {shown}, {what}, not {_clip(type_text(t))}")

    if head in ("Int", "Str", "Bool"):
        if kind is not {"Int": int, "Str": str, "Bool": bool}[head]:
            names = {int: "integer", str: "string", bool: "Boolean"}
            raise no("a " + names.get(kind, kind.__name__))
        return t
    if head == "Var":
        return infer(v)
    if head == "Set":
        if kind is not frozenset:
            raise no("not a set")
        return ("Set", unify_all([conform(x, t[1], f"an element of {where}") for x in v]) or
                _closed(t[1]))
    if head == "Seq":
        if kind is not tuple:
            raise no("not a sequence")
        return ("Seq", unify_all([conform(x, t[1], f"{where}[{i}]") for i, x in enumerate(v, 1)])
                or _closed(t[1]))
    if head == "Tup":
        if kind is not tuple or len(v) != len(t[1]):
            raise no(f"not a {len(t[1])}-tuple")
        return ("Tup", tuple(conform(x, xt, f"{where}[{i}]")
                             for i, (x, xt) in enumerate(zip(v, t[1], strict=True), 1)))
    if head == "Fun":
        if kind is tuple:
            if v and t[1] != ("Int",):
                raise no("a sequence")
            pairs = list(enumerate(v, 1))
        elif kind is Fn:
            pairs = list(v.items())
        else:
            raise no("not a function")
        keys = [conform(k, t[1], f"a key of {where}") for k, _ in pairs]
        vals = [conform(x, t[2], f"{where}[{to_tla(k)}]") for k, x in pairs]
        return ("Fun", unify_all(keys) or _closed(t[1]), unify_all(vals) or _closed(t[2]))
    if head in ("Rec", "Open"):
        if kind is tuple and not v:
            fields: dict[Any, Any] = {}
        elif kind is Fn:
            fields = dict(v.items())
        else:
            raise no("not a record")
        wanted = dict(t[1])
        missing = sorted(set(wanted) - set(fields))
        extra = sorted(str(f) for f in set(fields) - set(wanted))
        if missing:
            raise no(f"without the field {missing[0]}")
        if extra and head == "Rec":
            raise no(f"with the field {extra[0]} the annotation lacks")
        out = [(f, conform(fields[f], ft, f"{where}.{f}")) for f, ft in wanted.items()]
        out += [(f, infer(fields[f])) for f in fields if f not in wanted]
        return ("Rec", tuple(sorted(out)))
    raise no(f"a value (the apalache backend has no values of {type_text(t)})")


def _closed(t: Type) -> Type:
    """``t`` where no value shows more (``Int`` for a type variable, the row closed)."""
    if t is None or t[0] == "Var":
        return ("Int",)
    if t[0] in ("Set", "Seq"):
        return (t[0], _closed(t[1]))
    if t[0] == "Fun":
        return ("Fun", _closed(t[1]), _closed(t[2]))
    if t[0] == "Tup":
        return ("Tup", tuple(_closed(x) for x in t[1]))
    if t[0] in ("Rec", "Open"):
        return ("Rec", tuple((f, _closed(x)) for f, x in t[1]))
    return t


class TypeBook:
    """One type per variable (and per action's params) across a trace, with where it was seen.

    ``annotated``: the annotation of a name (its values must fit it, see :func:`conform`).
    """

    def __init__(self, annotated: dict[str, Type]) -> None:
        self.types: dict[str, Type] = {}
        self._annotated = {k: t for k, t in annotated.items() if t is not None}
        self._seen: dict[str, int] = {}

    def observe(self, name: str, value: Any, line: int, what: str, record: bool = False) -> None:
        """Take ``value`` of ``name`` at ``line``; UserError when its shape differs from before."""
        note = self._annotated.get(name)
        try:
            mine = conform(value, note, what) if note is not None else infer(value, record)
        except NoCommonType as err:
            if note is None:
                message = f"line {line}: {what} has no Apalache type: {err.message}"
            else:
                message = (f"line {line}: {err.message} (its @type annotation); the apalache "
                           "backend needs every value to fit the annotation")  # fmt: skip
            raise UserError(message) from None
        known = self.types.get(name)
        try:
            merged = unify(known, mine)
        except NoCommonType:
            raise UserError(
                f"line {line}: {what} has the shape {_clip(type_text(mine))} here but "
                f"{_clip(type_text(known))} at line {self._seen[name]}: the apalache backend needs "
                "one type per variable and per action's params across a trace"
            ) from None
        self.types[name] = merged
        self._seen.setdefault(name, line)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."
