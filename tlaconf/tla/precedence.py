"""SANY's precedence ranges and associativity of the infix operators
(``tla2sany/parser/Operators.java``): text SANY rejects is rejected here too.

Two unparenthesized infix operators whose ranges overlap need parentheses, unless they
are the same left-associative operator (``a + b + c``; ``8 \\div 2 \\div 2`` needs them);
a prefix operator cannot be the right operand of an infix operator that binds more
tightly than it (``2 * -1``, ``7 \\div -2``, ``a = ~b``; ``2 + -1`` is fine).
"""

from __future__ import annotations

_TABLE = (
    r"^ 140 140 N;/ 130 130 N;* 130 130 L;- 110 110 L;+ 100 100 L;\cdot 50 140 L;"
    r"\ 80 80 N;\cap 80 80 L;\intersect 80 80 L;\cup 80 80 L;\union 80 80 L;... 90 90 N;"
    r".. 90 90 N;| 100 110 L;|| 100 110 L;&& 130 130 L;& 130 130 L;$$ 90 130 L;$ 90 130 L;"
    r"?? 90 130 L;%% 100 110 L;% 100 110 N;## 90 130 L;++ 100 100 L;-- 110 110 L;"
    r"** 130 130 L;// 130 130 N;^^ 140 140 N;@@ 60 60 L;!! 90 130 N;<: 70 70 N;:> 70 70 N;"
    r"\oplus 100 100 L;(+) 100 100 L;\ominus 110 110 L;(-) 110 110 L;\odot 130 130 L;"
    r"(.) 130 130 L;\oslash 130 130 N;(/) 130 130 N;\otimes 130 130 L;(\X) 130 130 L;"
    r"\uplus 90 130 L;\sqcap 90 130 L;\sqcup 90 130 L;\div 130 130 N;\wr 90 140 N;"
    r"\star 130 130 L;\o 130 130 L;\circ 130 130 L;\bigcirc 130 130 L;\bullet 130 130 L;"
    r"= 50 50 N;/= 50 50 N;# 50 50 N;< 50 50 N;> 50 50 N;<= 50 50 N;=< 50 50 N;>= 50 50 N;"
    r"\leq 50 50 N;\geq 50 50 N;\in 50 50 N;\notin 50 50 N;\subseteq 50 50 N;"
    r"\subset 50 50 N;\supseteq 50 50 N;\supset 50 50 N;\sqsubseteq 50 50 N"
)

PRECEDENCE: dict[str, tuple[int, int, bool]] = {
    sym: (int(lo), int(hi), assoc == "L")
    for sym, lo, hi, assoc in (item.split(" ") for item in _TABLE.split(";"))
}
"""Infix operator -> (low, high, left-associative)."""

PREFIX: dict[str, tuple[int, int]] = {
    "-.": (120, 120), "~": (40, 40), "[]": (40, 150), "<>": (40, 150),
    "ENABLED": (40, 150), "UNCHANGED": (40, 150),
    "SUBSET": (100, 130), "UNION": (100, 130), "DOMAIN": (100, 130),
}
"""Prefix operator -> (low, high)."""


def infix_conflict(outer: str, inner: str, left: bool) -> bool:
    """Whether ``inner`` (an unparenthesized infix operand of ``outer``, on its left when
    ``left``) needs parentheses."""
    po, pi = PRECEDENCE.get(outer), PRECEDENCE.get(inner)
    if po is None or pi is None or not (pi[0] <= po[1] and po[0] <= pi[1]):
        return False
    return not (left and inner == outer and po[2])


def prefix_conflict(outer: str, prefix: str) -> bool:
    """Whether an unparenthesized ``prefix`` operand on the right of ``outer`` needs
    parentheses (SANY: the infix operator's low bound is above the prefix's high one)."""
    p, q = PRECEDENCE.get(outer), PREFIX.get(prefix)
    return p is not None and q is not None and p[0] > q[1]
