"""Which failed explanation came nearest: blame trees ranked by how far they got.

A blame tree (:class:`~tlaconf.evaluate.Blame`) says at each conjunction which conjunct
failed ("conjunct i of n is FALSE") and at each disjunction why every disjunct failed.
Its *progress* is the number of conjuncts that held on the way down, taking the best
disjunct at each disjunction (and the best witness at each ``\\E``); :func:`narrowed`
keeps only that best path, so the
innermost node is the nearest miss's blamed conjunct.
"""

from __future__ import annotations

from tlaconf.evaluate import Blame
from tlaconf.evaluate.blame import NO_DISJUNCT, NO_WITNESS, progress

_CHOICES = (NO_DISJUNCT, NO_WITNESS)


def narrowed(b: Blame) -> Blame:
    """``b`` with every disjunction reduced to its nearest disjunct."""
    if b.reason in _CHOICES and b.children:
        best = max(b.children, key=progress)  # the first of equals: source order
        nearest = best.text if b.reason == NO_DISJUNCT else \
            ", ".join(f"{n} = {v}" for n, v in best.bindings)
        return Blame(b.text, b.span, f"{b.reason}; nearest: {nearest}", b.bindings,
                     (narrowed(best),))
    return Blame(b.text, b.span, b.reason, b.bindings, tuple(narrowed(c) for c in b.children))


def path(b: Blame) -> list[Blame]:
    """The nodes from ``b`` down its first children to the innermost."""
    out = [b]
    while out[-1].children:
        out.append(out[-1].children[0])
    return out


__all__ = ["narrowed", "path", "progress"]
