"""Parse TLA+ text into :mod:`tlaconf.tla.ast` nodes.

``text -> lexer.tokenize -> layout.strip_proofs / mark_labels / layout -> LALR (tla.lark)``
with :class:`~tlaconf.tla.builder.Builder` as the parser's embedded transformer.
The Lark parser object is built once per process.

Public API::

    parse_module(text, filename) -> ast.Module          # first module in text
    parse_modules(text, filename) -> tuple[ast.Module, ...]  # every top-level module
    parse_expression(text, filename="<expr>") -> ast.Expr
    parse_units(text, filename) -> tuple[ast.Unit, ...] # bare definitions (fragments)
    load_module_file(path) -> ast.Module

Every error is a :class:`~tlaconf.tla.errors.ParseError` (a ``UserError``) with
``file:line:col`` and a caret line.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from tlaconf.tla import ast
from tlaconf.tla.builder import Builder
from tlaconf.tla.errors import ParseError
from tlaconf.tla.layout import layout, mark_labels, strip_proofs
from tlaconf.tla.lexer import tokenize, tokenize_module, tokenize_modules

_GRAMMAR = Path(__file__).with_name("tla.lark")

DISPLAY: dict[str, str] = {
    "NAME": "identifier",
    "NUMBER": "number",
    "STRING": "string",
    "LABEL": "label",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACK": "'['",
    "RBRACK": "']'",
    "RBRACK_SUB": "']_'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LANGLE": "'<<'",
    "RANGLE": "'>>'",
    "RANGLE_SUB": "'>>_'",
    "COMMA": "','",
    "COLON": "':'",
    "DCOLON": "'::'",
    "DEFEQ": "'=='",
    "MAPSTO": "'|->'",
    "ARROW": "'->'",
    "LARROW": "'<-'",
    "BANG": "'!'",
    "AT": "'@'",
    "PRIME": '"\'"',
    "DOT": "'.'",
    "UNDERSCORE": "'_'",
    "EQ": "'='",
    "IN_OP": "'\\in'",
    "AND": "'/\\'",
    "OR": "'\\/'",
    "BAND": "'/\\'",
    "BOR": "'\\/'",
    "SAND": "'/\\' bullet",
    "SOR": "'\\/' bullet",
    "LEND": "end of bullet list",
    "DASHES": "'----'",
    "ENDMOD": "'===='",
    "$END": "end of input",
    "CASESEP": "'[]'",
    "BOX": "'[]'",
    "IMPLIES": "'=>'",
    "NOT": "'~'",
    "MINUS": "'-'",
}


class _NoLexer(Lexer):
    """Placeholder: tokens are fed to the interactive parser by :func:`_run`."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover - unused
        raise NotImplementedError


_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _parser() -> tuple[Lark, Builder]:
    builder = Builder()
    lark = Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=_NoLexer,
        transformer=builder,
        start=["module", "expression", "fragment"],
        maybe_placeholders=False,
    )
    return lark, builder


def _describe(tok: Token) -> str:
    if tok.type in ("$END", "LEND"):
        return DISPLAY[tok.type]
    if tok.type == "STRING":
        return f'string "{tok.value}"'
    return f"'{tok.value}'" if tok.value else DISPLAY.get(tok.type, tok.type)


def _expected(names: set[str]) -> str:
    return " or ".join(sorted({DISPLAY.get(n, n.lower()) for n in names}))


def _run(tokens: list[Token], start: str, file: str, text: str) -> Any:
    tokens = strip_proofs(tokens)
    mark_labels(tokens)
    tokens = layout(tokens)
    lark, builder = _parser()
    with _LOCK:
        builder.reset(file, text)
        ip = lark.parse_interactive(start=start)
        tok: Token | None = None
        try:
            for tok in tokens:
                ip.feed_token(tok)
            return ip.feed_eof(tok)
        except UnexpectedToken as err:
            bad: Token = err.token
            if bad.type == "$END":
                last = tokens[-1] if tokens else None
                line = last.end_line if last is not None else 1
                col = last.end_column if last is not None else 1
            else:
                line, col = bad.line, bad.column
            msg = f"syntax error: unexpected {_describe(bad)}"
            if err.expected and len(err.expected) <= 6:
                msg += f"; expected {_expected(set(err.expected))}"
            raise ParseError(msg, file, line or 1, col or 1, text) from None
        except UnexpectedInput as err:  # pragma: no cover - defensive
            raise ParseError(f"syntax error: {err}", file, 1, 1, text) from None


def _prepare(text: str) -> str:
    return text.expandtabs(8) if "\t" in text else text


def parse_module(text: str, filename: str) -> ast.Module:
    """Parse the first module (``---- MODULE M ----`` ... ``====``) in ``text``."""
    text = _prepare(text)
    module: ast.Module = _run(tokenize_module(text, filename), "module", filename, text)
    return module


def parse_modules(text: str, filename: str) -> tuple[ast.Module, ...]:
    """Parse every top-level module of a file (SANY allows several; the first is the main one)."""
    text = _prepare(text)
    return tuple(_run(toks, "module", filename, text) for toks in tokenize_modules(text, filename))


def parse_expression(text: str, filename: str = "<expr>") -> ast.Expr:
    """Parse one TLA+ expression."""
    text = _prepare(text)
    toks = tokenize(text, filename)
    if not toks:
        raise ParseError("empty expression", filename, 1, 1, text)
    expr: ast.Expr = _run(toks, "expression", filename, text)
    return expr


def parse_units(text: str, filename: str) -> tuple[ast.Unit, ...]:
    """Parse a sequence of module units without a module header (a spec fragment)."""
    text = _prepare(text)
    units: tuple[ast.Unit, ...] = _run(tokenize(text, filename), "fragment", filename, text)
    return units


def load_module_file(path: str | Path) -> ast.Module:
    """Read and parse a ``.tla`` file (errors name the path as given)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ParseError(f"cannot read module: {err}", str(path), 1, 1) from None
    return parse_module(text, str(path))
