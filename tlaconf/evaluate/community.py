"""The CommunityModules operators TLC overrides in Java, as Python functions.

TLC replaces these definitions of the community modules (``Json``, ``IOUtils``,
``VectorClocks``, ``SequencesExt``, ``FiniteSetsExt``, ``BagsExt``, ``Functions``,
``UndirectedGraphs``' ``ConnectedComponents``) by
Java code, whatever folder or jar the module's ``.tla`` file came from; so does the
evaluator, by module and operator name (:data:`OVERRIDES`).  Each function does what
the Java override does (argument order of the fold operators, set enumeration in
TLC's order, JSON numbers as 32-bit integers).  Every other definition of those
modules is evaluated from the user's ``.tla`` file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.evaluate.fail import Fail, show
from tlaconf.evaluate.lazysets import checked, enum_set, is_fn, kind_of, sorted_values
from tlaconf.evaluate.logfields import FieldReads
from tlaconf.evaluate.semantics import apply, as_bool, domain, equal, normalize_fn
from tlaconf.evaluate.tlcbinary import read_tlc_value
from tlaconf.files import NotText, read_text, unreadable_path
from tlaconf.values import Fn, make_fn, strict_json

Op = Callable[..., Any]


def _seq(v: Any, sid: int, op: str, which: str = "first") -> tuple[Any, ...]:
    v = normalize_fn(v, sid)
    if type(v) is tuple:
        return v
    raise Fail(f"The {which} argument of {op} should be a sequence, but instead it is: "
               f"{show(v)}", (), sid)


def _str(v: Any, sid: int, op: str) -> str:
    if type(v) is str:
        return v
    raise Fail(f"The argument of {op} should be a string, but instead it is: {show(v)}", (), sid)


def _elements(s: Any, sid: int) -> list[Any]:
    """A set's elements in TLC's enumeration order."""
    return sorted_values(enum_set(s, sid))


# --------------------------------------------------------------------------- Json


def _java_int(text: str) -> int:
    """Gson's ``getAsInt`` of a JSON number: the integer part, wrapped to 32 bits."""
    try:
        n = int(Decimal(text))
    except (InvalidOperation, ValueError):
        n = 0
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n >= 1 << 31 else n


def _tla(v: Any, where: str, sid: int) -> Any:
    """A parsed JSON value as TLC's Json module gives it: arrays are sequences, objects
    records, numbers 32-bit integers; ``null`` is an error."""
    if isinstance(v, bool) or type(v) is str:
        return v
    if isinstance(v, list):
        return tuple(_tla(x, where, sid) for x in v)
    if isinstance(v, dict):
        return make_fn({k: _tla(x, where, sid) for k, x in v.items()})
    if isinstance(v, _Number):
        return _java_int(v.text)
    raise Fail(f"{where}: Cannot convert value: unsupported JSON value null", (), sid)


class _Number:
    """A JSON number kept as its text (converted as Gson does)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _not_json(word: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's parser takes and JSON has not."""
    raise json.JSONDecodeError(f"{word} is not a JSON value", word, 0)


def _loads(text: str, where: str, sid: int) -> Any:
    try:
        strict_json.check_depth(text)
        parsed = json.loads(text, parse_int=_Number, parse_float=_Number,
                            parse_constant=_not_json)
    except strict_json.TooDeep as err:
        raise Fail(f"{where}: {err} (column {err.col})", (), sid) from None
    except json.JSONDecodeError as err:
        raise Fail(f"{where}: not JSON ({err.msg} at column {err.colno})", (), sid) from None
    return _tla(parsed, where, sid)


def _read(path: Any, sid: int, op: str) -> str:
    name = _str(path, sid, op)
    why = unreadable_path(name)
    if why is not None:
        raise Fail(f"{op}({show(name)}): cannot read {name}: it {why}", (), sid)
    try:
        return read_text(name, "file")
    except NotText as err:
        raise Fail(f"{op}({show(name)}): cannot read {err.location}: {err.message}", (), sid
                   ) from None
    except UserError as err:
        raise Fail(f"{op}({show(name)}): {err.message}", (), sid) from None


def nd_json_deserialize(sid: int, path: Any) -> tuple[Any, ...]:
    """``ndJsonDeserialize(path)``: one value per non-blank line, as a sequence."""
    text = _read(path, sid, "ndJsonDeserialize")
    numbered = [
        (n, _loads(line.strip(), f"{path}:{n}", sid))
        for n, line in enumerate(text.splitlines(), 1) if line.strip()
    ]
    io = _io()
    if io.fields is not None:
        numbered = [(n, io.fields.watch(v, str(path), n)) for n, v in numbered]
    io.reads.append((str(path), len(numbered)))
    io.lines[str(path)] = numbered
    return tuple(v for _, v in numbered)


def json_deserialize(sid: int, path: Any) -> Any:
    """``JsonDeserialize(path)``: the file's one JSON value."""
    return _loads(_read(path, sid, "JsonDeserialize"), str(path), sid)


# --------------------------------------------------------------------------- IOUtils

@dataclass
class IOSession:
    """What the IOUtils and Json overrides are given and note during one run of a trace
    spec (``tlaconf validate`` opens one with :func:`io_session`); outside a run each call
    gets a throwaway one, so nothing accumulates in a long-lived process."""

    env: dict[str, str] = field(default_factory=dict)
    """Variables that ``IOEnv`` gives on top of the process environment (``--env``)."""
    reads: list[tuple[str, int]] = field(default_factory=list)
    """(file, values) of every log ``ndJsonDeserialize`` read."""
    lines: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    """The values ``ndJsonDeserialize`` read, with their line numbers, by file."""
    notices: list[str] = field(default_factory=list)
    """What the overrides did that the run's report should say (lines read, dropped)."""
    fields: FieldReads | None = None
    """While set, the records ``ndJsonDeserialize`` gives note which of their fields are
    read (:mod:`tlaconf.evaluate.logfields`)."""


_SESSION: ContextVar[IOSession | None] = ContextVar("tlaconf_io_session", default=None)


@contextmanager
def io_session(env: Mapping[str, str] | None = None,
               fields: FieldReads | None = None) -> Iterator[IOSession]:
    """A fresh :class:`IOSession` for the evaluations inside the ``with`` (this thread or
    task only), the previous one back afterwards."""
    session = IOSession(env=dict(env or {}), fields=fields)
    token = _SESSION.set(session)
    try:
        yield session
    finally:
        _SESSION.reset(token)


def _io() -> IOSession:
    return _SESSION.get() or IOSession()


def io_env(sid: int) -> Any:
    """``IOEnv``: the environment variables as a record of strings."""
    return make_fn({**os.environ, **_io().env})


def io_deserialize(sid: int, path: Any, compressed: Any) -> Any:
    """``IODeserialize(file, compressed)``: the value TLC's ``IOSerialize`` wrote to
    ``file`` (:mod:`tlaconf.evaluate.tlcbinary`)."""
    name = _str(path, sid, "IODeserialize")
    if type(compressed) is not bool:
        raise Fail("The second argument of IODeserialize should be a boolean, but instead "
                   f"it is: {show(compressed)}", (), sid)
    why = unreadable_path(name)
    if why is not None:
        raise Fail(f"IODeserialize({show(name)}, ...): cannot read {name}: it {why}", (), sid)
    try:
        data = Path(name).read_bytes()
    except OSError as err:
        raise Fail(f"IODeserialize({show(name)}, ...): cannot read {name}: "
                   f"{err.strerror}", (), sid) from None
    return read_tlc_value(data, compressed, name, sid)


_DIGITS = re.compile(r"[+-]?\d+")


def atoi(sid: int, v: Any) -> int:
    """``atoi(s)``: Java's ``Integer.parseInt``."""
    if type(v) is str and _DIGITS.fullmatch(v):
        n = int(v)
        if -(1 << 31) <= n < 1 << 31:
            return n
    raise Fail(f"The argument of atoi should be a string, but instead it is: {show(v)}", (), sid)


# --------------------------------------------------------------------------- VectorClocks


def causal_order(sid: int, log: Any, clock: Op, node: Op, dom: Op) -> tuple[Any, ...]:
    """``CausalOrder(log, clock, node, domain)``: the Java override's topological sort.

    Each line's parents are, per other host, the line of that host whose clock value
    the line's clock first exceeds; then lines are taken round-robin over the hosts,
    each host's next line once its parents are taken.  TLC visits hosts in hash order
    (which depends on its fingerprint seed); here in TLC's value order."""
    lines = _seq(log, sid, "CausalOrder")
    hosts: dict[Any, list[list[Any]]] = {}
    for line in lines:
        host = node(line)
        vc = clock(line)
        hosts.setdefault(host, []).append([line, vc, apply(vc, host, sid), set(), []])
    for entries in hosts.values():
        entries.sort(key=lambda e: _int(e[2], sid))
    order = sorted_values(hosts)
    for host in order:
        seen = {h: 0 for h in hosts}
        for entry in hosts[host]:
            seen[host] = _int(entry[2], sid)
            for other in _elements(dom(entry[1]), sid):
                t = _int(apply(entry[1], other, sid), sid)
                if other not in seen:
                    raise Fail(f"CausalOrder: the clock {show(entry[1])} names {show(other)}, "
                               "which logged no line", (), sid)
                if seen[other] < t:
                    seen[other] = t
                    if not 1 <= t <= len(hosts[other]):
                        raise Fail(f"CausalOrder: the clock {show(entry[1])} of a line of "
                                   f"{show(host)} needs line {t} of {show(other)}, which "
                                   f"logged {len(hosts[other])} (the log has a gap)", (), sid)
                    parent = hosts[other][t - 1]
                    entry[3].add(id(parent))
                    parent[4].append(entry)
    queues = {h: list(reversed(hosts[h])) for h in order}
    out: list[Any] = []
    for _ in range(len(lines)):
        for host in order:
            queue = queues[host]
            if queue and not queue[-1][3]:
                entry = queue.pop()
                for child in entry[4]:
                    child[3].discard(id(entry))
                out.append(entry[0])
    if len(out) != len(lines):  # the override returns the lines it ordered, silently
        io = _io()
        io.notices.append(f"CausalOrder ordered {len(out)} of {len(lines)} log lines and dropped "
                       "the rest (their clocks are not consistent), as TLC's override does")
        if io.fields is not None:
            kept = {id(x) for x in out}
            io.fields.dropped(x for x in lines if id(x) not in kept)
    return tuple(out)


def _int(v: Any, sid: int) -> int:
    if type(v) is int:
        return v
    raise Fail(f"expected an integer clock value, got the {kind_of(v)} {show(v)}", (), sid)


# --------------------------------------------------------------------------- SequencesExt


def set_to_seq(sid: int, s: Any) -> tuple[Any, ...]:
    return tuple(_elements(s, sid))


def contains(sid: int, s: Any, e: Any) -> bool:
    return any(equal(x, e, sid) for x in _seq(s, sid, "Contains"))


def is_prefix(sid: int, s: Any, t: Any) -> bool:
    if type(s) is str and type(t) is str:
        return t.startswith(s)
    a, b = _seq(s, sid, "IsPrefix"), _seq(t, sid, "IsPrefix", "second")
    return len(a) <= len(b) and all(equal(x, y, sid) for x, y in zip(a, b, strict=False))


def fold_left(sid: int, op: Op, base: Any, s: Any) -> Any:
    acc = base
    for e in _seq(s, sid, "FoldLeft", "third"):
        acc = op(acc, e)
    return acc


def fold_right(sid: int, op: Op, s: Any, base: Any) -> Any:
    acc = base
    for e in reversed(_seq(s, sid, "FoldRight", "second")):
        acc = op(e, acc)
    return acc


def fold_left_domain(sid: int, op: Op, base: Any, s: Any) -> Any:
    acc = base
    for i in range(1, len(_seq(s, sid, "FoldLeftDomain", "third")) + 1):
        acc = op(acc, i)
    return acc


def fold_right_domain(sid: int, op: Op, s: Any, base: Any) -> Any:
    acc = base
    for i in range(len(_seq(s, sid, "FoldRightDomain", "second")), 0, -1):
        acc = op(i, acc)
    return acc


def select_in_seq(sid: int, s: Any, test: Op) -> int:
    for i, e in enumerate(_seq(s, sid, "SelectInSeq"), 1):
        if as_bool(test(e), sid):
            return i
    return 0


def select_last_in_seq(sid: int, s: Any, test: Op) -> int:
    seq = _seq(s, sid, "SelectLastInSeq")
    for i in range(len(seq), 0, -1):
        if as_bool(test(seq[i - 1]), sid):
            return i
    return 0


def _int_arg(v: Any, sid: int, op: str, which: str, what: str = "natural") -> int:
    if type(v) is int:
        return v
    raise Fail(f"The {which} argument of {op} should be a {what}, but instead it is: "
               f"{show(v)}", (), sid)


def _test(test: Op, e: Any, sid: int, op: str, which: str) -> bool:
    """``test(e)``, which the override requires to be a boolean."""
    v = test(e)
    if v is True or v is False:
        return v
    raise Fail(f"The {which} argument of {op} should be a boolean-valued operator, but "
               f"{show(e)} gives: {show(v)}", (), sid)


def _sub_range(sid: int, s: Any, f: Any, t: Any, op: str) -> tuple[tuple[Any, ...], int, int]:
    """The sequence and the bounds of ``op(s, from, to, Test)``, checked as the override
    checks them (``from > to`` first: then no bound is checked)."""
    seq = _seq(s, sid, op)
    lo, hi = _int_arg(f, sid, op, "second"), _int_arg(t, sid, op, "third")
    if lo <= hi:
        for which, n in (("second", lo), ("third", hi)):
            if not 1 <= n <= len(seq):
                raise Fail(f"The {which} argument of {op} should be in the domain of its "
                           f"first argument {show(seq)}, but instead it is: {n}", (), sid)
    return seq, lo, hi


def select_in_sub_seq(sid: int, s: Any, f: Any, t: Any, test: Op) -> int:
    """``SelectInSubSeq(s, from, to, Test)``: the override gives the index in ``s`` (the
    module's definition, the index in ``SubSeq(s, from, to)``)."""
    seq, lo, hi = _sub_range(sid, s, f, t, "SelectInSubSeq")
    for i in range(lo, hi + 1):
        if _test(test, seq[i - 1], sid, "SelectInSubSeq", "fourth"):
            return i
    return 0


def select_last_in_sub_seq(sid: int, s: Any, f: Any, t: Any, test: Op) -> int:
    """``SelectLastInSubSeq(s, from, to, Test)``: the index in ``s``, as the override."""
    seq, lo, hi = _sub_range(sid, s, f, t, "SelectLastInSubSeq")
    for i in range(hi, lo - 1, -1):
        if _test(test, seq[i - 1], sid, "SelectLastInSubSeq", "fourth"):
            return i
    return 0


def remove_first(sid: int, s: Any, e: Any) -> tuple[Any, ...]:
    seq = _seq(s, sid, "RemoveFirst")
    for i, x in enumerate(seq):
        if equal(x, e, sid):
            return seq[:i] + seq[i + 1:]
    return seq


def remove_first_match(sid: int, s: Any, test: Op) -> tuple[Any, ...]:
    seq = _seq(s, sid, "RemoveFirstMatch")
    for i, x in enumerate(seq):
        if _test(test, x, sid, "RemoveFirstMatch", "second"):
            return seq[:i] + seq[i + 1:]
    return seq


def _set_of(items: list[Any], sid: int) -> frozenset[Any]:
    """The set of ``items``, which TLC sorts: it fails on elements it cannot compare
    (``<<1>>`` and ``<<"a">>``)."""
    return frozenset(checked(items, sid))


def suffixes(sid: int, s: Any) -> frozenset[Any]:
    seq = _seq(s, sid, "Suffixes")
    return _set_of([seq[i:] for i in range(len(seq) + 1)], sid)


def all_sub_seqs(sid: int, s: Any) -> frozenset[Any]:
    seq = _seq(s, sid, "AllSubSeqs")
    return _set_of([tuple(seq[j] for j in range(len(seq)) if i >> j & 1)
                    for i in range(1 << len(seq))], sid)


def set_to_seqs(sid: int, s: Any) -> frozenset[Any]:
    return _set_of(list(permutations(_elements(s, sid))), sid)


def longest_common_prefix(sid: int, s: Any) -> Any:
    """``LongestCommonPrefix(S)`` as the override computes it: the prefix of the first
    element in TLC's order (sequences: the shortest) that all the others share."""
    elems = _elements(s, sid)
    if not elems:
        raise Fail(f"The argument of LongestCommonPrefix should be a non-empty set, but "
                   f"instead it is: {show(s)}", (), sid)
    first = elems[0] if type(elems[0]) is str else normalize_fn(elems[0], sid)
    if type(first) not in (str, tuple) or any(
            (type(x) is str) != (type(first) is str) for x in elems):
        raise Fail("The argument of LongestCommonPrefix should be a set of sequences, but "
                   f"instead it is: {show(s)}", (), sid)
    upper = len(first)
    for other in elems[1:]:
        other = other if type(other) is str else _seq(other, sid, "LongestCommonPrefix")
        for i in range(upper):
            same = first[i] == other[i] if type(first) is str else equal(first[i], other[i],
                                                                          sid)
            if not same:
                upper = i
                break
    return first[:upper]


# --------------------------------------------------------------------------- FiniteSetsExt


def fold_set(sid: int, op: Op, base: Any, s: Any) -> Any:
    acc = base
    for e in _elements(s, sid):
        acc = op(e, acc)
    return acc


def quantify(sid: int, s: Any, test: Op) -> int:
    return sum(1 for e in _elements(s, sid) if as_bool(test(e), sid))


def k_subset(sid: int, k: Any, s: Any) -> frozenset[Any]:
    """``kSubset(k, S)``: the subsets of ``S`` with ``k`` elements."""
    elems = _elements(s, sid)
    n = _int_arg(k, sid, "kSubset", "first", "natural number")
    if n < 0 or n > len(elems):
        return frozenset()
    return frozenset(frozenset(c) for c in combinations(elems, n))


# --------------------------------------------------------------------------- Combinatorics

_INT_MAX = (1 << 31) - 1


def factorial(sid: int, n: Any) -> int:
    """``factorial(n)``: the override's, an error past TLC's 32-bit integers."""
    m = _int_arg(n, sid, "factorial", "first", "natural number")
    if m < 0:
        raise Fail(f"The first argument of factorial should be a natural number, but "
                   f"instead it is: {m}", (), sid)
    r = 1
    for i in range(2, m + 1):
        r *= i
        if r > _INT_MAX:
            raise Fail(f"Overflow: factorial({m}) is not a 32-bit integer", (), sid)
    return r


def choose(sid: int, n: Any, k: Any) -> int:
    """``choose(n, k)``: the binomial coefficient (0 when ``k > n``), as the override."""
    a = _int_arg(n, sid, "choose", "first", "natural number")
    b = _int_arg(k, sid, "choose", "second", "natural number")
    for which, v in (("first", a), ("second", b)):
        if v < 0:
            raise Fail(f"The {which} argument of choose should be a natural number, but "
                       f"instead it is: {v}", (), sid)
    r = _binomial(a, b)
    if r > _INT_MAX:
        raise Fail(f"Overflow: choose({a}, {b}) is not a 32-bit integer", (), sid)
    return r


def _binomial(n: int, k: int) -> int:
    if k > n:
        return 0
    r = 1
    for i in range(1, min(k, n - k) + 1):
        r = r * (n - i + 1) // i
    return r


# --------------------------------------------------------------------------- Bitwise


def _i32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n >= 1 << 31 else n


def _bits(sid: int, op: str, *args: Any) -> list[int]:
    return [_int_arg(a, sid, op, ("first", "second", "third", "fourth")[i], "integer")
            for i, a in enumerate(args)]


def bit_and(sid: int, x: Any, y: Any, n: Any, m: Any) -> int:
    a, b, *_ = _bits(sid, "And", x, y, n, m)
    return _i32(a & b)


def bit_or(sid: int, x: Any, y: Any, n: Any, m: Any) -> int:
    a, b, *_ = _bits(sid, "Or", x, y, n, m)
    return _i32(a | b)


def bit_xor(sid: int, x: Any, y: Any, n: Any, m: Any) -> int:
    a, b, *_ = _bits(sid, "Xor", x, y, n, m)
    return _i32(a ^ b)


def bit_not(sid: int, x: Any) -> int:
    """``Not(a)``: the bits of ``a`` up to its highest one flipped (Java's mask, shift
    counts taken modulo 32: 0 and the negative numbers give 0)."""
    (a,) = _bits(sid, "Not", x)
    a = _i32(a)
    lead = 32 - (a & 0xFFFFFFFF).bit_length()
    mask = _INT_MAX >> ((lead - 1) & 31)
    return _i32(~a & mask)


def shift_r(sid: int, n: Any, pos: Any) -> int:
    """``shiftR(n, pos)``: Java's ``n >>> pos`` on 32-bit integers."""
    a, b = _bits(sid, "shiftR", n, pos)
    return _i32((a & 0xFFFFFFFF) >> (b & 31))


# --------------------------------------------------------------------------- Functions


def _fn(f: Any, sid: int, op: str) -> Any:
    f = normalize_fn(f, sid)
    if not is_fn(f):
        raise Fail(f"The third argument of {op} should be a function, but instead it is: "
                   f"{show(f)}", (), sid)
    return f


def fold_function_on_set(sid: int, op: Op, base: Any, f: Any, indices: Any) -> Any:
    f = _fn(f, sid, "FoldFunctionOnSet")
    acc = base
    for x in _elements(indices, sid):
        acc = op(apply(f, x, sid), acc)
    return acc


def fold_function(sid: int, op: Op, base: Any, f: Any) -> Any:
    f = _fn(f, sid, "FoldFunction")
    acc = base
    for x in _elements(domain(f, sid), sid):
        acc = op(apply(f, x, sid), acc)
    return acc


def is_injective(sid: int, f: Any) -> bool:
    values = list(_values(_fn(f, sid, "IsInjective")))
    return all(not equal(values[i], values[j], sid)
               for i in range(len(values)) for j in range(i + 1, len(values)))


def _values(f: Any) -> Any:
    return f if type(f) is tuple else f.values()


def anti_function(sid: int, f: Any) -> Any:
    """``AntiFunction(f)``: the inverse of ``f``; the override fails when ``f`` is not
    injective (the inverse's domain would hold a value twice)."""
    f = _fn(f, sid, "AntiFunction")
    pairs = list(enumerate(f, 1) if type(f) is tuple else f.items())
    values = checked([v for _, v in pairs], sid, "the function's range holds")
    if len(set(values)) < len(values):
        raise Fail(f"AntiFunction: {show(f)} is not injective, so it has no inverse", (), sid)
    return make_fn({v: k for k, v in pairs})


# --------------------------------------------------------------------------- UndirectedGraphs


def _graph(g: Any, sid: int, op: str) -> tuple[list[Any], list[Any]]:
    """The nodes and edges of an undirected graph ``[node |-> N, edge |-> E]``, each in
    TLC's order, as the override's ``toGraph`` checks them."""
    what = "The first argument of {} should be an undirected graph record {}, but instead it is: {}"
    if not is_fn(g) or not {"node", "edge"} <= set(enum_set(domain(g, sid), sid)):
        raise Fail(what.format(op, "with a node and an edge field", show(g)), (), sid)
    out = []
    for f in ("node", "edge"):
        v = apply(g, f, sid)
        if kind_of(v) != "set":
            raise Fail(what.format(op, f"whose {f} field is a set", show(g)), (), sid)
        out.append(_elements(v, sid))
    return out[0], out[1]


def connected_components(sid: int, g: Any) -> frozenset[Any]:
    """``ConnectedComponents(G)`` as TLC's override computes it: each node alone, then
    merged along every edge (a set of one or two elements; any other element of
    ``G.edge`` is no edge) whose ends are both nodes."""
    nodes, edges = _graph(g, sid, "ConnectedComponents")
    at = {v: i for i, v in enumerate(nodes)}
    parent = list(range(len(nodes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def node(v: Any) -> int | None:
        i = at.get(v)
        return i if i is not None and equal(nodes[i], v, sid) else None

    for e in edges:
        ends = _elements(e, sid) if kind_of(e) == "set" else []
        if len(ends) not in (1, 2):
            continue
        a, b = node(ends[0]), node(ends[-1])
        if a is not None and b is not None:
            parent[find(a)] = find(b)
    comps: dict[int, list[Any]] = {}
    for i, v in enumerate(nodes):
        comps.setdefault(find(i), []).append(v)
    return frozenset(frozenset(c) for c in comps.values())


# --------------------------------------------------------------------------- BagsExt


def fold_bag(sid: int, op: Op, base: Any, bag: Any) -> Any:
    b = normalize_fn(bag, sid)
    if isinstance(b, Fn):
        counts = dict(b.items())
    elif type(b) is tuple:
        counts = dict(enumerate(b, 1))
    else:
        raise Fail(f"The third argument of FoldBag should be a bag, but instead it is: "
                   f"{show(bag)}", (), sid)
    acc = base
    for e in sorted_values(counts):
        n = counts[e]
        if type(n) is not int or n <= 0:
            raise Fail(f"FoldBag: {show(n)} (in: {show(e)} :> {show(n)}) is not an element "
                       "of Nat", (), sid)
        for _ in range(n):
            acc = op(acc, e)
    return acc


# --------------------------------------------------------------------------- tables

OVERRIDES: dict[str, dict[str, tuple[Op, int]]] = {
    "Json": {
        "ndJsonDeserialize": (nd_json_deserialize, 1),
        "JsonDeserialize": (json_deserialize, 1),
    },
    "IOUtils": {"IOEnv": (io_env, 0), "atoi": (atoi, 1),
                "IODeserialize": (io_deserialize, 2)},
    "VectorClocks": {"CausalOrder": (causal_order, 4)},
    "SequencesExt": {
        "SetToSeq": (set_to_seq, 1),
        "Contains": (contains, 2),
        "IsPrefix": (is_prefix, 2),
        "FoldLeft": (fold_left, 3),
        "FoldRight": (fold_right, 3),
        "FoldSeq": (fold_function, 3),
        "FoldLeftDomain": (fold_left_domain, 3),
        "FoldRightDomain": (fold_right_domain, 3),
        "SelectInSeq": (select_in_seq, 2),
        "SelectLastInSeq": (select_last_in_seq, 2),
        "SelectInSubSeq": (select_in_sub_seq, 4),
        "SelectLastInSubSeq": (select_last_in_sub_seq, 4),
        "RemoveFirst": (remove_first, 2),
        "RemoveFirstMatch": (remove_first_match, 2),
        "Suffixes": (suffixes, 1),
        "AllSubSeqs": (all_sub_seqs, 1),
        "SetToSeqs": (set_to_seqs, 1),
        "LongestCommonPrefix": (longest_common_prefix, 1),
    },
    "FiniteSetsExt": {"FoldSet": (fold_set, 3), "Quantify": (quantify, 2),
                      "kSubset": (k_subset, 2)},
    "Combinatorics": {"factorial": (factorial, 1), "choose": (choose, 2)},
    "Bitwise": {"And": (bit_and, 4), "Or": (bit_or, 4), "Xor": (bit_xor, 4),
                "Not": (bit_not, 1), "shiftR": (shift_r, 2)},
    "Functions": {
        "FoldFunction": (fold_function, 3),
        "FoldFunctionOnSet": (fold_function_on_set, 4),
        "IsInjective": (is_injective, 1),
        "AntiFunction": (anti_function, 1),
    },
    "BagsExt": {"FoldBag": (fold_bag, 3)},
    "UndirectedGraphs": {"ConnectedComponents": (connected_components, 1)},
}
"""Module -> operator -> (implementation, arity), for definitions TLC overrides in Java."""

HIGHER_ORDER: dict[str, tuple[int, ...]] = {
    "CausalOrder": (1, 2, 3),
    "FoldLeft": (0,),
    "FoldRight": (0,),
    "FoldSeq": (0,),
    "FoldLeftDomain": (0,),
    "FoldRightDomain": (0,),
    "SelectInSeq": (1,),
    "SelectLastInSeq": (1,),
    "SelectInSubSeq": (3,),
    "SelectLastInSubSeq": (3,),
    "RemoveFirstMatch": (1,),
    "FoldSet": (0,),
    "Quantify": (1,),
    "FoldFunction": (0,),
    "FoldFunctionOnSet": (0,),
    "FoldBag": (0,),
}
"""Argument positions of the overrides that take an operator."""


def override(module: str, name: str, arity: int) -> tuple[Op, int] | None:
    """The native implementation of ``module!name`` when TLC overrides it (and the
    user's definition has the override's arity)."""
    found = OVERRIDES.get(module, {}).get(name)
    return found if found is not None and found[1] == arity else None
