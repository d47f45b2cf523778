"""Exploring a specification's state space with the evaluator's successor semantics.

The API the explorer, partial-log replay and spec-driven testing share::

    model = load_model("Spec.tla", "Spec.cfg")   # INIT/NEXT or SPECIFICATION, CONSTANTS ...
    model.ctx, model.postconditions              # the evaluator context; POSTCONDITIONs
    for s in model.initial_states(): ...         # dict variable -> value
    for t in model.successors(s):                # Transition(label, state)
        t.label.name, t.label.params, t.state
    model.key(s), model.fingerprint(s)           # deduplication (VIEW, SYMMETRY)
    model.violated_invariant(s), model.in_constraints(s), model.action_allowed(s, t)
    bfs(model, max_depth=None, hooks=()) -> Result  # TLC's counts; shortest violation
    model.hooks()                                # what the .cfg needs (PROPERTY checker)
    walks(model, n, depth, seed) -> Result       # seeded random walks
    succ = Successors(ctx)                       # one loaded module's successor semantics
    succ.initial(...), succ.next(...)            # of a predicate, of a split action
    succ.action(op, args, s)                     # of the call op(args), unlabelled

A construct the explorer does not check raises :class:`Unsupported` (a ``UserError``
naming ``file:line``); evaluation errors are :class:`~tlaconf.evaluate.EvalError`.
"""

from tlaconf.explore.adapter import Label, Successors
from tlaconf.explore.bfs import bfs
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.hooks import Hooks, Stop
from tlaconf.explore.model import Model, State, Transition, load_model, permute
from tlaconf.explore.result import Result, Step, Violation
from tlaconf.explore.walks import walks

__all__ = [
    "Hooks",
    "Label",
    "Model",
    "Result",
    "State",
    "Step",
    "Stop",
    "Successors",
    "Transition",
    "Unsupported",
    "Violation",
    "bfs",
    "load_model",
    "permute",
    "walks",
]
