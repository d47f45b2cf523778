"""Spec-driven stateful testing with Hypothesis: the public API (the engine is :mod:`tlaconf.mbt`).

::

    from tlaconf.hypothesis import run, state_machine

    outcome = run(BankDriver(), spec_dir)          # a whole run: shrunk failure written
    TestBank = state_machine(BankDriver(), spec_dir).TestCase   # or as a unittest/pytest class

A *driver* has ``module`` (the conformance module's name), ``reset()`` (a fresh
implementation; its state mapped onto the module's variables) and ``apply(action,
params)`` returning ``(accepted, state)`` or ``(accepted, state, recorded_params)``.
The module gives each action's params domain as ``Params_<Action>`` (a record of
sets, each field drawn on its own, or a set of records).  Every step is checked as
``tlaconf replay`` checks it: accepted, ``A(p)`` holds; rejected, the state is
unchanged and ``ENABLED A(p)`` is FALSE; every state satisfies the invariants.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis.stateful import RuleBasedStateMachine

from tlaconf.mbt.domains import PREFIX, Domains, Request
from tlaconf.mbt.driver import Driver, Response, load_driver
from tlaconf.mbt.machine import StepFailed, machine_class
from tlaconf.mbt.run import Found, Options, Outcome, run, session_for

__all__ = [
    "PREFIX",
    "Domains",
    "Driver",
    "Found",
    "Options",
    "Outcome",
    "Request",
    "Response",
    "StepFailed",
    "load_driver",
    "run",
    "state_machine",
]


def state_machine(driver: Driver, spec_dir: str | Path) -> type[RuleBasedStateMachine]:
    """A Hypothesis state machine class driving ``driver`` with requests from its module
    (found in ``spec_dir``); a nonconforming step raises :class:`StepFailed`, which
    Hypothesis shrinks.  Use its ``TestCase`` attribute as a test class, or pass it to
    ``hypothesis.stateful.run_state_machine_as_test``."""
    session = session_for(driver, Path(spec_dir))
    return machine_class(session, f"{driver.module}__{type(driver).__name__}")
