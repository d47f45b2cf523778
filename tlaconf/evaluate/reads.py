"""The state variables a state predicate reads, when its value depends on nothing else.

An invariant such as etcd raft's ``LogMatchingInv`` (every pair of servers, every index
of their logs) reads ``log`` alone; a step that leaves ``log`` as it was (the same
value, the same object) cannot change its value.  :func:`state_reads` says which
variables a definition reads, through the definitions, instances and builtins it uses,
or None when its value may depend on more: a prime, ``ENABLED``, ``@``, or an operator
that prints or reads TLC's registers (``TLCGet("level")``).
"""

from __future__ import annotations

from typing import Protocol

from tlaconf.evaluate import builtins as B
from tlaconf.evaluate.levels import PURE_SPECIAL, has_stateful
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names


class Resolver(Protocol):
    def resolve_entry(self, ns: Namespace, name: str, module: tuple[str, ...]
                      ) -> Entry | None: ...


class Reads:
    """The variables each definition reads, remembered per definition."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self._seen: dict[int, frozenset[str] | None] = {}

    def of(self, entry: Entry) -> frozenset[str] | None:
        """The variables ``entry`` reads (None: its value may depend on more)."""
        k = entry.kind
        if k == "var":
            return frozenset({entry.name})
        if k in ("const", "value"):
            return frozenset()
        if k == "builtin":
            return None if entry.value[0] in B.EFFECTS else frozenset()
        if k not in ("op", "fn", "subst") or entry.ns is None:
            return None
        key = id(entry)
        if key in self._seen:
            return self._seen[key]
        self._seen[key] = None  # a recursive definition is not followed
        node = entry.node
        if k == "subst":
            got = self.node(node, entry.ns, set())
        elif k == "op":
            got = self.node(node.body, entry.ns, {p.name for p in node.params})
        else:
            got = self.node(node.body, entry.ns,
                            {n for b in node.bounds for n in b.names} | {node.name})
            for b in node.bounds:
                if b.domain is not None and got is not None:
                    more = self.node(b.domain, entry.ns, set())
                    got = None if more is None else got | more
        self._seen[key] = got
        return got

    def node(self, node: A.Node, ns: Namespace, bound: set[str]) -> frozenset[str] | None:
        """The variables ``node`` reads, its names in ``bound`` apart."""
        if has_stateful(node):
            return None
        found: set[str] = set()
        for name, module in free_names(node, bound):
            entry = self.r.resolve_entry(ns, name, module)
            if entry is None:
                if not module and name in PURE_SPECIAL:
                    continue
                return None
            got = self.of(entry)
            if got is None:
                return None
            found |= got
        return frozenset(found)
