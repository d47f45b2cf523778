"""Apalache type annotations of variables (``\\* @type: Seq(Int);``) and the ITF forms they ask for.

An annotation is a comment ``@type: T;`` (in ``\\*`` or ``(* *)`` comments)
right before the name it types, as Apalache reads them; ``@typeAlias: name = T;``
defines ``$name``.  :func:`variable_forms` gives each annotated variable the
:class:`~tlaconf.values.forms.Form` of its type: ``Seq(T)`` a JSON array,
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
_NEXT_NAME = re.compile(r"(?:\s|\*\)|\(\*[^*]*\*\)|\\\*[^\n]*\n)*([A-Za-z_][A-Za-z0-9_]*)")


class _ToForm(Transformer[Token, Form]):
    def __init__(self, aliases: dict[str, Form]) -> None:
        super().__init__()
        self.aliases = aliases

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
        return self.aliases.get(str(items[0]), ANY)

    def other(self, items: list[Token]) -> Form:
        return ANY


def type_form(text: str, aliases: dict[str, Form] | None = None) -> Form:
    """The form an Apalache type asks for (ANY for a type tlaconf does not read)."""
    try:
        tree = _PARSER.parse(text)
        form = _ToForm(aliases or {}).transform(tree)
    except LarkError:
        return ANY
    return form if isinstance(form, Form) else ANY


def variable_forms(module_text: str, variables: Iterable[str]) -> dict[str, Form]:
    """The forms of the annotated ones among ``variables`` in a module's text."""
    wanted = set(variables)
    aliases: dict[str, Form] = {}
    out: dict[str, Form] = {}
    for m in _ANNOTATION.finditer(module_text):
        kind, body = m.group(1), m.group(2).strip()
        if kind == "typeAlias":
            name, eq, alias_type = body.partition("=")
            if eq:
                aliases[name.strip()] = type_form(alias_type, aliases)
            continue
        after = _NEXT_NAME.match(module_text, m.end())
        if after and after.group(1) in wanted:
            out[after.group(1)] = type_form(body, aliases)
    return out
