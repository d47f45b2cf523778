"""The behaviour a ``.cfg`` names: ``INIT`` and ``NEXT``, or the conjuncts of its
``SPECIFICATION`` (a state predicate, ``[][A]_v``, and fairness, which safety checking
does not use), as TLC reads them."""

from __future__ import annotations

from dataclasses import dataclass

from tlaconf.errors import UserError
from tlaconf.explore.adapter import Namespace, Successors
from tlaconf.explore.errors import Unsupported
from tlaconf.spec.cfg import Cfg
from tlaconf.tla import ast as A
from tlaconf.tla.visit import children

_TEMPORAL = frozenset({"[]", "<>", "~>", "-+->", "\\EE", "\\AA"})
_DEPTH = 30


@dataclass(frozen=True)
class Behaviour:
    """The initial predicate and the next-state action to explore."""

    init: A.Node
    init_ns: Namespace
    init_span: A.Span
    next: A.Node
    next_ns: Namespace
    next_span: A.Span
    next_name: str


def behaviour(succ: Successors, cfg: Cfg, where: str) -> Behaviour | None:
    """The behaviour ``cfg`` names (None when it names none); UserError for an unknown
    definition or a specification the explorer cannot split, naming the ``.cfg`` line."""
    def line(name: str) -> str:
        return f"{where}:{cfg.lines.get(name, 1)}"

    def lookup(name: str, what: str) -> tuple[A.Node, Namespace, A.Span]:
        try:
            return succ.definition(name)
        except LookupError:
            raise UserError(f"{what} {name}: module {succ.ctx.name} has no definition "
                            f"{name} without parameters", line(name)) from None

    if cfg.specification is not None:
        if cfg.init is not None or cfg.next is not None:
            raise UserError("give either SPECIFICATION or INIT and NEXT, not both",
                            line(cfg.specification))
        body, ns, span = lookup(cfg.specification, "SPECIFICATION")
        inits: list[tuple[A.Node, Namespace]] = []
        nexts: list[tuple[A.Node, Namespace]] = []
        problem = _split(succ, body, ns, inits, nexts, 0)
        if problem is not None:
            raise Unsupported(f"SPECIFICATION {cfg.specification}: {problem}",
                              line(cfg.specification))
        if len(inits) != 1 or len(nexts) != 1:
            what = "initial predicate" if len(inits) != 1 else "[][Next]_vars conjunct"
            count = len(inits) if len(inits) != 1 else len(nexts)
            raise Unsupported(f"SPECIFICATION {cfg.specification} has {count} {what}s; the "
                              "explorer needs exactly one", line(cfg.specification))
        (init, ins), (nxt, nns) = inits[0], nexts[0]
        name = nxt.name if isinstance(nxt, A.Name) else cfg.specification
        return Behaviour(init, ins, span, nxt, nns, span, name)
    if cfg.init is None and cfg.next is None:
        return None
    if cfg.init is None or cfg.next is None:
        missing = "INIT" if cfg.init is None else "NEXT"
        raise UserError(f"the .cfg gives {'NEXT' if missing == 'INIT' else 'INIT'} but no "
                        f"{missing}", where)
    _, ins, ispan = lookup(cfg.init, "INIT")
    _, nns, nspan = lookup(cfg.next, "NEXT")
    root = succ.ctx.ns
    return Behaviour(A.Name(cfg.init, span=ispan), root, ispan, A.Name(cfg.next, span=nspan),
                     root, nspan, cfg.next)


def _split(succ: Successors, node: A.Node, ns: Namespace, inits: list[tuple[A.Node, Namespace]],
           nexts: list[tuple[A.Node, Namespace]], depth: int) -> str | None:
    """Sort the conjuncts of ``node``; a message for one the explorer cannot use."""
    if isinstance(node, A.Label):
        return _split(succ, node.expr, ns, inits, nexts, depth)
    if isinstance(node, A.Junction) and node.op == "/\\":
        for item in node.items:
            why = _split(succ, item, ns, inits, nexts, depth)
            if why is not None:
                return why
        return None
    if _fairness(succ, node, ns, depth):
        return None
    if isinstance(node, A.OpApp) and node.name == "[]" and not node.module:
        arg = node.args[0]
        if isinstance(arg, A.ActionBox) and not arg.angle:
            nexts.append((arg.action, ns))
            return None
        return f"the temporal formula at {_where(node)} is not [][A]_v (not checked)"
    if not _temporal(succ, node, ns, depth):
        inits.append((node, ns))
        return None
    expanded = succ.expand(node, ns) if depth < _DEPTH else None
    if expanded is not None:
        return _split(succ, expanded[0], expanded[1], inits, nexts, depth + 1)
    return f"the temporal formula at {_where(node)} is not [][A]_v or fairness (not checked)"


def _fairness(succ: Successors, node: A.Node, ns: Namespace, depth: int) -> bool:
    """Whether ``node`` is a fairness condition (``WF``/``SF``, conjunctions and
    quantifications of them), which safety checking does not use."""
    if isinstance(node, A.Fairness):
        return True
    if isinstance(node, A.Label):
        return _fairness(succ, node.expr, ns, depth)
    if isinstance(node, A.Quant):
        return _fairness(succ, node.body, ns, depth)
    if isinstance(node, A.Junction) and node.op == "/\\":
        return all(_fairness(succ, i, ns, depth) for i in node.items)
    if depth < _DEPTH:
        expanded = succ.expand(node, ns)
        if expanded is not None:
            return _fairness(succ, expanded[0], expanded[1], depth + 1)
    return False


def _temporal(succ: Successors, node: A.Node, ns: Namespace, depth: int) -> bool:
    """Whether ``node`` is a temporal formula: it contains a temporal operator, directly or
    through the definitions it calls."""
    if isinstance(node, A.Fairness | A.TemporalQuant):
        return True
    if isinstance(node, A.OpApp) and node.name in _TEMPORAL and not node.module:
        return True
    if depth < _DEPTH:
        expanded = succ.expand(node, ns)
        if expanded is not None:
            return _temporal(succ, expanded[0], expanded[1], depth + 1)
    return any(_temporal(succ, child, ns, depth) for child in children(node))


def _where(node: A.Node) -> str:
    s = node.span
    return f"{s.file}:{s.line}:{s.col}" if s.line else "an unknown place"
