"""The evaluator's public error type."""

from __future__ import annotations

from tlaconf.errors import UserError
from tlaconf.tla.ast import NO_SPAN, Span


class EvalError(UserError):
    """An evaluation failed: ``span`` locates the sub-expression, ``values`` the values involved
    (name, value printed in TLA+ syntax)."""

    def __init__(
        self, message: str, span: Span = NO_SPAN, values: tuple[tuple[str, str], ...] = ()
    ) -> None:
        detail = "\n".join(f"  {n} = {v}" for n, v in values) or None
        super().__init__(message, str(span) if span != NO_SPAN else None, detail)
        self.span = span
        self.values = values
