"""The embedded TLA+ evaluator (constant and action level, as TLC evaluates).

``load_module`` parses a module and what it EXTENDS/INSTANCEs, binds its CONSTANTS
and returns a :class:`Context` (``holds``, ``enabled``, ``explain``, ``evaluate``).
Operators compile to generated Python functions (see :mod:`.compiler`).

It follows TLC's implementation where the TLA+ semantics leave TLC's answer
open (comparison of values of different kinds, the order of CHOOSE, Bags, ToString,
operator arguments evaluated only where used, functions evaluated only where applied);
see docs/evaluator.md, "TLC's semantics, and where tlaconf differs from TLC".  Where it
knowingly differs:

- CHOOSE and RandomElement pick the first suitable element in TLC's order of values
  (strings and record fields by code point: TLC orders strings by when its JVM first
  met them; RandomElement is random in TLC) -- deterministic, so replays are
  reproducible.
- Integers are unbounded: ``2^100`` is a value, and cardinalities that overflow TLC's
  32-bit integers are computed exactly.
- A set TLC cannot sort (``{1, "a"}``) is an error as soon as it is built; TLC reports
  it when it first sorts the set (almost always), but ``1 \\in {1, "a"}`` can be TRUE
  in TLC.
- TLCGet/TLCSet support integer registers only; ``TLCGet("level")``, ``"stats"`` and
  ``"config"`` exist only in a search that sets them (``tlaconf validate``);
  TLCExt provides TLCModelValue and AssertEq only.
- ENABLED follows TLC's successor generation (``x' = e`` assigns, ``x' \\in S``
  enumerates, arguments with primes are substituted by name) and, by design,
  reports an action that leaves a variable unassigned as an error.  Operators of
  parameterized instances are evaluated, not walked, by ENABLED and blame.
- Labels and sub-expression references (``Op!lab``) are not evaluated, except
  positional selectors of a definition without parameters (``Init!1``, ``Op!2!1``).
"""

from tlaconf.evaluate.blame import Blame
from tlaconf.evaluate.builtins import silent_prints
from tlaconf.evaluate.context import Context, OperatorInfo, load_module, load_text
from tlaconf.evaluate.errors import EvalError
from tlaconf.evaluate.namespace import Override

__all__ = [
    "Blame",
    "Context",
    "EvalError",
    "OperatorInfo",
    "Override",
    "load_module",
    "load_text",
    "silent_prints",
]
