"""Matching an expected ``conjunct`` against a failure's blame, strictly.

A blame tree's **leaves** are its nodes without children: the innermost failing
parts (each failing disjunct, the CASE arm or IF branch taken, the conjunct of a
called operator's body, the body of a ``\\A`` counterexample).  An expected
``conjunct`` matches when, with every run of whitespace made one space and the
ends stripped, it is *equal* to the source text of one leaf.  An ancestor (a
conjunction, an operator call, the action itself) never matches, nor does a
part of a leaf's text.  A failure without a blame (a rejected step that changed
the state, or that was ENABLED) matches no conjunct.
"""

from __future__ import annotations

import re

from tlaconf.replay.result import BlameNode, Failure


def normalize(text: str) -> str:
    """``text`` with each run of whitespace one space, stripped at both ends."""
    return re.sub(r"\s+", " ", text).strip()


def leaves(node: BlameNode) -> list[BlameNode]:
    """The nodes of ``node``'s tree without children, in tree order."""
    if not node.children:
        return [node]
    return [leaf for child in node.children for leaf in leaves(child)]


def first_leaf_text(failure: Failure | None) -> str | None:
    """The text of the first leaf of ``failure``'s blame (None without a blame)."""
    if failure is None or failure.blame is None:
        return None
    return normalize(leaves(failure.blame)[0].text)


def conjunct_problem(failure: Failure | None, conjunct: str) -> str | None:
    """None when ``conjunct`` equals a leaf of ``failure``'s blame, else why it does not."""
    if failure is None:
        return f"there is no failure, so no conjunct {conjunct!r} was blamed"
    if failure.blame is None:
        return (
            f"expected conjunct {conjunct!r}, but this failure has no blame "
            f"({failure.reason}): no conjunct was FALSE, so none can be expected"
        )
    want = normalize(conjunct)
    found = [normalize(leaf.text) for leaf in leaves(failure.blame)]
    if want in found:
        return None
    listed = "; ".join(repr(t) for t in dict.fromkeys(found))
    return f"the blame does not blame {conjunct!r} (its innermost failing parts are: {listed})"
