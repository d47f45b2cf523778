"""Apalache (Snowcat) types of trace values, and values written as typed TLA+ literals.

A type is a tuple: ``("Int",)``, ``("Str",)``, ``("Bool",)``, ``("Set", T)``,
``("Seq", T)``, ``("Tup", (T, ...))``, ``("Fun", K, V)``, ``("Rec", ((field, T), ...))``;
None where no value shows it (the element of an empty set, ...).  The empty
function ``<<>>`` is ``("Empty",)``: it is the empty sequence and the empty
function of every domain, so it unifies with any sequence or function type.

Types come from the conformance module's ``\\* @type:`` annotations of its
variables first (:func:`parse_type` reads them), then from every value of the
trace: :class:`TypeBook` unifies the types of all states (and all params of one
action label) and, when two lines disagree, raises a UserError naming both lines.
An element type that no value shows is ``Int``.  Model values have no Apalache form.
"""

from __future__ import annotations

import re
from typing import Any

from tlaconf.errors import UserError
from tlaconf.values import Fn, ModelValue, to_tla

Type = tuple[Any, ...] | None

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


def known(t: Type) -> bool:
    """Whether ``t`` is fully known (no element type left open by empty values)."""
    if t is None or t == EMPTY:
        return False
    if t[0] in ("Set", "Seq"):
        return known(t[1])
    if t[0] == "Fun":
        return known(t[1]) and known(t[2])
    if t[0] == "Tup":
        return all(known(x) for x in t[1])
    if t[0] == "Rec":
        return all(known(x) for _, x in t[1])
    return True


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
    return "{" + ", ".join(f"{f}: {type_text(x)}" for f, x in t[1]) + "}"


def literal(v: Any, t: Type) -> str:
    """The value ``v`` as a TLA+ expression Apalache reads with the type ``t``."""
    if t is None:
        t = infer(v)
    head = t[0] if t is not None else "Int"
    if head in ("Int", "Str", "Bool"):
        return to_tla(v)
    if head == "Empty":
        return "<<>>"
    assert t is not None
    if head == "Set":
        return "{" + ", ".join(literal(x, t[1]) for x in sorted(v, key=to_tla)) + "}"
    if head == "Seq":
        return "<<" + ", ".join(literal(x, t[1]) for x in v) + ">>"
    if head == "Tup":
        return "<<" + ", ".join(literal(x, xt) for x, xt in zip(v, t[1], strict=True)) + ">>"
    items = list(v.items()) if type(v) is Fn else list(enumerate(v, start=1))
    if head == "Fun":
        pairs = ", ".join(f"<<{literal(k, t[1])}, {literal(x, t[2])}>>" for k, x in items)
        return f"SetAsFun({{{pairs}}})"
    fields = dict(t[1])
    for k, _ in items:
        if not (type(k) is str and _IDENT.match(k)):
            raise UserError(f"record field {k!r} is not a TLA+ identifier (apalache backend)")
    return "[" + ", ".join(f"{k} |-> {literal(x, fields[k])}" for k, x in items) + "]"


# ---------------------------------------------------------------- annotations

_TOKEN = re.compile(r"\s*(->|<<|>>|[(){},:]|[A-Za-z_][A-Za-z0-9_]*|\S)")


def parse_type(text: str) -> Type:
    """A Snowcat type annotation (``Set(Str)``, ``Str -> Int``, ``{a: Int}``, ...) as a Type.

    None for what this reader does not model (type variables, aliases, variants):
    such a variable's type then comes from the trace's values.
    """
    tokens = _TOKEN.findall(text.strip().rstrip(";"))
    pos = 0

    def peek() -> str:
        return tokens[pos] if pos < len(tokens) else ""

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def arrow() -> Type:
        left = atom()
        if peek() == "->":
            take()
            return ("Fun", left, arrow())
        return left

    def atom() -> Type:
        tok = take()
        if tok in ("Int", "Str", "Bool"):
            return (tok,)
        if tok in ("Set", "Seq") and peek() == "(":
            take()
            inner = arrow()
            if take() != ")":
                raise ValueError(text)
            return (tok, inner)
        if tok == "(":
            inner = arrow()
            if take() != ")":
                raise ValueError(text)
            return inner
        if tok == "<<":
            items = [arrow()]
            while peek() == ",":
                take()
                items.append(arrow())
            if take() != ">>":
                raise ValueError(text)
            return ("Tup", tuple(items))
        if tok == "{":
            fields = []
            while peek() != "}":
                name = take()
                if take() != ":":
                    raise ValueError(text)
                fields.append((name, arrow()))
                if peek() == ",":
                    take()
            take()
            return ("Rec", tuple(sorted(fields)))
        raise ValueError(text)

    try:
        t = arrow()
    except (ValueError, IndexError):
        return None
    return t if pos == len(tokens) else None


class TypeBook:
    """One type per variable (and per action's params) across a trace, with where it was seen."""

    def __init__(self, annotated: dict[str, Type]) -> None:
        self.types: dict[str, Type] = dict(annotated)
        self._fixed = {k for k, t in annotated.items() if t is not None}
        self._seen: dict[str, int] = {}

    def observe(self, name: str, value: Any, line: int, what: str, record: bool = False) -> None:
        """Take ``value`` of ``name`` at ``line``; UserError when its shape differs from before."""
        try:
            mine = infer(value, record)
        except NoCommonType as err:
            raise UserError(f"line {line}: {what} has no Apalache type: {err.message}") from None
        known = self.types.get(name)
        try:
            merged = unify(known, mine)
        except NoCommonType:
            merged = None
            ok = False
        else:
            ok = name not in self._fixed or merged == known
        if not ok:
            first = self._seen.get(name)
            where = "its @type annotation" if name in self._fixed else f"line {first}"
            raise UserError(
                f"line {line}: {what} has the shape {_clip(type_text(mine))} here but "
                f"{_clip(type_text(known))} at {where}: the apalache backend needs one type per "
                "variable and per action's params across a trace"
            )
        self.types[name] = merged
        self._seen.setdefault(name, line)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."
