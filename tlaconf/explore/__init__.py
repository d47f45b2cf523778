"""Exploring a specification's state space with the evaluator's successor semantics.

The API the explorer, partial-log replay and spec-driven testing share::

    model = load_model("Spec.tla", "Spec.cfg")   # INIT/NEXT or SPECIFICATION, CONSTANTS ...
    model.ctx, model.postconditions              # the evaluator context; POSTCONDITIONs
    for s in model.initial_states(): ...         # dict variable -> value
    for t in model.successors(s):                # Transition(label, state)
        t.label.name, t.label.params, t.state
    model.key(s), model.fingerprint(s)           # identity (VIEW, SYMMETRY, kinds apart)
    model.violated_invariant(s), model.in_constraints(s), model.action_allowed(s, t)
    bfs(model, max_depth=None, hooks=()) -> Result  # TLC's counts; shortest violation
    dfs(model, max_depth=None) -> Result         # depth first, the same counts
    model.hooks()                                # what the .cfg needs (PROPERTY checker)
    walks(model, n, depth, seed) -> Result       # seeded random walks
    parallel_bfs(model, workers, max_depth=None) # bfs on forked workers, the same counts
    e = Engine(model, hooks, max_depth=..., max_states=..., max_seconds=...)
    e.bfs() / e.dfs() / e.walks(n, depth, seed); e.state(sid), e.path(sid), e.steps(ids)
    fingerprint(value), collision_probability(distinct, generated)
    succ = Successors(ctx)                       # one loaded module's successor semantics
    succ.initial(...), succ.next(...)            # of a predicate, of a split action
    succ.action(op, args, s)                     # of the call op(args), unlabelled

A construct the explorer does not check raises :class:`Unsupported` (a ``UserError``
naming ``file:line``); evaluation errors are :class:`~tlaconf.evaluate.EvalError`.
"""

from tlaconf.explore.adapter import Label, Successors
from tlaconf.explore.engine import Engine, Space, bfs, dfs, walks
from tlaconf.explore.errors import Unsupported
from tlaconf.explore.hooks import Hooks, StateId, Stop
from tlaconf.explore.identity import collision_probability, fingerprint, fingerprint_of
from tlaconf.explore.model import Model, State, Transition, load_model, permute
from tlaconf.explore.result import Result, Step, Violation
from tlaconf.explore.workers import parallel_bfs

__all__ = [
    "Engine",
    "Hooks",
    "Label",
    "Model",
    "Result",
    "Space",
    "State",
    "StateId",
    "Step",
    "Stop",
    "Successors",
    "Transition",
    "Unsupported",
    "Violation",
    "bfs",
    "collision_probability",
    "dfs",
    "fingerprint",
    "fingerprint_of",
    "load_model",
    "parallel_bfs",
    "permute",
    "walks",
]
