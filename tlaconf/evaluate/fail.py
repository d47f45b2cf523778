"""The failure raised inside compiled code, and how a value is shown in its message.

Compiled operators, lazy sets and the value semantics raise :class:`Fail` with the index
of the sub-expression (``sid``) in the span table; the caller turns it into an
:class:`~tlaconf.evaluate.errors.EvalError` located in the source.
"""

from __future__ import annotations

from typing import Any

from tlaconf.values import to_tla


class Fail(Exception):
    """An evaluation error raised inside compiled code; ``sid`` indexes the span table."""

    def __init__(self, message: str, values: tuple[tuple[str, Any], ...] = (), sid: int = -1):
        super().__init__(message)
        self.message = message
        self.values = values
        self.sid = sid


class TooLarge(Fail):
    """A finite set that the evaluator refuses to enumerate (over
    :data:`~tlaconf.evaluate.lazysets.ENUM_LIMIT` elements)."""



def show(v: Any, limit: int = 300) -> str:
    """``v`` in TLA+ syntax, shortened for error messages."""
    try:
        text = to_tla(v, limit)
    except Exception:  # values that cannot be printed fully (lazy parts)
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."
