"""Conversion between ``tlaconf-trace`` v1 files and ITF JSON files (Apalache ADR-015).

ITF is the Informal Trace Format of Apalache and Quint: one JSON object
``{"#meta": {...}, "params": [...], "vars": [...], "states": [...], "loop": k}``
whose states map variable names to ITF values.  :func:`trace_to_itf`
(:mod:`tlaconf.trace.itf_write`) writes a trace as ITF that Apalache, Quint and
itf-py read, with the Quint model-based-testing conventions for the action
and params; :func:`itf_to_trace` (:mod:`tlaconf.trace.itf_read`) reads ITF as
those tools write it.  Converting a trace to ITF and back gives a
byte-identical file for every trace :class:`~tlaconf.trace.writer.TraceWriter`
writes (its output is canonical); any other valid trace comes back with the
same values, canonically ordered.
"""

from __future__ import annotations

from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import unreadable_path
from tlaconf.trace.itf_read import itf_to_trace
from tlaconf.trace.itf_write import trace_to_itf
from tlaconf.trace.reader import MAX_LINE_BYTES
from tlaconf.values import strict_json

__all__ = ["is_trace_file", "itf_to_trace", "trace_to_itf"]


def is_trace_file(path: Path) -> bool:
    """Whether ``path`` holds a ``tlaconf-trace`` file (its first line says so), not ITF."""
    why = unreadable_path(path)
    if why is not None:
        raise UserError(f"cannot read {path}: it {why}")
    try:
        with path.open("rb") as f:
            first = f.readline(MAX_LINE_BYTES + 1)
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None
    try:
        obj = strict_json.loads(first.decode("utf-8"))
    except ValueError:  # not JSON, too deep, not UTF-8: not a trace's header line
        return False
    return isinstance(obj, dict) and obj.get("format") == "tlaconf-trace"
