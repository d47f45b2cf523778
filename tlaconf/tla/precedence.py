"""SANY's operator table and its operator-precedence algorithm, exactly.

The table is ``tla2sany/parser/Operators.java`` (precedence range, associativity and
fix of every prefix, infix and postfix operator, with its synonyms); :class:`OperatorStack`
is ``tla2sany/parser/OperatorStack.java``: an expression is a flat sequence of operands and
operators, reduced by comparing ranges (``left.low > right.high``: reduce;
``left.high < right.low``: shift; overlapping ranges: a precedence conflict, unless both are
the same left-associative operator).  Text SANY rejects is rejected here, and what it
accepts gets SANY's tree; ``tests/tla/sany_operators.json`` records real SANY's answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PREFIX, INFIX, POSTFIX, NFIX = "prefix", "infix", "postfix", "nfix"


@dataclass(frozen=True, slots=True)
class Operator:
    """One row of SANY's table (``name`` is SANY's canonical spelling)."""

    name: str
    low: int
    high: int
    left: bool
    fix: str

    @property
    def infix(self) -> bool:
        return self.fix in (INFIX, NFIX)


# name low high assoc(L/N) fix(p=prefix i=infix s=postfix n=nfix); in Operators.java's order
_ROWS = r"""
[ 160 160 L s;. 170 170 L i;' 150 150 N s;^ 140 140 N i;/ 130 130 N i;* 130 130 L i;
- 110 110 L i;-. 120 120 N p;+ 100 100 L i;= 50 50 N i;\lnot 40 40 L p;\land 30 30 L i;
\lor 30 30 L i;~> 20 20 N i;=> 10 10 N i;[] 40 150 N p;<> 40 150 N p;ENABLED 40 150 N p;
UNCHANGED 40 150 N p;SUBSET 100 130 N p;UNION 100 130 N p;DOMAIN 100 130 N p;
^+ 150 150 N s;^* 150 150 N s;^# 150 150 N s;\cdot 50 140 L i;\equiv 20 20 N i;
-+-> 20 20 N i;/= 50 50 N i;\subseteq 50 50 N i;\in 50 50 N i;\notin 50 50 N i;< 50 50 N i;
\leq 50 50 N i;> 50 50 N i;\geq 50 50 N i;\times 100 130 L n;\ 80 80 N i;
\intersect 80 80 L i;\union 80 80 L i;... 90 90 N i;.. 90 90 N i;| 100 110 L i;
|| 100 110 L i;&& 130 130 L i;& 130 130 L i;$$ 90 130 L i;$ 90 130 L i;?? 90 130 L i;
%% 100 110 L i;% 100 110 N i;## 90 130 L i;++ 100 100 L i;-- 110 110 L i;** 130 130 L i;
// 130 130 N i;^^ 140 140 N i;@@ 60 60 L i;!! 90 130 N i;|- 50 50 N i;|= 50 50 N i;
-| 50 50 N i;=| 50 50 N i;<: 70 70 N i;:> 70 70 N i;:= 50 50 N i;::= 50 50 N i;
\oplus 100 100 L i;\ominus 110 110 L i;\odot 130 130 L i;\oslash 130 130 N i;
\otimes 130 130 L i;\uplus 90 130 L i;\sqcap 90 130 L i;\sqcup 90 130 L i;
\div 130 130 N i;\wr 90 140 N i;\star 130 130 L i;\o 130 130 L i;\bigcirc 130 130 L i;
\bullet 130 130 L i;\prec 50 50 N i;\succ 50 50 N i;\preceq 50 50 N i;\succeq 50 50 N i;
\sim 50 50 N i;\simeq 50 50 N i;\ll 50 50 N i;\gg 50 50 N i;\asymp 50 50 N i;
\subset 50 50 N i;\supset 50 50 N i;\supseteq 50 50 N i;\approx 50 50 N i;\cong 50 50 N i;
\sqsubset 50 50 N i;\sqsubseteq 50 50 N i;\sqsupset 50 50 N i;\sqsupseteq 50 50 N i;
\doteq 50 50 N i;\propto 50 50 N i
"""

_FIX = {"p": PREFIX, "i": INFIX, "s": POSTFIX, "n": NFIX}

CANONICAL_OPERATORS: tuple[Operator, ...] = tuple(
    Operator(name, int(lo), int(hi), assoc == "L", _FIX[fix])
    for name, lo, hi, assoc, fix in (row.split() for row in _ROWS.replace("\n", "").split(";"))
)

SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("\\lnot", "~", "\\neg"), ("\\land", "/\\"), ("\\lor", "\\/"), ("\\equiv", "<=>"),
    ("/=", "#"), ("\\leq", "<=", "=<"), ("\\geq", ">="), ("\\times", "\\X"),
    ("\\intersect", "\\cap"), ("\\union", "\\cup"), ("\\o", "\\circ"), ("\\oplus", "(+)"),
    ("\\ominus", "(-)"), ("\\odot", "(.)"), ("\\oslash", "(/)"), ("\\otimes", "(\\X)"),
)  # fmt: skip
"""SANY's ASCII synonyms (the first is the canonical spelling)."""

OPERATORS: dict[str, Operator] = {op.name: op for op in CANONICAL_OPERATORS}
"""Every ASCII spelling -> its row."""
for _names in SYNONYMS:
    for _alias in _names[1:]:
        OPERATORS[_alias] = OPERATORS[_names[0]]

FIELD = Operator(".", 170, 170, True, POSTFIX)
"""Record field selection ``r.a``: SANY applies it at once to the operand before it
(``reduceRecord``), which is a postfix operator above every other."""

VOID = Operator("$$_void", 0, 0, False, INFIX)
"""The end-of-expression marker SANY pushes before its final reduction."""


def mixfix(op: Operator) -> Operator | None:
    """SANY's ``getMixfix``: a prefix operator itself; the prefix form of an infix one."""
    return op if op.fix == PREFIX else OPERATORS.get(op.name + ".")


class PrecedenceError(Exception):
    """A sequence SANY refuses; ``at`` is the operator element where it is detected."""

    def __init__(self, message: str, at: Element) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


@dataclass(slots=True)
class Element:
    """An operand (``op is None``, ``value`` its tree) or an operator occurrence (``value`` is
    the caller's payload: token, arguments)."""

    value: Any
    op: Operator | None = None
    shown: str = ""
    """The operator as written, for messages."""


Reduce = Callable[[Element, Any, Any], Any]
"""``infix(op, left, right)``; prefix and postfix get ``(op, operand, None)``."""


class OperatorStack:
    """One expression's operator stack (``OperatorStack.java``'s ``CurrentTop``)."""

    def __init__(self, infix: Reduce, prefix: Reduce, postfix: Reduce) -> None:
        self._infix, self._prefix, self._postfix = infix, prefix, postfix
        self.stack: list[Element] = []

    def push(self, element: Element) -> None:
        self.stack.append(element)
        if element.op is not None and len(self.stack) != 1:
            self._reduce()

    def finish(self) -> Any:
        """SANY's ``finalReduce``: the tree of the whole sequence."""
        self.stack.append(Element(None, VOID))
        self._reduce()
        if len(self.stack) != 2 or self.stack[0].op is not None:  # pragma: no cover - grammar
            raise PrecedenceError("incomplete expression", self.stack[-1])
        return self.stack[0].value

    # -------------------------------------------------------------------- reductions

    def _reduce_infix(self, op: Element) -> None:
        s = self.stack
        n = len(s) - 1
        left, right = s[n - 3].value, s[n - 1].value
        del s[n - 2 : n]
        s[n - 3] = Element(self._infix(op, left, right))

    def _reduce_prefix(self) -> None:
        s = self.stack
        n = len(s) - 1
        node = self._prefix(s[n - 2], s[n - 1].value, None)
        del s[n - 1]
        s[n - 2] = Element(node)

    def _reduce_postfix(self) -> None:
        s = self.stack
        n = len(s) - 1
        node = self._postfix(s[n - 1], s[n - 2].value, None)
        del s[n - 1]
        s[n - 2] = Element(node)

    @staticmethod
    def _conflict(left: Element, lop: Operator, right: Element, rop: Operator) -> None:
        lshown = "-" if lop.name == "-." else left.shown or lop.name
        rshown = "-" if rop.name == "-." else right.shown or rop.name
        if lshown == rshown:
            what = f"'{lshown}' cannot be chained"
        else:
            what = f"precedence conflict between '{lshown}' and '{rshown}'"
        raise PrecedenceError(f"{what}: add parentheses (SANY rejects this)", right)

    def _reduce(self) -> None:
        s = self.stack
        while True:
            n = len(s) - 1
            top = s[n]
            right = top.op
            if right is None:
                return
            if right.fix == POSTFIX:
                below = s[n - 1]
                if below.op is not None:
                    if below.op.infix or below.op.fix == PREFIX:  # pragma: no cover - grammar
                        raise PrecedenceError(f"'{top.shown}' follows an operator", top)
                    self._reduce_postfix()
                elif n > 1:
                    el = s[n - 2]
                    left = el.op
                    if left is None:  # pragma: no cover - grammar
                        raise PrecedenceError("two expressions without an operator", top)
                    if left.low > right.high:
                        if left.infix:
                            self._reduce_infix(el)
                        else:
                            self._reduce_prefix()
                    elif not left.high < right.low:
                        self._conflict(el, left, top, right)
                    else:
                        return
                else:
                    return
            elif right.fix == PREFIX or n == 0:
                return
            else:
                below = s[n - 1]
                if below.op is not None:
                    left = below.op
                    if left.infix or left.fix == PREFIX:
                        mix = mixfix(right)
                        if mix is None:  # pragma: no cover - grammar
                            raise PrecedenceError(f"'{top.shown}' follows an operator", top)
                        if left.low > mix.high or (left is mix and left.left):
                            self._conflict(below, left, top, mix)
                    else:
                        self._reduce_postfix()
                elif n > 1:
                    el = s[n - 2]
                    left = el.op
                    if left is None:  # pragma: no cover - grammar
                        raise PrecedenceError("two expressions without an operator", top)
                    mix = mixfix(left)
                    if mix is not None and (n == 2 or s[n - 3].op is not None):
                        left = mix
                    if left.low > right.high or (left is right and left.left):
                        if left.infix:
                            self._reduce_infix(el)
                        elif left.fix == PREFIX:
                            self._reduce_prefix()
                        else:  # pragma: no cover - grammar
                            raise PrecedenceError("illegal combination of operators", top)
                    elif not left.high < right.low:
                        self._conflict(el, left, top, right)
                    else:
                        return
                else:
                    return
            if n == len(s) - 1:
                return
