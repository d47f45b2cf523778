"""Apalache's type annotation grammar (Type System 1.2, the default of 0.62), read as Types.

``parse_type`` follows Apalache's own parser (``DefaultType1Parser``): ``Int``,
``Real``, ``Bool``, ``Str``, ``Set(T)``, ``Seq(T)``, ``<<T, ...>>``, functions
``A -> B``, operators ``(A, ...) => B``, records ``{f: T, ...}`` with an optional
row variable ``{f: T, ..., a}``, variants ``Tag(T) | ... [| a]`` and
``Variant(a)``, rows ``(| f: T | ... |)``, sparse tuples ``<| 1: T |>``, type
variables (a lower-case letter, or ``a`` and digits), uninterpreted types
(upper-case names) and aliases ``$name``.  The older records ``[f: T]`` parse
only with ``--features=no-rows``, which tlaconf does not use: they are an error,
as they are for Apalache.

The Types (tuples) add to those of :mod:`~tlaconf.replay.apalache.types`:
``("Var", a)``, ``("Open", fields, a)`` (a record with a row variable),
``("Oper", (args...), result)``, ``("Const", NAME)``, ``("Real",)``,
``("Variant", options, a or None)``, ``("Row", fields, a or None)``,
``("Sparse", ((n, T), ...))``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

Type = tuple[Any, ...] | None

_TOKEN = re.compile(
    r"\s*(\(\||\|\)|<\||\|>|->|=>|<<|>>|[(){}\[\],:|$]|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\S)"
)
_VAR = re.compile(r"[a-z]\Z|a[0-9]+\Z")
_ALIAS = re.compile(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)*\Z")
_KEYWORDS = {"Int", "Real", "Bool", "Str"}


class TypeSyntaxError(ValueError):
    """An annotation Apalache's type parser refuses; the message says why."""


def tokens(text: str) -> list[str]:
    out, pos, text = [], 0, text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            break
        out.append(m.group(1))
        pos = m.end()
    return out


def parse_type(text: str, aliases: Mapping[str, str] | None = None) -> Type:
    """The Type of an annotation ``text`` (``$name`` expanded from ``aliases``)."""
    return _Parser(text, aliases or {}).whole()


def parse_alias(text: str) -> tuple[str, str]:
    """``(name, type text)`` of a ``@typeAlias:`` body ``name = T``; the type is not parsed."""
    name, eq, body = text.partition("=")
    name = name.strip()
    if not eq or not (_ALIAS.match(name) or name.isupper()):
        raise TypeSyntaxError(f"a type alias is `name = T` with a camelCase name, not {text!r}")
    return name, body.strip()


class _Parser:
    def __init__(self, text: str, aliases: Mapping[str, str], depth: int = 0) -> None:
        self.text = text
        self.toks = tokens(text)
        self.pos = 0
        self.aliases = aliases
        self.depth = depth

    def fail(self, what: str) -> TypeSyntaxError:
        near = " ".join(self.toks[self.pos : self.pos + 3]) or "the end"
        return TypeSyntaxError(f"{what} at {near!r} in the type {self.text.strip()!r}")

    def peek(self, k: int = 0) -> str:
        return self.toks[self.pos + k] if self.pos + k < len(self.toks) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise self.fail(f"expected {expected!r}")
        if not tok:
            raise self.fail("unexpected end")
        self.pos += 1
        return tok

    def whole(self) -> Type:
        t = self.type()
        if self.pos != len(self.toks):
            raise self.fail("unexpected text")
        return t

    def type(self) -> Type:
        if self.peek() == "(" and self._operator_ahead():
            self.take("(")
            args = []
            while self.peek() != ")":
                args.append(self.type())
                if self.peek() != ")":
                    self.take(",")
            self.take(")")
            self.take("=>")
            return ("Oper", tuple(args), self.type())
        left = self.no_fun()
        if self.peek() == "->":
            self.take()
            return ("Fun", left, self.type())
        if self.peek() == "=>":
            self.take()
            return ("Oper", (left,), self.type())
        return left

    def _operator_ahead(self) -> bool:
        """Whether the parenthesis at the cursor closes before ``=>``."""
        depth = 0
        for k in range(self.pos, len(self.toks)):
            tok = self.toks[k]
            if tok in ("(", "(|"):
                depth += 1
            elif tok in (")", "|)"):
                depth -= 1
                if depth == 0:
                    return k + 1 < len(self.toks) and self.toks[k + 1] == "=>"
        return False

    def no_fun(self) -> Type:
        tok = self.peek()
        if tok in _KEYWORDS:
            self.take()
            return (tok,)
        if tok in ("Set", "Seq") and self.peek(1) == "(":
            self.take()
            self.take("(")
            inner = self.type()
            self.take(")")
            return (tok, inner)
        if tok == "Variant" and self.peek(1) == "(":
            self.take()
            self.take("(")
            var = self.var() if self.peek() != ")" else None
            self.take(")")
            return ("Variant", (), var)
        if tok == "<<":
            self.take()
            items = [self.type()]
            while self.peek() == ",":
                self.take()
                items.append(self.type())
            self.take(">>")
            return ("Tup", tuple(items))
        if tok == "<|":
            self.take()
            fields = []
            while self.peek() != "|>":
                n = self.take()
                if not n.isdigit():
                    raise self.fail("expected a field number")
                self.take(":")
                fields.append((int(n), self.type()))
                if self.peek() != "|>":
                    self.take(",")
            self.take("|>")
            return ("Sparse", tuple(sorted(fields)))
        if tok == "(|":
            return self.row()
        if tok == "{":
            return self.record()
        if tok == "[":
            raise self.fail("old record types [f: T] need --features=no-rows; write {f: T}")
        if tok == "$":
            return self.alias()
        if tok == "(":
            self.take()
            inner = self.type()
            self.take(")")
            return inner
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", tok or "-"):
            if self.peek(1) == "(":
                return self.variant()
            self.take()
            if _VAR.match(tok):
                return ("Var", tok)
            if tok.upper() == tok:
                return ("Const", tok)
            raise self.fail("not a type (a type variable is one lower-case letter or a<digits>)")
        raise self.fail("expected a type")

    def var(self) -> str:
        tok = self.take()
        if not _VAR.match(tok):
            raise self.fail(f"{tok!r} is not a type variable")
        return tok

    def fields(self, close: str, sep: str) -> tuple[list[tuple[str, Type]], str | None]:
        out: list[tuple[str, Type]] = []
        var = None
        while self.peek() != close:
            if self.peek(1) == ":":
                name = self.take()
                self.take(":")
                out.append((name, self.type()))
            else:
                var = self.var()
                if self.peek() != close:
                    raise self.fail("a row variable comes last")
            if self.peek() != close:
                self.take(sep)
        self.take(close)
        names = [f for f, _ in out]
        dups = sorted({f for f in names if names.count(f) > 1})
        if dups:
            raise self.fail(f"duplicate field {dups[0]}")
        return sorted(out), var

    def record(self) -> Type:
        self.take("{")
        fields, var = self.fields("}", ",")
        return ("Rec", tuple(fields)) if var is None else ("Open", tuple(fields), var)

    def row(self) -> Type:
        self.take("(|")
        fields, var = self.fields("|)", "|")
        return ("Row", tuple(fields), var)

    def variant(self) -> Type:
        options: list[tuple[str, Type]] = []
        var = None
        while True:
            tag = self.take()
            self.take("(")
            options.append((tag, self.type()))
            self.take(")")
            if self.peek() != "|":
                break
            self.take("|")
            if self.peek(1) != "(":
                var = self.var()
                break
        return ("Variant", tuple(sorted(options)), var)

    def alias(self) -> Type:
        self.take("$")
        name = self.take()
        if not _ALIAS.match(name):
            raise self.fail(f"${name} is not a camelCase alias name")
        body = self.aliases.get(name)
        if body is None:
            raise self.fail(f"no @typeAlias: {name} = ...; defines ${name}")
        if self.depth > 20:
            raise self.fail(f"${name} is defined in terms of itself")
        try:
            return _Parser(body, self.aliases, self.depth + 1).whole()
        except TypeSyntaxError as err:
            raise TypeSyntaxError(f"in ${name}: {err}") from None
