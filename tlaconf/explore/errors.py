"""The explorer's error for what it does not check."""

from tlaconf.errors import UserError


class Unsupported(UserError):
    """A construct the explorer does not check (exit 2, never a count or verdict)."""
