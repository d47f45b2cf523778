"""Spec-driven testing: requests drawn from a conformance module, applied to an
implementation through a driver, each step checked online by replay, failures shrunk
by Hypothesis and written as traces.  The public API is :mod:`tlaconf.hypothesis`.

- :mod:`.domains`: each action's params domain (``Params_<Action>``) in a state, and
  which requests the module allows there (``ENABLED``) and which it forbids;
- :mod:`.driver`: what a driver is, and how one is named (``module:attr``);
- :mod:`.online`: every step checked as ``tlaconf replay`` checks it;
- :mod:`.machine`: the Hypothesis state machine;
- :mod:`.run`: a run with its settings, the shrunk trace written out, the figures.
"""
