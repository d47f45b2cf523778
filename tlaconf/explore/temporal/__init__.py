"""Temporal properties (``PROPERTY`` lines) checked as TLC checks them: safety on every
step of the search, liveness with the specification's fairness on the state graph.

``read_properties(ctx, names, lines, spec)`` reads them (refusing what is not
supported); ``PropertyChecker(ctx, props)`` is the :class:`~tlaconf.explore.hooks.Hooks`
a search carries to check them.
"""

from tlaconf.explore.temporal.checker import PropertyChecker
from tlaconf.explore.temporal.classify import Properties, read_properties

__all__ = ["Properties", "PropertyChecker", "read_properties"]
