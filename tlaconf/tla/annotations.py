"""Apalache type annotations of variables (``\\* @type: Seq(Int);``) and the ITF forms they ask for.

An annotation is a comment ``@type: T;`` (in ``\\*`` or ``(* *)`` comments)
right before the name it types, as Apalache reads them; ``@typeAlias: name = T;``
defines ``$name``.  :func:`variable_types` gives each annotated variable its
type (aliases expanded), :func:`type_form` the
:class:`~tlaconf.values.forms.Form` a type asks for: ``Seq(T)`` a JSON array,
``<<T, ...>>`` ``#tup``, a record ``{f: T, ...}`` (or the older ``[f: T, ...]``)
a JSON object, ``A -> B`` ``#map``, ``Set(T)`` ``#set``.  Types tlaconf does
not read (variants, row-typed records, operator types) give no form: the
value then takes the form first seen in the trace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from tlaconf.values.forms import ANY, Form

_GRAMMAR = r"""
?type: prod "->" type  -> fun
     | prod
?prod: "Set" "(" type ")"                  -> set
     | "Seq" "(" type ")"                  -> seq
     | "<<" type ("," type)* ">>"          -> tup
     | "{" [field ("," field)*] "}"        -> rec
     | "[" field ("," field)* "]"          -> rec
     | "(" type ")"
     | "$" NAME                            -> alias
     | NAME                                -> other
field: NAME ":" type
NAME: /[A-Za-z_][A-Za-z0-9_]*/
%ignore /\s+/
"""
_PARSER = Lark(_GRAMMAR, start="type", parser="lalr")
_ANNOTATION = re.compile(r"@(type|typeAlias):\s*([^;]*);")
_ALIAS_USE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_NEXT_NAME = re.compile(r"(?:\s|\*\)|\(\*[^*]*\*\)|\\\*[^\n]*\n)*([A-Za-z_][A-Za-z0-9_]*)")


class _ToForm(Transformer[Token, Form]):
    def fun(self, items: list[Form]) -> Form:
        return Form("map", (items[0], items[1]))

    def set(self, items: list[Form]) -> Form:
        return Form("set", (items[0],))

    def seq(self, items: list[Form]) -> Form:
        return Form("seq", (items[0],))

    def tup(self, items: list[Form]) -> Form:
        return Form("tup", tuple(items))

    def rec(self, items: list[tuple[str, Form] | None]) -> Form:
        return Form("rec", fields=tuple(f for f in items if f is not None))

    def field(self, items: list[object]) -> tuple[str, Form]:
        name, form = items
        assert isinstance(form, Form)
        return str(name), form

    def alias(self, items: list[Token]) -> Form:
        return ANY

    def other(self, items: list[Token]) -> Form:
        return ANY


def type_form(text: str) -> Form:
    """The form an Apalache type asks for (ANY for a type tlaconf does not read)."""
    try:
        tree = _PARSER.parse(text)
        form = _ToForm().transform(tree)
    except LarkError:
        return ANY
    return form if isinstance(form, Form) else ANY


def variable_types(module_text: str, variables: Iterable[str]) -> dict[str, str]:
    """The annotated types of those of ``variables`` that have one, ``$alias`` expanded."""
    wanted = set(variables)
    aliases: dict[str, str] = {}
    out: dict[str, str] = {}

    def expand(text: str) -> str:
        def use(a: re.Match[str]) -> str:
            body = aliases.get(a.group(1))
            if body is None:
                return a.group(0)
            return f"({body})" if any(op in body for op in ("->", "=>", "|")) else body

        return _ALIAS_USE.sub(use, text)

    for m in _ANNOTATION.finditer(module_text):
        kind, body = m.group(1), " ".join(m.group(2).split())
        if kind == "typeAlias":
            name, eq, alias_type = body.partition("=")
            if eq:
                aliases[name.strip()] = expand(alias_type.strip())
            continue
        after = _NEXT_NAME.match(module_text, m.end())
        if after and after.group(1) in wanted:
            out[after.group(1)] = expand(body)
    return out
