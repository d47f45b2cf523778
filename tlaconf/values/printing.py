"""Values printed in TLA+ syntax, canonically ordered (as TLC prints them)."""

from __future__ import annotations

import re
from typing import Any

from tlaconf.values.bigint import decimal_text
from tlaconf.values.core import Fn, ModelValue, canonical

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _string(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def to_tla(v: Any) -> str:
    """``v`` in TLA+ syntax.

    ``{1, 2}``, ``<<1, "a">>``, ``[a |-> 1]``, ``(1 :> "a" @@ 2 :> "b")``.
    """
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
