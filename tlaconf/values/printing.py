"""Values printed in TLA+ syntax, canonically ordered (as TLC prints them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tlaconf.values.bigint import decimal_text
from tlaconf.values.core import Fn, ModelValue, canonical

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _string(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


LARGE = 1000
"""A collection with more elements is shortened by :func:`to_tla` with a ``limit``."""


def to_tla(v: Any, limit: int | None = None) -> str:
    """``v`` in TLA+ syntax.

    ``{1, 2}``, ``<<1, "a">>``, ``[a |-> 1]``, ``(1 :> "a" @@ 2 :> "b")``.  With ``limit``
    (for messages) the text is at most about ``limit`` characters, ending in ``...``, and
    a collection of more than :data:`LARGE` elements is named by its size, not printed
    (so that a message about a huge value costs no more than a small one).
    """
    if limit is not None:
        return _short(v, limit)
    t = type(v)
    if t is bool:
        return "TRUE" if v else "FALSE"
    if t is int:
        return decimal_text(v)
    if t is str:
        return _string(v)
    if t is ModelValue:
        return v.name
    if t is frozenset:
        return "{" + ", ".join(to_tla(x) for x in canonical(v)) + "}"
    if t is tuple:
        return "<<" + ", ".join(to_tla(x) for x in v) + ">>"
    if t is Fn:
        keys = canonical(v)
        if keys and all(type(k) is str and _IDENT.match(k) for k in keys):
            return "[" + ", ".join(f"{k} |-> {to_tla(v[k])}" for k in keys) + "]"
        return "(" + " @@ ".join(f"{to_tla(k)} :> {to_tla(v[k])}" for k in keys) + ")"
    describe = getattr(v, "describe", None)
    if callable(describe):
        return str(describe())
    return repr(v)


def _short(v: Any, limit: int) -> str:
    t = type(v)
    if t in (frozenset, tuple, Fn):
        if len(v) > LARGE:
            kind = "set" if t is frozenset else "sequence" if t is tuple else "function"
            return f"(a {kind} of {len(v):,} elements)"
        if t is frozenset:
            return _joined("{", (_short(x, limit) for x in canonical(v)), ", ", "}", limit)
        if t is tuple:
            return _joined("<<", (_short(x, limit) for x in v), ", ", ">>", limit)
        keys = canonical(v)
        if keys and all(type(k) is str and _IDENT.match(k) for k in keys):
            return _joined("[", (f"{k} |-> {_short(v[k], limit)}" for k in keys), ", ", "]",
                           limit)
        return _joined("(", (f"{_short(k, limit)} :> {_short(v[k], limit)}" for k in keys),
                       " @@ ", ")", limit)
    text = to_tla(v)
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def _joined(open_: str, parts: Iterator[str], sep: str, close: str, limit: int) -> str:
    """``open_ + sep.join(parts) + close``, cut after ``limit`` characters."""
    out = [open_]
    size = len(open_)
    for i, part in enumerate(parts):
        piece = part if i == 0 else sep + part
        if size + len(piece) > limit:
            out.append((sep if i else "") + "...")
            break
        out.append(piece)
        size += len(piece)
    out.append(close)
    return "".join(out)
