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

from tlaconf.evaluate.actionwalk import taken_arm
from tlaconf.evaluate.fail import Fail
from tlaconf.evaluate.fail import show as _show
from tlaconf.evaluate.namespace import Namespace
from tlaconf.evaluate.walk import Env, Walker
from tlaconf.tla import ast as A
from tlaconf.tla.visit import free_names, iter_nodes

Site = tuple[Namespace, Env]
NO_WITNESS = "no witness for \\E"
_WITNESSES = 32
"""At most this many witnesses of a FALSE ``\\E`` are blamed one by one."""


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


class Blamer(Walker["Site", Blame]):
    def __init__(self, comp: Any, texts: Mapping[str, str]) -> None:
        super().__init__(comp)
        self.texts = texts
        self.witnesses = False

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
        out: dict[str, str] = {}
        state, nxt = self.S, self.N
        primed = _primed_names(node)
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

    def explain(self, node: A.Node, ns: Namespace, env: Env, state: Any, nxt: Any,
                witnesses: bool = False) -> Blame:
        """Why ``node`` (known to be FALSE from ``state`` to ``nxt``) is FALSE; with
        ``witnesses``, a FALSE ``\\E`` is blamed for each of its first witnesses (for
        a search that picks the nearest), else it is a leaf."""
        self.witnesses = witnesses
        try:
            with self.in_state(state, nxt):
                return self.blame(node, ns, env)
        finally:
            self.witnesses = False

    def blame(self, node: A.Node, ns: Namespace, env: Env) -> Blame:
        """The explanation of why ``node`` (known to be FALSE) is FALSE."""
        while isinstance(node, A.Label):
            node = node.expr
        try:
            return self.visit(node, (ns, env))
        except Fail as err:
            return self.leaf(node, ns, env, f"cannot be evaluated: {err.message}")

    def other(self, node: A.Node, c: Site) -> Blame:
        return self.leaf(node, *c, "is FALSE")

    def conj(self, node: A.Junction, c: Site) -> Blame:
        ns, env = c
        for i, item in enumerate(node.items, 1):
            if not self.eval_bool(item, ns, env):
                child = self.blame(item, ns, env)
                return Blame(self.text(node), node.span,
                             f"conjunct {i} of {len(node.items)} is FALSE", (), (child,))
        return self.other(node, c)

    def disj(self, node: A.Junction, c: Site) -> Blame:
        kids = tuple(self.blame(item, *c) for item in node.items)
        return Blame(self.text(node), node.span, "no disjunct holds", (), kids)

    def implies(self, node: A.OpApp, c: Site) -> Blame:
        child = self.blame(node.args[1], *c)
        return Blame(self.text(node), node.span, "the premise holds, the conclusion is FALSE",
                     (), (child,))

    def forall(self, node: A.Quant, c: Site) -> Blame:
        ns, env = c
        sid = self.comp.sid(node)
        for binding in self.bindings_of(node.bounds, ns, env, sid):
            inner = env.extend(*binding)
            if not self.eval_bool(node.body, ns, inner):
                child = self.blame(node.body, ns, inner)
                return Blame(self.text(node), node.span, "counterexample for \\A",
                             tuple((b.name, show(b.value)) for b in binding), (child,))
        return self.other(node, c)

    def exists(self, node: A.Quant, c: Site) -> Blame:
        """No witness: the body's blame for each of the first witnesses (as a
        disjunction's for each disjunct) when asked; a leaf when the domain is empty or
        large, or not asked."""
        ns, env = c
        if not self.witnesses:
            return self.leaf(node, ns, env, NO_WITNESS)
        sid = self.comp.sid(node)
        kids: list[Blame] = []
        for binding in self.bindings_of(node.bounds, ns, env, sid):
            if len(kids) == _WITNESSES:
                return self.leaf(node, ns, env, NO_WITNESS)
            child = self.blame(node.body, ns, env.extend(*binding))
            kids.append(Blame(child.text, child.span, child.reason,
                              tuple((b.name, show(b.value)) for b in binding) + child.bindings,
                              child.children))
        if not kids:
            return self.leaf(node, ns, env, NO_WITNESS)
        return Blame(self.text(node), node.span, NO_WITNESS, (), tuple(kids))

    def if_(self, node: A.If, c: Site) -> Blame:
        ns, env = c
        taken = self.eval_bool(node.cond, ns, env)
        child = self.blame(node.then if taken else node.else_, ns, env)
        if taken:
            reason = "the condition is TRUE; the THEN branch is FALSE"
        else:  # the part of the condition that decided, as the guard that failed
            decided = self.blame(node.cond, ns, env).innermost()
            because = "" if decided.span == node.cond.span else f" ({decided.text} is FALSE)"
            reason = f"the condition is FALSE{because}; the ELSE branch is FALSE"
        return Blame(self.text(node), node.span, reason,
                     self.bindings(node.cond, ns, env), (child,))

    def case(self, node: A.Case, c: Site) -> Blame:
        ns, env = c
        tested: list[A.Expr] = []

        def test(guard: A.Expr) -> bool:
            tested.append(guard)
            return self.eval_bool(guard, ns, env)

        arm = taken_arm(node, test, self.comp.sid(node))
        child = self.blame(arm, ns, env)
        if len(tested) == len(node.arms) and arm is node.other:
            return Blame(self.text(node), node.span, "the OTHER arm is taken and FALSE",
                         (), (child,))
        return Blame(self.text(node), node.span, f"CASE arm {len(tested)} is taken and FALSE",
                     self.bindings(tested[-1], ns, env), (child,))

    def let(self, node: A.Let, c: Site) -> Blame:
        ns, env = c
        return self.blame(node.body, ns, self.bind_let(node, ns, env))

    def call(self, node: A.Name | A.OpApp, c: Site) -> Blame:
        called = self.call_target(node, *c)
        if called is None:
            return self.other(node, c)
        body, tns, tenv, name = called
        child = self.blame(body, tns, tenv)
        params = tuple((b.name, show(b.value)) for b in tenv.bindings if b.kind == "val")
        return Blame(self.text(node), node.span, f"{name} is FALSE", params, (child,))


def show(v: Any) -> str:
    """A value in TLA+ syntax, in full up to a generous limit."""
    return _show(v, 20_000)


def _has(m: Any, key: str) -> bool:
    try:
        m[key]
    except Exception:  # NextState/NoNext raise on missing keys
        return False
    return True


def _primed_names(node: A.Node) -> set[str]:
    """The names used under a prime or UNCHANGED in ``node``."""
    return {n.name for p in iter_nodes(node) if isinstance(p, A.Prime | A.Unchanged)
            for n in iter_nodes(p.expr) if isinstance(n, A.Name | A.OpApp)}
