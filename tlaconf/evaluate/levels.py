"""Levels: which definitions and expressions are constant (foldable at compile time),
which are actions (reach a prime, UNCHANGED, ENABLED or ``[A]_v``), which parameters an
operator surely evaluates, and what a (possibly module-qualified) name refers to."""

from __future__ import annotations

from typing import Any

from tlaconf.evaluate import builtins as B
from tlaconf.evaluate.code import Local, Scope
from tlaconf.evaluate.namespace import Entry, Namespace
from tlaconf.evaluate.strictness import strict_names
from tlaconf.tla import ast as A
from tlaconf.tla.visit import NodeFacts, iter_nodes

_STATEFUL = (A.Prime, A.Unchanged, A.Enabled, A.ActionBox, A.At, A.Fairness, A.TemporalQuant)

SPECIAL_NAMES = frozenset({"=", "/=", "\\in", "\\notin", "=>", "<=>", "\\cap", "\\cup", "\\",
                           "~", "ENABLED", "UNCHANGED", "'"})
"""The operators the compiler inlines (its ``_SPECIAL`` table)."""
PURE_SPECIAL = SPECIAL_NAMES - {"ENABLED", "UNCHANGED", "'"}


class Levels:
    """The level analyses of the compiler, each remembered per definition: which
    definitions are constant, which are actions, which parameters an operator surely
    evaluates, and what a (possibly module-qualified) name refers to."""

    def __init__(self) -> None:
        self._level: dict[tuple[int, bool], bool] = {}
        self._action: dict[tuple[str, int], bool] = {}
        self._strict: dict[tuple[str, int], frozenset[int]] = {}
        self._selections: dict[tuple[int, tuple[str, ...]], Entry] = {}
        self._prints: dict[int, bool] = {}
        self._prints_in: dict[int, bool] = {}
        self._facts = NodeFacts(is_stateful)
        """Free names and statefulness, per node."""

    def entry_is_const(self, entry: Entry, pure: bool = False) -> bool:
        """Whether a definition's value never depends on the state; ``pure``: nor does it
        print (Print, PrintT, AssertEq), so evaluating it again may be skipped."""
        k = entry.kind
        if k == "builtin":  # TLCSet/TLCGet read and write registers: never folded
            return entry.value[0] not in (B.EFFECTS if pure else B.WITH_REGISTERS)
        if k in ("const", "value"):
            return True
        if k == "var":
            return False
        key = (id(entry), pure)
        if key in self._level:
            return self._level[key]
        self._level[key] = True
        if k == "subst":
            assert entry.ns is not None
            res = self.const_names(entry.node, entry.ns, set(), pure=pure)
        elif k in ("op", "fn"):
            assert entry.ns is not None
            node = entry.node
            bound = {p.name for p in node.params} if k == "op" else set()
            if k == "fn":
                bound = {n for b in node.bounds for n in b.names} | {node.name}
            res = self.const_names(node.body, entry.ns, bound, pure=pure) and all(
                self.const_names(b.domain, entry.ns, set(), pure=pure)
                for b in (node.bounds if k == "fn" else ()) if b.domain is not None
            )
        else:
            res = False
        self._level[key] = res
        return res

    def node_is_action(self, node: A.Node, ns: Namespace, bound: set[str]) -> bool:
        """Whether ``node`` contains (directly or through the definitions it uses) a
        prime, UNCHANGED, ENABLED or ``[A]_v``."""
        if self._facts.has(node):
            return True
        for name, module in self._facts.free(node, bound):
            entry = self.resolve_entry(ns, name, module)
            if entry is not None and self.entry_is_action(entry):
                return True
        return False

    def entry_is_action(self, entry: Entry) -> bool:
        if entry.kind not in ("op", "fn", "subst") or entry.ns is None:
            return False
        key = ("action", id(entry))
        if key in self._action:
            return self._action[key]
        self._action[key] = False
        node = entry.node
        if entry.kind == "subst":
            res = self.node_is_action(node, entry.ns, set())
        elif entry.kind == "op":
            res = self.node_is_action(node.body, entry.ns, {p.name for p in node.params})
        else:
            res = self.node_is_action(node.body, entry.ns,
                                      {n for b in node.bounds for n in b.names} | {node.name})
        self._action[key] = res
        return res

    def expr_is_const(self, node: A.Node, sc: Scope) -> bool:
        return self.const_names(node, sc.ns, set(), sc.locals)

    def const_names(
        self, node: A.Node, ns: Namespace, bound: set[str],
        local: dict[str, Local] | None = None, pure: bool = False,
    ) -> bool:
        if self._facts.has(node):
            return False
        for name, module in self._facts.free(node, bound):
            if local is not None and name in local and not module:
                return False
            entry = self.resolve_entry(ns, name, module)
            if entry is None:
                if not module and name in PURE_SPECIAL:
                    continue
                return False
            if not self.entry_is_const(entry, pure):
                return False
        return True

    def may_print(self, node: A.Node, ns: Namespace, bound: set[str],
                  unevaluated: frozenset[str] = frozenset()) -> bool:
        """Whether evaluating ``node`` may print (``Print``, ``PrintT``), directly or
        through the definitions it uses, or forces one of the ``unevaluated`` names (an
        operator's parameter or a LET definition, which may hold an argument not yet
        evaluated; only where a definition visible in ``ns`` prints)."""
        if unevaluated and not self._ns_prints(ns):
            unevaluated = frozenset()
        for name, module in self._facts.free(node, bound - unevaluated):
            if not module and name in unevaluated:
                return True
            entry = self.resolve_entry(ns, name, module)
            if entry is not None and self._entry_prints(entry):
                return True
        return False

    def _entry_prints(self, entry: Entry) -> bool:
        if entry.kind == "builtin":
            return entry.value[0] in (B.print_, B.print_t)
        if entry.kind not in ("op", "fn") or entry.ns is None:
            return False
        key = id(entry)
        if key not in self._prints:
            self._prints[key] = False  # a recursive use adds nothing
            self._prints[key] = self.may_print(entry.node.body, entry.ns, set())
        return self._prints[key]

    def _ns_prints(self, ns: Namespace) -> bool:
        key = id(ns)
        if key not in self._prints_in:
            self._prints_in[key] = any(
                e.kind in ("op", "fn") and self._entry_prints(e) for e in ns.entries.values())
        return self._prints_in[key]

    def resolve_entry(self, ns: Namespace, name: str, module: tuple[str, ...]
                      ) -> Entry | None:
        for i, m in enumerate(module):
            inst = ns.lookup(m)
            if inst is not None and inst.kind == "op" and inst.arity == 0:
                return self._selected(inst, (*module[i + 1:], name))
            if inst is None or inst.kind != "inst" or inst.child is None:
                return None
            ns = inst.child
        return (ns.direct.get(name) if module else None) or ns.lookup(name)

    def _selected(self, entry: Entry, path: tuple[str, ...]) -> Entry | None:
        r"""``Op!1!2``: the definition's body narrowed by positional selectors (the n-th
        item of a ``/\``/``\/`` list or the n-th argument of an operator application,
        through labels), as a definition of its own; None for any other selector."""
        key = (id(entry), path)
        if key in self._selections:
            return self._selections[key]
        body = entry.node.body
        for step in path:
            while isinstance(body, A.Label):
                body = body.expr
            items = body.items if isinstance(body, A.Junction) else getattr(body, "args", None)
            if not step.isdigit() or not items or not 1 <= int(step) <= len(items):
                return None
            body = items[int(step) - 1]
        name = "!".join((entry.name, *path))
        node = A.OpDef(name, (), body, span=body.span)
        found = self._selections[key] = Entry("op", name, node, entry.ns)
        return found

    def strict_params(self, entry: Entry) -> frozenset[int]:
        """Positions of the parameters an operator definition surely evaluates."""
        key = ("strict", id(entry))
        got = self._strict.get(key)
        if got is None:
            assert entry.ns is not None
            got = self._strict[key] = self.strict_of(entry.node.params, entry.node.body,
                                                      entry.ns)
        return got

    def strict_of(self, params: tuple[A.Param, ...], body: A.Node, ns: Namespace
                   ) -> frozenset[int]:
        def builtin(name: str, module: tuple[str, ...]) -> bool:
            if name in ("ENABLED", "UNCHANGED", "'"):
                return False
            entry = self.resolve_entry(ns, name, module)
            if entry is None:
                return not module and name in SPECIAL_NAMES
            return entry.kind == "builtin"

        names = strict_names(body, builtin)
        return frozenset(i for i, p in enumerate(params) if p.arity or p.name in names)


def is_stateful(n: A.Node) -> bool:
    """Whether the node itself is a prime, UNCHANGED, ENABLED, ``[A]_v``, ``@`` or a
    temporal part."""
    return isinstance(n, _STATEFUL) or (
        isinstance(n, A.OpApp) and n.name in ("ENABLED", "UNCHANGED", "'"))


def has_stateful(node: Any) -> bool:
    """Whether ``node`` contains a prime, UNCHANGED, ENABLED, ``[A]_v``, ``@`` or temporal part."""
    return isinstance(node, A.Node) and any(is_stateful(n) for n in iter_nodes(node))
