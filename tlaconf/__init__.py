"""tlaconf: replay implementation traces against TLA+ operators and say where they diverge."""

__version__ = "0.1.0"
