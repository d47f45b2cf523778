"""The hand-driven LALR loop (tlaconf.tla.parser._drive) against Lark's own LALR parser.

The parser runs Lark's tables in its own tight loop for speed; this test feeds the same
laid-out tokens through Lark's public route (a custom lexer handing them to an ordinary
``Lark(parser="lalr")``) and requires equal trees, spans included, on every module under
``spec/`` and on the fuzz seeds, and the same refusal of a token the grammar rejects."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from tests.paths import ROOT
from tests.tla.test_fuzz import SEEDS
from tlaconf.errors import UserError
from tlaconf.tla import ast
from tlaconf.tla.builder import AstBuilder
from tlaconf.tla.layout import layout, mark_labels, strip_proofs
from tlaconf.tla.lexer import tokenize_modules
from tlaconf.tla.parser import _GRAMMAR, parse_modules
from tlaconf.tla.visit import iter_nodes


class _Given(Lexer):
    """Lark's custom-lexer hook: the "text" handed to ``parse`` is the token list itself."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]  # interface 0
        yield from data


def _lark() -> tuple[Lark, AstBuilder]:
    builder = AstBuilder()
    lark = Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer=_Given,
                transformer=builder, start=["module", "expression", "fragment"],
                maybe_placeholders=False)
    return lark, builder


LARK, BUILDER = _lark()


class _Tokens(list[Token]):
    """A token list Lark accepts as its input "text"."""


def lark_modules(text: str, file: str) -> tuple[ast.Module, ...]:
    out = []
    for toks in tokenize_modules(text, file):
        toks = strip_proofs(toks)
        mark_labels(toks)
        BUILDER.reset(file, text)
        out.append(LARK.parse(_Tokens(layout(toks)), start="module"))  # type: ignore[arg-type]
    return tuple(out)


def same(a: tuple[ast.Module, ...], b: tuple[ast.Module, ...]) -> bool:
    if a != b:
        return False
    return all(x.span == y.span and type(x) is type(y)
               for ma, mb in zip(a, b, strict=True)
               for x, y in zip(iter_nodes(ma), iter_nodes(mb), strict=True))


SPEC_FILES = sorted((ROOT / "spec").rglob("*.tla"))


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_equal_trees_on_the_spec(path: Path) -> None:
    text = path.read_text(encoding="utf-8").expandtabs(8)
    assert same(parse_modules(text, str(path)), lark_modules(text, str(path)))


@pytest.mark.parametrize("text", SEEDS)
def test_equal_trees_on_the_fuzz_seeds(text: str) -> None:
    assert same(parse_modules(text, "seed.tla"), lark_modules(text, "seed.tla"))


def test_both_refuse_what_the_grammar_rejects() -> None:
    text = "---- MODULE M ----\nOp == 1 + + 2\n====\n"
    with pytest.raises(UserError, match="syntax error"):
        parse_modules(text, "m.tla")
    with pytest.raises(UnexpectedInput):
        lark_modules(text, "m.tla")


def test_a_difference_is_seen() -> None:
    a = parse_modules("---- MODULE M ----\nOp == 1 + 2\n====\n", "m.tla")
    b = parse_modules("---- MODULE M ----\nOp == 1 +  2\n====\n", "m.tla")
    assert a == b and not same(a, b)  # equal nodes, different spans
