"""The structured error every zone operation raises or returns."""

from __future__ import annotations

from typing import Any


class ZoneError(Exception):
    """A rejected definition or request: a stable ``code``, a message and the offending details."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ZoneError) and (self.code, self.message, self.details) == (
            other.code,
            other.message,
            other.details,
        )

    def __hash__(self) -> int:
        return hash((self.code, self.message))
