"""An expression of the AST as TLA+ text, every operand in parentheses (no layout, no
precedence to get wrong), for Apalache.

:func:`expression_text` prints a node; ``name`` says what each free name (one no
binder inside the node binds) is written as, and ``binder`` whether a name may be
bound (a quantifier's variable, a LET definition): both raise :class:`Unprintable`
to refuse.  What Apalache's model checker or type checker reads differently from
TLA+ is refused too, or written as Apalache needs it: a range ``1..Len(s)`` is
``DOMAIN (s)`` (the same set; Apalache needs constant bounds), any other range
must have literal bounds (a membership ``x \\in lo..hi`` is written ``lo <= x /\\ x <=
hi``), and a function is never built over a range (Snowcat
would type it as a function where a sequence is meant).  Forms without a place in
a state-level formula (primes, ``UNCHANGED``, ``ENABLED``, temporal operators,
``LAMBDA``, qualified names, tuple patterns, unbounded quantifiers) are refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tlaconf.tla import ast as A
from tlaconf.tla.precedence import INFIX, OPERATORS, POSTFIX, PREFIX


class Unprintable(Exception):
    """The node (or a name in it) cannot be sent as text."""


_IDENT = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*")
_WORD_PREFIX = frozenset({"DOMAIN", "SUBSET", "UNION"})
_REFUSED_PREFIX = frozenset({"ENABLED", "UNCHANGED", "[]", "<>"})


def _string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + '"'


def _is_range(node: A.Node) -> bool:
    return isinstance(node, A.OpApp) and node.name == ".." and not node.module


class _Printer:
    def __init__(self, name: Callable[[str], str], binder: Callable[[str], None]) -> None:
        self._name = name
        self._binder = binder

    def text(self, node: A.Node, local: frozenset[str]) -> str:
        if isinstance(node, A.Label):
            return self.text(node.expr, local)
        if isinstance(node, A.Num):
            return str(node.value) if node.value >= 0 else f"(-{-node.value})"
        if isinstance(node, A.Str):
            return _string(node.value)
        if isinstance(node, A.Bool):
            return "TRUE" if node.value else "FALSE"
        if isinstance(node, A.Name):
            return self._ident(node, local)
        if isinstance(node, A.OpApp):
            return self._apply(node, local)
        if isinstance(node, A.Junction):
            op = " /\\ " if node.op == "/\\" else " \\/ "
            return "(" + op.join(f"({self.text(x, local)})" for x in node.items) + ")"
        if isinstance(node, A.Quant):
            binds, inner = self._bounds(node.bounds, local)
            return f"(\\{node.kind} {binds} : ({self.text(node.body, inner)}))"
        if isinstance(node, A.Choose):
            binds, inner = self._bounds((node.bound,), local)
            return f"(CHOOSE {binds} : ({self.text(node.body, inner)}))"
        if isinstance(node, A.SetFilter):
            binds, inner = self._bounds((node.bound,), local)
            return f"{{{binds} : ({self.text(node.pred, inner)})}}"
        if isinstance(node, A.SetMap):
            binds, inner = self._bounds(node.bounds, local)
            return f"{{({self.text(node.expr, inner)}) : {binds}}}"
        if isinstance(node, A.FnCons):
            if any(b.domain is not None and _is_range(b.domain) for b in node.bounds):
                raise Unprintable("a function built over a range")
            binds, inner = self._bounds(node.bounds, local)
            return f"[{binds} |-> ({self.text(node.body, inner)})]"
        if isinstance(node, A.SetEnum):
            return "{" + ", ".join(f"({self.text(x, local)})" for x in node.elems) + "}"
        if isinstance(node, A.Tuple):
            return "<<" + ", ".join(f"({self.text(x, local)})" for x in node.elems) + ">>"
        if isinstance(node, A.FnApp):
            args = ", ".join(f"({self.text(x, local)})" for x in node.args)
            return f"({self.text(node.fn, local)})[{args}]"
        if isinstance(node, A.FnSet):
            if _is_range(node.domain):
                raise Unprintable("a set of functions over a range")
            return f"[({self.text(node.domain, local)}) -> ({self.text(node.range, local)})]"
        if isinstance(node, A.Record):
            fields = ", ".join(f"{f} |-> ({self.text(x, local)})" for f, x in node.fields)
            return f"[{fields}]"
        if isinstance(node, A.RecordSet):
            fields = ", ".join(f"{f} : ({self.text(x, local)})" for f, x in node.fields)
            return f"[{fields}]"
        if isinstance(node, A.Dot):
            return f"({self.text(node.expr, local)}).{node.field_name}"
        if isinstance(node, A.Except):
            return self._except(node, local)
        if isinstance(node, A.At):
            return "@"
        if isinstance(node, A.If):
            parts = (self.text(x, local) for x in (node.cond, node.then, node.else_))
            return "(IF ({}) THEN ({}) ELSE ({}))".format(*parts)
        if isinstance(node, A.Case):
            arms = [f"({self.text(g, local)}) -> ({self.text(v, local)})" for g, v in node.arms]
            if node.other is not None:
                arms.append(f"OTHER -> ({self.text(node.other, local)})")
            return "(CASE " + " [] ".join(arms) + ")"
        if isinstance(node, A.Let):
            return self._let(node, local)
        raise Unprintable(type(node).__name__)

    def _ident(self, node: A.Name, local: frozenset[str]) -> str:
        if node.module:
            raise Unprintable(f"the qualified name {'!'.join(node.module)}!{node.name}")
        if not _IDENT.fullmatch(node.name):
            raise Unprintable(f"the operator {node.name} as an argument")
        return node.name if node.name in local else self._name(node.name)

    def _apply(self, node: A.OpApp, local: frozenset[str]) -> str:
        if node.module:
            raise Unprintable(f"the qualified name {'!'.join(node.module)}!{node.name}")
        if _is_range(node):
            return self._range(node, local)
        if node.name in ("\\in", "\\notin") and len(node.args) == 2:
            x, domain = node.args
            if isinstance(domain, A.OpApp) and _is_range(domain) and not all(
                    isinstance(b, A.Num) for b in domain.args):  # fmt: skip
                low, high = domain.args
                return self._in_range(x, low, high, node.name == "\\notin", local)
        args = [f"({self.text(x, local)})" for x in node.args]
        op = OPERATORS.get(node.name)
        if op is None or (node.name[:1].isalpha() and node.name not in _WORD_PREFIX):
            name = node.name if node.name in local else self._name(node.name)
            return f"{name}({', '.join(args)})"
        self._name(node.name)  # a standard operator: visible as the module's
        if node.name in _REFUSED_PREFIX or node.name == "'":
            raise Unprintable(node.name)
        if op.fix == PREFIX and len(args) == 1:
            return f"({'-' if node.name == '-.' else node.name} {args[0]})"
        if op.fix == POSTFIX and len(args) == 1:
            return f"({args[0]}{node.name})"
        if (op.fix == INFIX and len(args) == 2) or (op.infix and len(args) >= 2):
            return "(" + f" {node.name} ".join(args) + ")"
        raise Unprintable(f"{node.name} with {len(args)} operand(s)")

    def _range(self, node: A.OpApp, local: frozenset[str]) -> str:
        low, high = node.args
        if (isinstance(low, A.Num) and low.value == 1 and isinstance(high, A.OpApp)
                and high.name == "Len" and not high.module and len(high.args) == 1):  # fmt: skip
            self._name("Len")
            return f"(DOMAIN ({self.text(high.args[0], local)}))"
        if isinstance(low, A.Num) and isinstance(high, A.Num):
            self._name("..")
            return f"({self.text(low, local)} .. {self.text(high, local)})"
        raise Unprintable("a range whose bounds are not literals")

    def _in_range(self, x: A.Node, low: A.Node, high: A.Node, negated: bool,
                  local: frozenset[str]) -> str:  # fmt: skip
        """``x \\in low..high`` as ``low <= x /\\ x <= high`` (the same for the integer
        Snowcat makes ``x``; Apalache needs a range's bounds constant)."""
        self._name("<=")
        value = self.text(x, local)
        text = (f"((({self.text(low, local)}) <= ({value})) /\\ "
                f"(({value}) <= ({self.text(high, local)})))")
        return f"(~{text})" if negated else text

    def _bounds(
        self, bounds: tuple[A.Bound, ...], local: frozenset[str]
    ) -> tuple[str, frozenset[str]]:
        parts = []
        inner = local
        for b in bounds:
            if b.domain is None or b.tuple_pattern:
                raise Unprintable("an unbounded quantifier or a tuple pattern")
            for n in b.names:
                self._binder(n)
            parts.append(f"{', '.join(b.names)} \\in ({self.text(b.domain, local)})")
            inner = inner | set(b.names)
        return ", ".join(parts), inner

    def _except(self, node: A.Except, local: frozenset[str]) -> str:
        updates = []
        for path, value in node.updates:
            steps = "".join(
                f".{s.name}" if isinstance(s, A.ExceptField)
                else "[" + ", ".join(f"({self.text(a, local)})" for a in s.args) + "]"
                for s in path
            )  # fmt: skip
            updates.append(f"!{steps} = ({self.text(value, local)})")
        return f"[({self.text(node.fn, local)}) EXCEPT {', '.join(updates)}]"

    def _let(self, node: A.Let, local: frozenset[str]) -> str:
        defs = []
        inner = local
        for d in node.defs:
            if not isinstance(d, A.OpDef) or any(p.arity for p in d.params):
                raise Unprintable("a LET definition other than an operator of values")
            self._binder(d.name)
            for p in d.params:
                self._binder(p.name)
            params = f"({', '.join(p.name for p in d.params)})" if d.params else ""
            body = self.text(d.body, inner | {p.name for p in d.params})
            defs.append(f"{d.name}{params} == ({body})")
            inner = inner | {d.name}
        return f"(LET {' '.join(defs)} IN ({self.text(node.body, inner)}))"


def expression_text(
    node: A.Node, name: Callable[[str], str], binder: Callable[[str], None]
) -> str:
    """``node`` as TLA+ text (see the module docstring); Unprintable when it cannot be sent."""
    return _Printer(name, binder).text(node, frozenset())
