"""An action's conjuncts as text for Apalache, each with where it is: what a solver asks
about one guard (``~g`` and the others).

:func:`action_conjuncts` walks ``A(p)``'s body as
:mod:`~tlaconf.replay.apalache.enabling` does (through ``/\\``, labels, zero-arity LET
definitions and calls of defined operators, their parameters replaced by the
arguments) but notes every item of every conjunction it meets, nested ones too, with
its span: a :class:`Conjunct` has the item's text for the root module (None where it
reads the next state or cannot be written there) and the spans of the items it lies
inside.  The params are :data:`~tlaconf.replay.apalache.enabling.PARAM`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.replay.apalache.enabling import PARAM, ROOT_MODULES, _Arg, _Guards, _Scope
from tlaconf.replay.apalache.tlatext import Unprintable
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.tla import ast as A
from tlaconf.tla.parser import parse_module
from tlaconf.tla.resolve import ResolveErrors, resolve

Where = tuple[str, int, int, int, int]
"""A conjunct's span: file (resolved path), line, column, end line, end column."""

_DEPTH = 30


@dataclass(frozen=True)
class Conjunct:
    """One item of a conjunction of the action, where it is and what it is as text."""

    where: Where
    text: str | None
    """The item as the root module writes it (None: it reads the next state, or names
    what the root module cannot)."""
    inside: tuple[Where, ...]
    """The conjunction items it is nested in (through calls), outermost first."""


def where(span: A.Span) -> Where:
    """The span as a :data:`Where` (the file's path resolved, so that spans from two
    parses of one file compare equal)."""
    return (str(Path(span.file).resolve()), span.line, span.col, span.end_line, span.end_col)


class _Walk:
    def __init__(self, guards: _Guards) -> None:
        self.g = guards
        self.out: list[Conjunct] = []

    def body(self, node: A.Node, scope: _Scope, inside: tuple[Where, ...], depth: int) -> None:
        if depth > _DEPTH:
            return
        while isinstance(node, A.Label):
            node = node.expr
        if isinstance(node, A.Junction) and node.op == "/\\":
            for item in node.items:
                self.item(item, scope, inside, depth)
        elif isinstance(node, A.Let):
            self.body(node.body, self._let(node, scope), inside, depth)
        else:
            self.call(node, scope, inside, depth)

    def item(self, node: A.Node, scope: _Scope, inside: tuple[Where, ...], depth: int) -> None:
        text: str | None = None
        if not self.g.reads_next(node, scope):
            try:
                text = self.g.text(node, scope)
            except Unprintable:
                text = None
        here = where(node.span)
        self.out.append(Conjunct(here, text, inside))
        self.body(node, scope, (*inside, here), depth)

    def _let(self, node: A.Let, scope: _Scope) -> _Scope:
        args = dict(scope.args)
        for d in node.defs:
            inner = _Scope(scope.module, args)
            if isinstance(d, A.OpDef) and not d.params:
                args = {**args, d.name: self.g._arg(d.body, inner)}
            else:
                name = getattr(d, "name", None)
                args = {**args, name: _Arg(None, True)} if name else args
        return _Scope(scope.module, args)

    def call(self, node: A.Node, scope: _Scope, inside: tuple[Where, ...], depth: int) -> None:
        if not isinstance(node, A.OpApp | A.Name) or node.module or node.name in scope.args:
            return
        sym = scope.module.symbols.get(node.name)
        owner = self.g.module(sym) if sym is not None else None
        definition = sym.node if sym is not None else None
        given = node.args if isinstance(node, A.OpApp) else ()
        if (owner is None or not isinstance(definition, A.OpDef)
                or len(definition.params) != len(given)
                or any(p.arity for p in definition.params)):  # fmt: skip
            return
        args = {p.name: self.g._arg(a, scope) for p, a in zip(definition.params, given,
                                                               strict=True)}  # fmt: skip
        self.body(definition.body, _Scope(owner, args), inside, depth + 1)


def by_where(conjuncts: Iterable[Conjunct]) -> dict[Where, Conjunct]:
    """The conjuncts by where they are.  One met along several paths (an operator called
    twice, with other arguments) stands for all of them: its text is their conjunction
    (None when one cannot be written) and it lies inside the items of every path."""
    met: dict[Where, list[Conjunct]] = {}
    for c in conjuncts:
        met.setdefault(c.where, []).append(c)
    out: dict[Where, Conjunct] = {}
    for here, each in met.items():
        texts = list(dict.fromkeys(c.text for c in each))
        text = (None if None in texts else texts[0] if len(texts) == 1
                else " /\\ ".join(f"({t})" for t in texts))  # fmt: skip
        inside = tuple(dict.fromkeys(w for c in each for w in c.inside))
        out[here] = Conjunct(here, text, inside)
    return out


@dataclass(frozen=True)
class ActionConjuncts:
    """The conjuncts of one action, and the standard modules their texts name (the root
    module extends them)."""

    conjuncts: tuple[Conjunct, ...]
    modules: tuple[str, ...]


def action_conjuncts(spec: ModuleSpec, action: str, variables: tuple[str, ...]
                     ) -> ActionConjuncts:  # fmt: skip
    """Every conjunction item of ``action`` (a one-parameter operator of ``spec``'s module),
    in walk order; none when the module cannot be read or the action is not such an
    operator."""
    try:
        text = spec.path.read_text(encoding="utf-8")
        root = resolve(parse_module(text, str(spec.path)), spec.search_path,
                       file=str(spec.path), text=text)  # fmt: skip
    except (OSError, UserError, ResolveErrors):
        return ActionConjuncts((), ())
    guards = _Guards(root, frozenset(spec.constants), frozenset(variables))
    sym = root.symbols.get(action)
    node = sym.node if sym is not None else None
    owner = guards.module(sym) if sym is not None else None
    if owner is None or not isinstance(node, A.OpDef) or len(node.params) != 1:
        return ActionConjuncts((), ())
    walk = _Walk(guards)
    walk.body(node.body, _Scope(owner, {node.params[0].name: _Arg(PARAM, False)}), (), 0)
    return ActionConjuncts(tuple(walk.out), tuple(sorted(guards.modules - ROOT_MODULES)))
