"""Spec-driven testing: requests drawn from a conformance module, applied to an
implementation through a driver, each step checked online by replay, failures shrunk
by Hypothesis and written as traces.  The public API is :mod:`tlaconf.hypothesis`.

- :mod:`.domains`: each action's params domain (``Params_<Action>``) in a state, and
  which requests the module allows there (``ENABLED``) and which it forbids;
- :mod:`.driver`: what a driver is, and how one is named (``module:attr``);
- :mod:`.online`: every step checked as ``tlaconf replay`` checks it;
- :mod:`.machine`: the Hypothesis state machine;
- :mod:`.solver`: directed requests in one state: an allowed request and a near miss
  per guard (the ``Solver`` seam; the enumeration one);
- :mod:`.reach`: the states the requests reach, breadth first, each with its path;
- :mod:`.directed`: the survey of the reachable states for directed requests, and the
  sweep that sends them;
- :mod:`.exhaustive`: every request from every state up to a depth;
- :mod:`.guard_report`: guard coverage per action, and why a guard is not covered;
- :mod:`.run`: a run with its settings, the shrunk trace written out, the figures.
"""
