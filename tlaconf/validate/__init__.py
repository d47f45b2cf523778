"""Validating logs against a specification by search: TLC trace-validation specs
(:mod:`~tlaconf.validate.tracespec`) and what the failure diagnosis shares
(:mod:`~tlaconf.validate.nearest`, :mod:`~tlaconf.validate.outcome`).

Both run on the exploration engine (:mod:`tlaconf.explore`): successors of a state,
its key (``VIEW``), constraints.
"""
