"""Decimal integers of any length, without Python's 4,300-digit limit on ``int(str)``.

Python refuses to convert between ``str`` and ``int`` beyond
``sys.get_int_max_str_digits()`` digits (a guard against slow conversions).
TLA+ integers are unbounded, so tlaconf converts long ones in chunks below that
limit instead of changing the process-wide setting.
"""

from __future__ import annotations

import re

DECIMAL = re.compile(r"-?[0-9]+\Z")
"""The only text a ``#bigint`` (and a decimal literal) may hold: ASCII digits, one ``-``."""

_CHUNK = 4000


def parse_decimal(text: str) -> int:
    """The integer ``text`` (matching :data:`DECIMAL`) denotes, of any length."""
    if not DECIMAL.match(text):
        raise ValueError(f"{text[:40]!r} is not a decimal integer (expected -?[0-9]+)")
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text)
    if len(digits) <= _CHUNK:
        return sign * int(digits)
    split = len(digits) // 2
    high, low = parse_decimal(digits[:-split]), parse_decimal(digits[-split:])
    return sign * (high * 10**split + low)


_SMALL = 10**_CHUNK
"""Integers below this in magnitude print with ``str`` (computed once: it is large)."""


def decimal_text(n: int) -> str:
    """``str(n)`` for an integer of any length."""
    if -_SMALL < n < _SMALL:
        return str(n)
    if n < 0:
        return "-" + decimal_text(-n)
    split = int(n.bit_length() * 0.30103) // 2  # about half of n's decimal digits
    high, low = divmod(n, 10**split)
    return decimal_text(high) + decimal_text(low).rjust(split, "0")
