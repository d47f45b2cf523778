"""The embedded TLA+ evaluator (constant and action level, as TLC evaluates)."""

from tlaconf.evaluate.blame import Blame
from tlaconf.evaluate.context import Context, OperatorInfo, load_ast, load_module, load_text
from tlaconf.evaluate.errors import EvalError
from tlaconf.evaluate.namespace import Override

__all__ = ["Blame", "Context", "EvalError", "OperatorInfo",
    "Override", "load_ast", "load_module", "load_text"]
