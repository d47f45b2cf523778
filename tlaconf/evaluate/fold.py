"""Constant folding: constant-level definitions and sub-expressions are evaluated once,
at compile time, and become globals of the generated code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tlaconf.evaluate import runtime as R
from tlaconf.evaluate.budget import BudgetExhausted
from tlaconf.evaluate.code import NOCONST, STATE, Code, Scope, pyname
from tlaconf.evaluate.levels import Levels
from tlaconf.evaluate.namespace import Entry
from tlaconf.tla import ast as A


class CodeHost(Protocol):
    """What folding needs of the code generator: its globals, fresh names, generated
    functions and the code of an expression as written (not folded)."""

    G: dict[str, Any]

    def fresh(self, prefix: str) -> str: ...
    def exec(self, src: str, name: str) -> Any: ...
    def glob(self, value: Any, prefix: str = "K") -> str: ...
    def def_fn(self, entry: Entry, primed: bool = False) -> str: ...
    def expr_nohoist(self, node: A.Node, sc: Scope) -> Code: ...


class Folding:
    """Constant folding for one compiler: the values of constant definitions and
    sub-expressions, computed once by running their generated code with no state."""

    def __init__(self, c: CodeHost, levels: Levels) -> None:
        self.c = c
        self.levels = levels
        self._consts: dict[int, str | None] = {}
        self._inprogress: set[int] = set()

    def const_ref(self, entry: Entry, startup: bool = False) -> Code | None:
        """A global holding the value of a zero-arity constant-level definition, if it
        evaluates without error.  A definition that prints (Print, PrintT, AssertEq) is
        folded only by TLC's startup pass (``startup``, :meth:`Context.check_assumptions
        <tlaconf.evaluate.Context.check_assumptions>`), which evaluates it once as TLC does;
        anywhere else it prints each time it is evaluated, as in TLC."""
        key = id(entry)
        if key in self._consts:
            name = self._consts[key]
            return None if name is None else Code(name, type(self.c.G[name]) is bool,
                                                   self.c.G[name])
        if key in self._inprogress or not self.levels.entry_is_const(entry):
            return None
        if not startup and not self.levels.entry_is_const(entry, pure=True):
            return None
        self._inprogress.add(key)
        try:
            fn = self.c.G[self.c.def_fn(entry)]
            value = self.run_const(fn, entry.node.span)
        finally:
            self._inprogress.discard(key)
        if value is NOCONST:
            self._consts[key] = None
            return None
        name = self.c.glob(value, f"C_{pyname(entry.name)}_")
        self._consts[key] = name
        return Code(name, type(value) is bool, value)

    def run_const(self, fn: Callable[..., Any], span: A.Span) -> Any:
        """``fn`` (a generated function of the state only) with no state: its value, or
        ``NOCONST`` when it fails (it then fails again, located, when evaluated).  When
        the evaluation budget runs out, the innermost folded expression (at ``span``)
        is where it ran out."""
        try:
            return fn(R.NO_STATE, R.NO_STATE)
        except Exception:
            return NOCONST
        except BudgetExhausted as exc:
            if exc.span == A.NO_SPAN:
                exc.span = span
            raise

    def hoist(self, node: A.Node, sc: Scope) -> Code | None:
        if isinstance(node, A.OpApp) and not node.args:
            return None
        if not self.levels.const_names(node, sc.ns, set(), sc.locals, pure=True):
            return None  # a sub-expression that prints prints each time, as in TLC
        inner = self.c.expr_nohoist(node, Scope(sc.ns, iterable=sc.iterable))  # := may be banned
        if inner.const is not NOCONST:
            return inner
        name = self.c.fresh("k_")
        fn = self.c.exec(f"def {name}({STATE}):\n    return {inner.src}\n", name)
        value = self.run_const(fn, node.span)
        if value is NOCONST:
            return inner
        g = self.c.glob(value)
        return Code(g, type(value) is bool, value)
