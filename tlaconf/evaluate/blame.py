"""Blame: why a boolean formula is FALSE, as a tree down to the innermost failing part.

Computed only on failure, by walking the formula's AST again with the same state:
a conjunction blames its first FALSE conjunct, a disjunction every disjunct, an
implication its conclusion, ``\\A`` its first counterexample (in canonical
order), IF the branch taken, CASE the arm taken, LET its body, and an
application of a defined operator that operator's body.  Each node carries the
source text and span of its sub-formula and the values of the names it uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tlaconf.evaluate.lazy import Fail
from tlaconf.evaluate.lazy import show as _show
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.walk import Env, Walker
from tlaconf.tla import ast as A


@dataclass(frozen=True)
class Blame:
    text: str
    span: A.Span
    reason: str
    bindings: tuple[tuple[str, str], ...]
    children: tuple[Blame, ...] = ()

    def innermost(self) -> Blame:
        """Follows the first child down to a leaf."""
        node = self
        while node.children:
            node = node.children[0]
        return node

    def render(self, indent: int = 0) -> str:
        """The tree as indented text."""
        pad = "  " * indent
        lines = [f"{pad}{self.span}: {self.text}  -- {self.reason}"]
        lines += [f"{pad}    {n} = {v}" for n, v in self.bindings]
        lines += [c.render(indent + 1) for c in self.children]
        return "\n".join(lines)


class Blamer(Walker):
    def __init__(self, comp: Any, texts: Mapping[str, str]) -> None:
        super().__init__(comp)
        self.texts = texts

    def text(self, node: A.Node) -> str:
        sp = node.span
        src = self.texts.get(sp.file)
        if src is None or sp.line <= 0:
            return type(node).__name__
        lines = src.splitlines()[sp.line - 1 : sp.end_line]
        if not lines:
            return type(node).__name__
        if len(lines) == 1:
            lines[0] = lines[0][sp.col - 1 : sp.end_col]
        else:
            lines[0] = lines[0][sp.col - 1 :]
            lines[-1] = lines[-1][: sp.end_col]
        return " ".join(" ".join(x.split()) for x in lines).strip()

    def bindings(self, node: A.Node, ns: Namespace, env: Env) -> tuple[tuple[str, str], ...]:
        """The names ``node`` uses (bound names, constants, variables, primed variables)."""
        from tlaconf.evaluate.compiler import free_names

        out: dict[str, str] = {}
        state, nxt = self.S, self.N
        primed = {v for v in _primed_names(node, ns, self)}
        for name, module in sorted(free_names(node, set())):
            if module:
                continue
            b = env.get(name)
            if b is not None:
                if b.kind == "val":
                    out[name] = show(b.value)
                elif b.kind == "lazy":
                    try:
                        out[name] = show(b.value())
                    except Exception:  # a value that fails is shown as such
                        out[name] = "(cannot be evaluated)"
                continue
            entry = self.comp.resolve_entry(ns, name, ())
            if entry is None:
                continue
            if entry.kind == "const":
                out[name] = show(entry.value)
            var = self.entry_var(entry)
            if var is not None:
                if var in state:
                    out[name] = show(state[var])
                if name in primed and _has(nxt, var):
                    out[f"{name}'"] = show(nxt[var])
        return tuple(out.items())

    def leaf(self, node: A.Node, ns: Namespace, env: Env, reason: str) -> Blame:
        return Blame(self.text(node), node.span, reason, self.bindings(node, ns, env))

    def explain(self, node: A.Node, ns: Namespace, env: Env, state: Any, nxt: Any) -> Blame:
        """Why ``node`` (known to be FALSE from ``state`` to ``nxt``) is FALSE."""
        with self.in_state(state, nxt):
            return self.blame(node, ns, env)

    def blame(self, node: A.Node, ns: Namespace, env: Env) -> Blame:
        """The explanation of why ``node`` (known to be FALSE) is FALSE."""
        try:
            return self._blame(node, ns, env)
        except Fail as err:
            return self.leaf(node, ns, env, f"cannot be evaluated: {err.message}")

    def _blame(self, node: A.Node, ns: Namespace, env: Env) -> Blame:
        if isinstance(node, A.Label):
            return self.blame(node.expr, ns, env)
        if isinstance(node, A.Junction) or (
            isinstance(node, A.OpApp) and node.name in ("/\\", "\\/") and not node.module
        ):
            op = node.op if isinstance(node, A.Junction) else node.name
            items = node.items if isinstance(node, A.Junction) else node.args
            if op == "/\\":
                for i, item in enumerate(items, 1):
                    if not self.eval_bool(item, ns, env):
                        child = self.blame(item, ns, env)
                        return Blame(self.text(node), node.span,
                                     f"conjunct {i} of {len(items)} is FALSE", (), (child,))
                return self.leaf(node, ns, env, "is FALSE")
            kids = tuple(self.blame(item, ns, env) for item in items)
            return Blame(self.text(node), node.span, "no disjunct holds", (), kids)
        if isinstance(node, A.OpApp) and node.name == "=>" and not node.module:
            child = self.blame(node.args[1], ns, env)
            return Blame(self.text(node), node.span, "the premise holds, the conclusion is FALSE",
                         (), (child,))
        if isinstance(node, A.Quant) and node.kind == "A":
            sid = self.comp.sid(node)
            for binding in self.bindings_of(node.bounds, ns, env, sid):
                inner = env.extend(*binding)
                if not self.eval_bool(node.body, ns, inner):
                    child = self.blame(node.body, ns, inner)
                    return Blame(self.text(node), node.span, "counterexample for \\A",
                                 tuple((b.name, show(b.value)) for b in binding), (child,))
            return self.leaf(node, ns, env, "is FALSE")
        if isinstance(node, A.Quant):
            return self.leaf(node, ns, env, "no witness for \\E")
        if isinstance(node, A.If):
            taken = self.eval_bool(node.cond, ns, env)
            child = self.blame(node.then if taken else node.else_, ns, env)
            return Blame(self.text(node), node.span,
                         f"the condition is {'TRUE' if taken else 'FALSE'}; that branch is FALSE",
                         self.bindings(node.cond, ns, env), (child,))
        if isinstance(node, A.Case):
            for i, (guard, arm) in enumerate(node.arms, 1):
                if self.eval_bool(guard, ns, env):
                    child = self.blame(arm, ns, env)
                    return Blame(self.text(node), node.span, f"CASE arm {i} is taken and FALSE",
                                 self.bindings(guard, ns, env), (child,))
            if node.other is not None:
                child = self.blame(node.other, ns, env)
                return Blame(self.text(node), node.span, "the OTHER arm is taken and FALSE",
                             (), (child,))
            return self.leaf(node, ns, env, "is FALSE")
        if isinstance(node, A.Let):
            return self.blame(node.body, ns, self.bind_let(node, ns, env))
        if isinstance(node, A.Name | A.OpApp):
            called = self.call_target(node, ns, env)
            if called is not None:
                body, tns, tenv, name = called
                child = self.blame(body, tns, tenv)
                params = tuple((b.name, show(b.value)) for b in tenv.bindings if b.kind == "val")
                return Blame(self.text(node), node.span, f"{name} is FALSE", params, (child,))
        return self.leaf(node, ns, env, "is FALSE")


def show(v: Any) -> str:
    """A value in TLA+ syntax, in full up to a generous limit."""
    return _show(v, 20_000)


def _has(m: Any, key: str) -> bool:
    try:
        m[key]
    except Exception:  # NextState/NoNext raise on missing keys
        return False
    return True


def _primed_names(node: A.Node, ns: Namespace, w: Walker) -> set[str]:
    from tlaconf.evaluate.namespace import children

    out: set[str] = set()

    def visit(n: Any, primed: bool) -> None:
        if isinstance(n, A.Prime | A.Unchanged):
            visit(n.expr, True)
            return
        if isinstance(n, A.Name | A.OpApp) and primed:
            out.add(n.name)
        if isinstance(n, A.Node):
            for ch in children(n):
                visit(ch, primed)

    visit(node, False)
    return out
