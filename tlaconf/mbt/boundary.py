"""Boundary values: where a guard draws a line across an integer field of the request, the
values on both sides of it.

A near miss tells an implementation which check it skipped; it does not tell an
off-by-one (``count >= 0`` for ``count >= 1``, ``<`` for ``<=``) or a check that still
refuses the value next to the line for another reason and lets the one beyond it through
(a count of 0 refused as "nothing to deal", a count of -1 dealt).  For that, the values
at the edge are sent: for an allowed request and each integer field, the request is
walked with that field set to each integer value of its set (in order), every guard
evaluated (walking on past a FALSE one); wherever a guard's value changes between two
consecutive values ``v[i]`` and ``v[i+1]`` (a comparison ``e1 op e2`` whose side reads
the field crossing the other, an interval ``x \\in a..b`` or ``x \\in Nat`` left), the
**edge** is ``v[i-1], v[i], v[i+1], v[i+2]`` (those in the set): the limit, one below and
one above, whichever side of the line the limit lies on.  An ``=`` or ``#`` guard has two
changes, so its edge is the value and both neighbours.

The values come from the params domain: a line the domain's set does not reach, or does
not reach closely (``0..2`` against a limit of 10), has no edge; add the values around it
to ``Params_A``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tlaconf.evaluate.coverage import Key
from tlaconf.mbt.domains import Domain
from tlaconf.values import Fn

Walk = Callable[[Fn], set[tuple[Key, bool]]]
"""The guards a request's walk (through every guard) noted, with their values."""


@dataclass(frozen=True, slots=True)
class Edge:
    """Where one guard changes value along one integer field of the request, from one
    allowed request: the requests at the edge (that request with the field set to each
    value of ``values``)."""

    guard: Key
    field: str
    line: tuple[int, int]
    """The two consecutive values of the field between which the guard changes value."""
    values: tuple[int, ...]
    requests: tuple[Fn, ...]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def edges(dom: Domain, seed: Fn, walk: Walk, guards: Iterable[Key]) -> list[Edge]:
    """Every edge of ``guards`` along an integer field of ``dom`` from the allowed request
    ``seed`` (see the module docstring); none for a domain given as a set of records."""
    wanted = set(guards)
    out: list[Edge] = []
    if dom.fields is None or not wanted:
        return out
    for f, (name, values) in enumerate(dom.fields):
        ints = sorted((v, i) for i, v in enumerate(values) if _is_int(v))
        if len(ints) < 2:
            continue
        requests = [dom.changed(seed, f, i) for _, i in ints]
        seen: list[dict[Key, frozenset[bool]]] = []
        for params in requests:
            noted: dict[Key, set[bool]] = {}
            for g, value in walk(params):
                if g in wanted:
                    noted.setdefault(g, set()).add(value)
            seen.append({g: frozenset(v) for g, v in noted.items()})
        for g in wanted:
            for i in range(len(ints) - 1):
                a, b = seen[i].get(g), seen[i + 1].get(g)
                if a is None or b is None or a == b:
                    continue
                at = range(max(0, i - 1), min(len(ints), i + 3))
                out.append(Edge(g, name, (ints[i][0], ints[i + 1][0]),
                                tuple(ints[j][0] for j in at),
                                tuple(requests[j] for j in at)))
    return out
