"""The embedded TLA+ evaluator (constant and action level, as TLC evaluates).

``load_module`` parses a module and what it EXTENDS/INSTANCEs, binds its CONSTANTS
and returns a :class:`Context` (``holds``, ``enabled``, ``explain``, ``evaluate``).
Operators compile to generated Python functions (see :mod:`.compiler`).

Where this evaluator knowingly differs from TLC:

- CHOOSE and RandomElement pick the first suitable element in tlaconf's canonical
  value order (TLC: its own normalized order, and a random element for
  RandomElement) -- deterministic, so replays are reproducible.
- Integers are unbounded: ``2^100`` is a value, and cardinalities that overflow TLC's
  32-bit integers are computed exactly.
- Cross-kind comparison errors are raised at the top level of ``=``/``\\in``
  (``"a" = 1``, ``{1} = 1``, ``"a" \\in {1}``); inside two sets or functions being
  compared, elements of different kinds compare unequal (``<<1>> # <<TRUE>>``).  A set
  or function domain that mixes booleans and integers, or holds two values equal but
  for them (``<<1>>`` and ``<<TRUE>>``), is refused when a set is built or combined
  (``\\cup``, ``\\cap``, ``\\``, UNION, ``@@``): Python would collapse ``TRUE`` and ``1``.
- Infinite sets nested inside a value compare by identity when they cannot be
  enumerated (``<<Seq({1})>> = <<Seq({1})>>`` is FALSE; TLC raises an error), and
  ``{1} \\cap {"a"}`` is ``{}`` (TLC: an error).
- TLCGet/TLCSet support integer registers only (no model-checking statistics);
  TLCExt provides TLCModelValue and AssertEq only.
- ENABLED follows TLC's successor generation (``x' = e`` assigns, ``x' \\in S``
  enumerates, arguments with primes are substituted by name) and, as the README says,
  reports an action that leaves a variable unassigned as an error.  Operators of
  parameterized instances are evaluated, not walked, by ENABLED and blame.
- Labels and sub-expression references (``Op!lab``, ``Op!1``) are not evaluated.
"""

from tlaconf.evaluate.blame import Blame
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
]
