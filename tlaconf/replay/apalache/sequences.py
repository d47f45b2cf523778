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
1..Len(frames)"), and takes the domain of a sequence.  A function defined by
recursion on ``0..E`` is sent as a fold (:mod:`~tlaconf.replay.apalache.recursion`).
Line breaks stay where they were, so Apalache's line numbers are the file's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tlaconf.replay.apalache.recursion import Recursion, recursion
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


def _binders(node: ast.Node) -> tuple[tuple[ast.Bound, ...], tuple[ast.Node, ...]]:
    """The binder groups of a quantifier, filter, map, function or CHOOSE, and what they
    scope over (the later groups' domains included); else nothing."""
    if isinstance(node, ast.Quant | ast.FnCons):
        return node.bounds, (*(b.domain for b in node.bounds if b.domain), node.body)
    if isinstance(node, ast.SetMap):
        return node.bounds, (*(b.domain for b in node.bounds if b.domain), node.expr)
    if isinstance(node, ast.SetFilter):
        return (node.bound,), (node.pred,)
    if isinstance(node, ast.Choose):
        return (node.bound,), (node.body,)
    return (), ()


def _below(node: Any, index: str) -> bool | None:
    """For ``1..i - 1``: True; for ``1..i``: False (``i`` is ``index``); else None."""
    top = _from_one(node)
    if isinstance(top, ast.Name) and top.name == index and not top.module:
        return False
    if (isinstance(top, ast.OpApp) and top.name == "-" and not top.module and len(top.args) == 2
            and isinstance(top.args[0], ast.Name) and top.args[0].name == index
            and not top.args[0].module
            and isinstance(top.args[1], ast.Num) and top.args[1].value == 1):  # fmt: skip
        return True
    return None


def _prefixes(units: list[ast.Node]) -> dict[int, tuple[Any, str, bool]]:
    """The ranges ``1..i - 1`` and ``1..i`` where ``i`` ranges over ``1..Len(s)`` (or all
    but its last index), by node id: ``s``, ``i`` and whether ``i`` itself is left out.
    Such a range is part of ``DOMAIN s`` (TLA+ has no shadowing: ``s`` and ``i`` mean
    the same inside as outside)."""
    out: dict[int, tuple[Any, str, bool]] = {}
    for node in iter_nodes(units):
        bounds, scope = _binders(node)
        for b in bounds:
            seq = _length_of(b.domain) if b.domain is not None and not b.tuple_pattern else None
            if seq is None or seq.span.line != seq.span.end_line:
                continue  # (copied into the range: it must not add a line)
            for n in iter_nodes(scope):
                for index in b.names:
                    below = _below(n, index) if isinstance(n, ast.OpApp) else None
                    if below is not None:
                        out[id(n)] = (seq, index, below)
    return out


def _is_target(node: ast.Node, prefixes: dict[int, tuple[Any, str, bool]]) -> bool:
    """A range ``1..Len(s)`` or a prefix of one, a sequence built as a function, or a set
    of such functions."""
    if _length_of(node) is not None or id(node) in prefixes:
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

    prefixes = _prefixes(units)
    folds = {id(n): r for n in iter_nodes(units) if (r := recursion(n)) is not None}
    previous = {id(c): r for r in folds.values() for c in r.calls}
    found = [n for n in iter_nodes(units)
             if _is_target(n, prefixes) or id(n) in folds or id(n) in previous]
    lets = iter(range(1, len(found) + 1))
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

    def fold(n: Any, r: Recursion) -> str:
        """``F[x \\in 0..E] == ...`` as the fold of its step, on the same lines."""
        start, end = ranges[id(n)]
        s_start, s_end = span(r.step)
        high, base = splice(*span(r.bound), n), splice(*span(r.base), n)
        between, tail = text[start:s_start], text[s_end:end]
        head = f"{r.name} == LET tlaconf_fold_{r.name}({r.accumulator}, {r.index}) == "
        head += "\n" * between.count("\n")
        steps = f"SubSeq(MkSeq({high}, LAMBDA tlaconf_k: tlaconf_k + 0), 1, tlaconf_n)"
        return (head + splice(s_start, s_end, n) + "\n" * tail.count("\n")
                + f" IN [tlaconf_n \\in 0..{high} |-> "
                + f"ApaFoldSeqLeft(tlaconf_fold_{r.name}, {base}, {steps})]")

    def rewrite(n: Any) -> str:
        start, end = ranges[id(n)]
        if id(n) in previous:  # F[x - 1] in F's step: the fold's accumulator
            return previous[id(n)].accumulator
        if id(n) in folds:
            return fold(n, folds[id(n)])
        if id(n) in prefixes:  # 1..i - 1 or 1..i, i in 1..Len(s): the indexes of s below i
            seq_node, index, below = prefixes[id(n)]
            seq = splice(*span(seq_node), n)
            return (f"{{tlaconf_j \\in DOMAIN ({seq}) : "
                    f"tlaconf_j {'<' if below else '<='} {index}}}")
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
            if isinstance(body, ast.Name) and body.name == bound.names[0] and not body.module:
                close = f" + 0{close}"  # LAMBDA k: k stays polymorphic ((a) => a): refused
        else:  # [1..E -> S]: E times S folded, each time appending an element of S
            count, body = _from_one(n.domain), n.range
            ext = f"tlaconf_ext{next(lets)}"
            head = (f"(LET {ext}(tlaconf_acc, tlaconf_set) == {{Append(tlaconf_t, tlaconf_x) : "
                    f"tlaconf_t \\in tlaconf_acc, tlaconf_x \\in tlaconf_set}} "
                    f"IN ApaFoldSeqLeft({ext}, {{<<>>}}, ")
            close = "))"
            bounded = _bounded(count, lambda node: splice(*span(node), n))
            if bounded is not None:
                let, capacity, length = bounded
                head += f"{let}SubSeq(MkSeq({capacity}, LAMBDA tlaconf_k: "
                close = f"), 1, {length}){')' if let else ''}))"
            else:
                head += f"MkSeq({splice(*span(count), n)}, LAMBDA tlaconf_k: "
                close = ")))"
        if isinstance(n, ast.FnSet):  # (an unused LAMBDA parameter stays polymorphic)
            head += "IF tlaconf_k > 0 THEN "
            close = f" ELSE {{}}{close}"
        b_start, b_end = span(body)
        between = text[start:b_start]
        if "\n" in between:
            head += between[between.rfind("\n") :]
        tail = text[b_end : end - 1]  # the line breaks before the closing bracket
        return head + splice(b_start, b_end, n) + tail + close

    made = sum(1 for n in found if not isinstance(n, ast.OpApp) and id(n) not in previous)
    return splice(0, len(text)), made
