"""The structured error of the composition helpers (the zone library's error type)."""

from __future__ import annotations

from harness.zones.errors import ZoneError


class CompositionError(ZoneError):
    """A refused helper request: a stable ``code``, a message and the offending details."""
