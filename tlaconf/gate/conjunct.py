"""Matching an expected ``conjunct`` against a failure's blame, strictly.

A blame tree's **leaves** are its nodes without children: the innermost failing
parts (each failing disjunct, the CASE arm or IF branch taken, the conjunct of a
called operator's body, the body of a ``\\A`` counterexample).  An expected
``conjunct`` matches when it is *equal* to the source text of one leaf as TLA+
tokens: spacing, line breaks, comments, ASCII or Unicode spellings (``<=`` and
``=<``, ``/\\`` and ``∧``) and a leading bullet (``/\\`` or ``\\/``, as the line reads
in the module) do not matter.  An ancestor (a
conjunction, an operator call, the action itself) never matches, nor does a
part of a leaf's text.  A failure without a blame (a rejected step that changed
the state, or that was ENABLED) matches no conjunct.
"""

from __future__ import annotations

import re

from tlaconf.replay.result import BlameNode, Failure
from tlaconf.tla.errors import ParseError
from tlaconf.tla.lexer import tokenize

_BULLETS = {"/\\", "\\/"}


def normalize(text: str) -> str:
    """``text`` with each run of whitespace one space, stripped at both ends."""
    return re.sub(r"\s+", " ", text).strip()


def tokens(text: str) -> tuple[str, ...]:
    """``text`` as its TLA+ tokens (canonical spelling), a leading bullet dropped.

    Text that does not lex is compared as its whitespace-normalised self.
    """
    try:
        toks = [str(t.value) for t in tokenize(text, "<conjunct>")]
    except ParseError:
        return (normalize(text),)
    if toks and toks[0] in _BULLETS:
        toks = toks[1:]
    return tuple(toks)


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
    found = [normalize(leaf.text) for leaf in leaves(failure.blame)]
    if tokens(conjunct) in {tokens(text) for text in found}:
        return None
    listed = "; ".join(repr(t) for t in dict.fromkeys(found))
    return f"the blame does not blame {conjunct!r} (its innermost failing parts are: {listed})"
