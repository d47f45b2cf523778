"""Sequences built as functions, written for Apalache's type checker.

TLA+ (and TLC) builds a sequence as a function on ``1..n``: ``[i \\in 1..n |-> e]``.
Snowcat types that constructor as a function ``Int -> a``, never as
``Seq(a)``, so a definition annotated to return a sequence, or comparing the
result with one, does not type-check.  :func:`as_sequences` rewrites, in the text
sent to Apalache only, each ``[x \\in 1..E |-> B]`` as ``MkSeq(E, LAMBDA x: B)``
and each set of functions ``[1..E -> S]`` as the set of those sequences
(``MkSeq`` is Apalache's, of type ``(Int, Int => a) => Seq(a)``).  ``MkSeq``
needs a constant length ("Expected a constant integer expression. Found:
Len(...)"), so ``[x \\in 1..Len(s) |-> B]`` becomes
``SubSeq(MkSeq(__ApalacheSeqCapacity(s), LAMBDA x: B), 1, Len(s))``, as
Apalache's own ``Reverse`` is written: the static capacity of ``s`` bounds its
length, and only ``Len(s)`` elements are kept (a module using it extends
``__apalache_internal``); ``[x \\in 1..Cardinality(S) |-> B]`` takes the capacity
of the sequence of the elements of ``S`` (``ApaFoldSet`` with ``Append``).  Any other
``1..Len(s)`` (a quantifier's or a filter's range, a membership test) becomes
``(DOMAIN (s))``, the same set, and ``1..Len(s) - 1`` becomes
``((DOMAIN (s)) \\ {Len(s)})``: Apalache's model checker needs the bounds of a
range to be constants ("Expected a constant integer range in [ .. ], found
1..Len(frames)"), and takes the domain of a sequence.  Line breaks stay where
they were, so Apalache's line numbers are the file's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tlaconf.tla import ast
from tlaconf.tla.visit import iter_nodes

CAPACITY = "__ApalacheSeqCapacity"
"""Apalache's static bound on the length of a sequence (its module ``__apalache_internal``)."""
_ADD = "tlaconf_append"


def _from_one(domain: Any) -> Any:
    """``E`` when ``domain`` is ``1..E``, else None."""
    if isinstance(domain, ast.OpApp) and domain.name == ".." and not domain.module:
        low = domain.args[0]
        if isinstance(low, ast.Num) and low.value == 1:
            return domain.args[1]
    return None


def _len_arg(node: Any) -> Any:
    """``s`` when ``node`` is ``Len(s)``, else None."""
    if isinstance(node, ast.OpApp) and node.name == "Len" and not node.module:
        return node.args[0] if len(node.args) == 1 else None
    return None


def _bounded(count: Any, text: Callable[[Any], str]) -> tuple[str, str, str] | None:
    """For a length ``Len(s)`` or ``Cardinality(S)`` (on one line): a LET to open, a static
    capacity bounding it, and the length; else None.  A set's capacity is that of the
    sequence of its elements (folded with ``Append``: a LET operator, since Snowcat
    leaves a ``LAMBDA``'s parameters polymorphic there)."""
    if not (isinstance(count, ast.OpApp) and not count.module and len(count.args) == 1):
        return None
    arg = text(count.args[0])
    if "\n" in arg:
        return None
    if count.name == "Len":
        return "", f"{CAPACITY}({arg})", f"Len({arg})"
    if count.name == "Cardinality":
        let = f"(LET {_ADD}(tlaconf_a, tlaconf_e) == Append(tlaconf_a, tlaconf_e) IN "
        return let, f"{CAPACITY}(ApaFoldSet({_ADD}, <<>>, {arg}))", f"Cardinality({arg})"
    return None


def _length_of(node: Any) -> Any:
    """``s`` when ``node`` is ``1..Len(s)`` or ``1..Len(s) - 1``, else None."""
    top = _from_one(node)
    if _len_arg(top) is not None:
        return _len_arg(top)
    if (isinstance(top, ast.OpApp) and top.name == "-" and not top.module and len(top.args) == 2
            and isinstance(top.args[1], ast.Num) and top.args[1].value == 1):  # fmt: skip
        return _len_arg(top.args[0])
    return None


def _is_target(node: ast.Node) -> bool:
    """A range ``1..Len(s)``, a sequence built as a function, or a set of such functions."""
    if _length_of(node) is not None:
        return True
    if isinstance(node, ast.FnCons) and len(node.bounds) == 1:
        bound = node.bounds[0]
        return len(bound.names) == 1 and not bound.tuple_pattern and bool(_from_one(bound.domain))
    return isinstance(node, ast.FnSet) and _from_one(node.domain) is not None


def as_sequences(text: str, units: list[ast.Node]) -> tuple[str, int]:
    """``text`` with the sequence constructors and ranges inside ``units`` rewritten; how many
    ``MkSeq`` there are now."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def at(line: int, col: int) -> int:
        return starts[line - 1] + col - 1

    def span(node: Any) -> tuple[int, int]:
        s = node.span
        return at(s.line, s.col), at(s.end_line, s.end_col) + 1

    found = [n for n in iter_nodes(units) if _is_target(n)]
    ranges = {id(n): span(n) for n in found}

    def splice(lo: int, hi: int, skip: object = None) -> str:
        out, pos = [], lo
        inside = sorted((n for n in found if lo <= ranges[id(n)][0] and ranges[id(n)][1] <= hi
                         and n is not skip), key=lambda n: ranges[id(n)][0])  # fmt: skip
        for n in inside:
            start, end = ranges[id(n)]
            if start < pos:
                continue  # inside one already rewritten
            out.append(text[pos:start])
            out.append(rewrite(n))
            pos = end
        out.append(text[pos:hi])
        return "".join(out)

    def rewrite(n: Any) -> str:
        start, end = ranges[id(n)]
        if isinstance(n, ast.OpApp):  # 1..Len(s), or 1..Len(s) - 1: all but the last index
            seq = splice(*span(_length_of(n)), n)
            if _len_arg(_from_one(n)) is not None:
                return f"(DOMAIN ({seq}))"
            return f"((DOMAIN ({seq})) \\ {{Len({seq})}})"
        close = ")" if isinstance(n, ast.FnCons) else "]}"
        if isinstance(n, ast.FnCons):
            bound = n.bounds[0]
            count, body = _from_one(bound.domain), n.body
            head = f"MkSeq({splice(*span(count), n)}, LAMBDA {bound.names[0]}: "
            bounded = _bounded(count, lambda node: splice(*span(node), n))
            if bounded is not None:  # 1..Len(s), 1..Cardinality(S): up to a static capacity
                let, capacity, length = bounded
                head = f"{let}SubSeq(MkSeq({capacity}, LAMBDA {bound.names[0]}: "
                close = f"), 1, {length}){')' if let else ''}"
        else:
            count, body = _from_one(n.domain), n.range
            e = splice(*span(count), n)
            each = "LAMBDA tlaconf_i: tlaconf_f[tlaconf_i]"
            head = f"{{MkSeq({e}, {each}) : tlaconf_f \\in [1..{e} -> "
        b_start, b_end = span(body)
        between = text[start:b_start]
        if "\n" in between:
            head += between[between.rfind("\n") :]
        tail = text[b_end : end - 1]  # the line breaks before the closing bracket
        return head + splice(b_start, b_end, n) + tail + close

    return splice(0, len(text)), sum(1 for n in found if not isinstance(n, ast.OpApp))
