"""Settings read from environment variables, each checked in one place.

A count or a number of seconds that is not one (``TLACONF_TLC_CHUNK=²``, ``TLC_TIMEOUT=0``)
is a :class:`~tlaconf.errors.UserError` naming the variable (exit 2), never a crash.
``COLUMNS``, which shells set and every tool ignores when it is not a width, is ignored
when it is not a whole number of columns.
"""

from __future__ import annotations

import math
import os
import re

from tlaconf.errors import UserError

_WHOLE = re.compile(r"[0-9]+\Z")
"""ASCII digits only (``str.isdigit`` takes ``²`` too, which ``int`` refuses)."""


def count(name: str, default: int) -> int:
    """The whole number >= 1 that ``name`` holds (``default`` when it is unset or empty)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not _WHOLE.match(text) or int(text) < 1:
        raise UserError(f"{name}={text} is not a whole number of at least 1")
    return int(text)


def seconds(name: str) -> float | None:
    """The finite number of seconds > 0 that ``name`` holds (None when unset or empty)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise UserError(f"{name}={text} is not a number of seconds above 0")
    return value


def columns() -> int | None:
    """The terminal width ``COLUMNS`` gives, None when unset or not a width."""
    text = os.environ.get("COLUMNS", "").strip()
    return int(text) if _WHOLE.match(text) and 0 < int(text) < 100_000 else None


def drop_bad_columns() -> None:
    """Unset a ``COLUMNS`` that is not a width (the console library would crash on
    ``COLUMNS=²``)."""
    if "COLUMNS" in os.environ and columns() is None:
        del os.environ["COLUMNS"]
