"""The ``@type`` and ``@typeAlias`` annotations of module texts, as Apalache reads them.

An annotation is ``@type: T;`` in a comment (``\\*`` or ``(* *)``) right before the
name it types: a definition, or a variable or constant in its declaration list;
``@typeAlias: name = T;`` in the comment before a definition defines ``$name`` for
the whole specification.  :func:`read_annotations` lists them with their lines,
:func:`aliases` collects the aliases of several modules, :func:`check_types`
parses every annotation of a module (with those aliases) and checks each
definition's arity against its annotation, and :func:`untyped` lists the
definitions Snowcat cannot type without one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tlaconf.errors import UserError
from tlaconf.replay.apalache.typesyntax import Type, TypeSyntaxError, parse_alias, parse_type
from tlaconf.tla import ast
from tlaconf.tla.visit import iter_nodes

_ANNOTATION = re.compile(r"@(type|typeAlias):\s*([^;]*);")
_AFTER = re.compile(r"[^\n]*\n(?:\s*(?:\\\*[^\n]*\n|\(\*(?:[^*]|\*(?!\)))*\*\)))*\s*"
                    r"([A-Za-z_][A-Za-z0-9_]*)")  # fmt: skip
"""The rest of the annotation's line, further comments, then the name annotated."""


@dataclass(frozen=True)
class Annotation:
    """``@type: text;`` on ``line`` of ``file``, for ``name`` (an alias's: ``target``)."""

    name: str
    text: str
    file: str
    line: int
    target: str = ""


def read_annotations(text: str, file: str) -> tuple[list[Annotation], list[Annotation]]:
    """``(types, aliases)`` of one module text; an alias's ``name`` is the alias name."""
    types: list[Annotation] = []
    found: list[Annotation] = []
    for m in _ANNOTATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        body = " ".join(m.group(2).split())
        after = _AFTER.match(text, m.end())
        target = after.group(1) if after is not None else ""
        if m.group(1) == "typeAlias":
            try:
                name, alias = parse_alias(body)
            except TypeSyntaxError as err:
                raise UserError(f"{file}, line {line}: {err}") from None
            found.append(Annotation(name, alias, file, line, target))
        elif target:
            types.append(Annotation(target, body, file, line, target))
    return types, found


def aliases(modules: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Every ``@typeAlias`` of ``(text, file)`` modules (one name defined twice: an error)."""
    out: dict[str, Annotation] = {}
    for text, file in modules:
        for a in read_annotations(text, file)[1]:
            old = out.get(a.name)
            if old is not None and old.text != a.text:
                raise UserError(f"{a.file}, line {a.line}: the type alias {a.name} is also "
                                f"defined, differently, at {old.file}, line {old.line}")
            out[a.name] = a
    return {name: a.text for name, a in out.items()}


def check_types(module: ast.Module, text: str, file: str,
                alias_texts: Mapping[str, str]) -> dict[str, Type]:  # fmt: skip
    """The parsed annotation of each annotated name of ``module``; UserError for a bad one.

    A definition with k parameters needs an operator type of k arguments; one
    without parameters a type that is not an operator's.
    """
    units = [u for u in module.units if isinstance(u, ast.OpDef)]
    units += [d for u in units for d in let_definitions(u.body)]
    out: dict[str, Type] = {}
    for a in read_annotations(text, file)[0]:
        try:
            t = parse_type(a.text, alias_texts)
        except TypeSyntaxError as err:
            raise UserError(
                f"{file}, line {a.line}: the @type annotation of {a.name}: {err}"
            ) from None
        below = [u for u in units if u.name == a.name and u.span.line > a.line]
        unit = min(below, key=lambda u: u.span.line) if below else None
        if unit is not None and t is not None:
            arity = len(unit.params)
            given = len(t[1]) if t[0] == "Oper" else 0
            if given != arity:
                raise UserError(f"{file}, line {a.line}: {a.name} has {arity} parameter(s) but its "
                                f"@type annotation {a.text} has {given}")  # fmt: skip
        out.setdefault(a.name, t)
    return out


def applied_params(unit: ast.OpDef) -> list[str]:
    """The parameters ``unit`` applies or accesses: ``p[x]``, ``p.f``, ``DOMAIN p``, ``EXCEPT``.

    Snowcat types each definition on its own: such a parameter could be a
    function, a record, a sequence or a tuple, and without a ``@type``
    annotation the definition does not type-check.  The definition's LET
    operators are checked on their own (see :func:`let_definitions`).
    """
    return list(dict.fromkeys(p for p, _ in applied_uses(unit)))


def applied_uses(unit: ast.OpDef) -> list[tuple[str, ast.Node]]:
    """Each application or access of a parameter of ``unit``: the parameter and the node."""
    params = {p.name for p in unit.params}
    found: list[tuple[str, ast.Node]] = []

    def name_of(node: object) -> str | None:
        if isinstance(node, ast.Name) and not node.module and node.name in params:
            return node.name
        return None

    for node in iter_nodes(unit.body):
        hit = None
        if isinstance(node, ast.FnApp):
            hit = name_of(node.fn)
        elif isinstance(node, ast.Dot):
            hit = name_of(node.expr)
        elif isinstance(node, ast.Except):
            hit = name_of(node.fn)
        elif isinstance(node, ast.OpApp) and node.name == "DOMAIN" and not node.module:
            hit = name_of(node.args[0])
        if hit is not None:
            found.append((hit, node))
    return found


def let_definitions(node: ast.Node) -> list[ast.OpDef]:
    """The operators defined by the LETs inside ``node`` (Snowcat types each on its own too)."""
    return [d for n in iter_nodes(node) if isinstance(n, ast.Let)
            for d in n.defs if isinstance(d, ast.OpDef)]  # fmt: skip


def untyped(module: ast.Module, text: str, file: str) -> list[tuple[ast.OpDef, list[str]]]:
    """The definitions (LET ones too) that apply a parameter and have no ``@type`` annotation.

    Snowcat refuses each of them ("Cannot apply p to the argument ..."), see
    :func:`applied_params`.
    """
    tops = [u for u in module.units if isinstance(u, ast.OpDef)]
    units = sorted(tops + [d for u in tops for d in let_definitions(u.body)],
                   key=lambda u: u.span.line)  # fmt: skip
    notes = read_annotations(text, file)[0]
    out = []
    for i, unit in enumerate(units):
        previous = units[i - 1].span.line if i else 0
        typed = any(a.name == unit.name and previous < a.line < unit.span.line for a in notes)
        applied = applied_params(unit) if unit.params else []
        if applied and not typed:
            out.append((unit, applied))
    return out
