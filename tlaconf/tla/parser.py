"""Parse TLA+ text into :mod:`tlaconf.tla.ast` nodes.

``text -> lexer.tokenize -> layout.strip_proofs / mark_labels / layout -> LALR (tla.lark)``
with :class:`~tlaconf.tla.builder.AstBuilder` as the parser's embedded transformer.
Lark builds the LALR tables once per process; :func:`_drive` runs them in a
tight loop over the token list (faster than Lark's interactive parser).

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
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark.lexer import Lexer
from lark.parsers.lalr_analysis import Shift

from tlaconf.files import read_text
from tlaconf.tla import ast
from tlaconf.tla.builder import AstBuilder
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
    """Placeholder: tokens are fed to the tables by :func:`_drive`."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover - unused
        raise NotImplementedError


_LOCK = threading.Lock()

_Reduce = tuple[Callable[[list[Any]], Any], int, str]
_Table = list[dict[str, tuple[bool, Any]]]


@dataclass(frozen=True)
class _Machine:
    """Lark's LALR tables recompiled for a tight driver loop (string keys, plain tuples)."""

    table: _Table
    start: dict[str, int]
    end: dict[str, int]
    builder: AstBuilder
    units: dict[tuple[int, int, str], int]
    """(state below, state on top, lookahead) -> top state after the chain of pass-through
    reductions (``e1 -> e2 -> ... -> atom``) that the lookahead triggers."""


_OPERATOR_RULES = frozenset(
    {"binop", "conj", "disj", "fnapp", "dot", "prime", "postfix", "prefix", "negate"}
)
"""Rules that collect operator applications unreduced (see :meth:`AstBuilder.settle`)."""


def _settling(
    builder: AstBuilder, callback: Callable[[list[Any]], Any]
) -> Callable[[list[Any]], Any]:
    """``callback`` taking its children reduced by SANY's precedence algorithm."""
    settle = builder.settle_all
    return lambda children: callback(settle(children))


def settled_callbacks(callbacks: dict[Any, Any], builder: AstBuilder) -> dict[Any, Any]:
    """Lark's reduce callbacks (rule -> callback), each rule that is not an operator
    application taking its children settled (the parser's own and Lark's public route)."""
    return {rule: cb if str(rule.alias) in _OPERATOR_RULES else _settling(builder, cb)
            for rule, cb in callbacks.items()}


@lru_cache(maxsize=1)
def _parser() -> _Machine:
    builder = AstBuilder()
    lark = Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=_NoLexer,
        transformer=builder,
        start=["module", "expression", "fragment"],
        maybe_placeholders=False,
        cache=True,  # Lark keeps the LALR analysis in the temp folder, keyed by grammar hash
    )
    inner = lark.parser.parser.parser
    tables = inner.parse_table
    callbacks = settled_callbacks(inner.callbacks, builder)
    reduces: dict[int, _Reduce] = {}
    table: _Table = [{} for _ in range(len(tables.states))]
    for state, row in tables.states.items():
        for sym, (action, arg) in row.items():
            if action is Shift:
                table[state][str(sym)] = (True, arg)
            else:
                if id(arg) not in reduces:
                    # a `?rule` with one symbol passes its child through: size 0 marks it
                    unit = arg.options.expand1 and not arg.alias and len(arg.expansion) == 1
                    size = 0 if unit else len(arg.expansion) or -1
                    reduces[id(arg)] = (callbacks[arg], size, str(arg.origin.name))
                table[state][str(sym)] = (False, reduces[id(arg)])
    return _Machine(table, dict(tables.start_states), dict(tables.end_states), builder, {})


_SHOWN = 40
"""The most characters of a token a syntax error quotes (the excerpt shows where it is)."""


def _describe(tok: Token) -> str:
    if tok.type in ("$END", "LEND"):
        return DISPLAY[tok.type]
    value, size = str(tok.value), ""
    if len(value) > _SHOWN:
        value, size = f"{value[:_SHOWN]}…", f" ({len(value)} characters)"
    if tok.type == "STRING":
        return f'string "{value}"{size}'
    return f"'{value}'{size}" if value else DISPLAY.get(tok.type, tok.type)


def _expected(names: set[str]) -> str:
    return " or ".join(sorted({DISPLAY.get(n, n.lower()) for n in names}))


def _drive(machine: _Machine, tokens: list[Token], start: str, file: str, text: str) -> Any:
    table = machine.table
    states = [machine.start[start]]
    values: list[Any] = []
    end_state = machine.end[start]
    last = tokens[-1] if tokens else None
    eof = Token("$END", "", 0, last.end_line if last else 1, last.end_column if last else 1)
    units = machine.units
    prev: Token | None = None
    for tok in [*tokens, eof]:
        ttype = tok.type
        while True:
            act = table[states[-1]].get(ttype)
            if act is not None and not act[0] and act[1][1] == 0:
                key = (states[-2], states[-1], ttype)
                top = units.get(key)
                if top is None:
                    top = states[-1]
                    while act is not None and not act[0] and act[1][1] == 0:
                        top = table[states[-2]][act[1][2]][1]
                        act = table[top].get(ttype)
                    units[key] = top
                states[-1] = top
                act = table[top].get(ttype)
            if act is None:
                expected = {k for k in table[states[-1]] if k.isupper()}
                msg = f"syntax error: unexpected {_describe(tok)}"
                if prev is not None and prev.value and (
                        tok.type in ("$END", "LEND") or (tok.line or 0) > (prev.line or 0)):
                    msg += f" after {_describe(prev)}"  # what is missing ends that line
                if len(expected) <= 6:
                    msg += f"; expected {_expected(expected)}"
                raise ParseError(msg, file, tok.line or 1, tok.column or 1, text)
            if act[0]:
                states.append(act[1])
                values.append(tok)
                prev = tok
                break
            callback, size, origin = act[1]
            if size > 0:
                children = values[-size:]
                del states[-size:]
                del values[-size:]
            else:
                children = []
            values.append(callback(children))
            states.append(table[states[-1]][origin][1])
            if ttype == "$END" and states[-1] == end_state:
                return values[-1]


def _run(tokens: list[Token], start: str, file: str, text: str) -> Any:
    tokens = strip_proofs(tokens)
    mark_labels(tokens)
    tokens = layout(tokens)
    machine = _parser()
    with _LOCK:
        machine.builder.reset(file, text)
        return _drive(machine, tokens, start, file, text)


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
    return parse_module(read_text(Path(path), "module"), str(path))
