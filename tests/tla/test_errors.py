"""Syntax and lexical errors: file:line:col, a caret line, and only UserError subclasses."""

from __future__ import annotations

import pytest

from tlaconf.errors import UserError
from tlaconf.tla.errors import ParseError
from tlaconf.tla.parser import parse_expression, parse_module


def test_syntax_error_message_location_and_caret() -> None:
    text = "---- MODULE E ----\nFoo == 1 +\nBar == 2\n===="
    with pytest.raises(ParseError) as info:
        parse_module(text, "E.tla")
    err = info.value
    assert isinstance(err, UserError)
    assert (err.file, err.line, err.col) == ("E.tla", 3, 5)
    assert str(err) == "E.tla:3:5: syntax error: unexpected '=='\nBar == 2\n    ^"


@pytest.mark.parametrize(
    ("text", "location", "message"),
    [
        ('"abc', "x:1:1", "unterminated string"),
        ('"a\\qb"', "x:1:3", "invalid escape in string"),
        ("(* open", "x:1:1", "unterminated comment"),
        ("a \\foo b", "x:1:3", "unknown operator \\foo"),
        ("a ` b", "x:1:3", "unexpected character '`'"),
        ("(a + b", "x:1:7", "unexpected end of input"),
        ("[f EXCEPT !.a 1]", "x:1:15", "expected '.' or '=' or '['"),
        ("f(a,, b)", "x:1:5", "unexpected ','"),
        ("[x |-> ]", "x:1:8", "unexpected ']'"),
        ("{x, y : z}", "x:1:7", "unexpected ':'"),
        ("[a, b |-> 1]", "x:1:2", "expected '\\in S' after the bound names"),
        ("[1 \\in S |-> 1]", "x:1:2", "expected a bound"),
        ("", "x:1:1", "empty expression"),
        ("1 " + "a" * 20000, "x:1:3", f"unexpected '{'a' * 40}…' (20000 characters); expected"),
        ('1 "' + "b" * 50 + '"', "x:1:3", f'string "{"b" * 40}…" (50 characters)'),
    ],
)
def test_expression_errors(text: str, location: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_expression(text, "x")
    assert info.value.location == location
    assert message in info.value.message


def test_caret_under_a_tabbed_line() -> None:
    with pytest.raises(ParseError) as info:
        parse_expression("\t1 +", "t")
    assert str(info.value).endswith("        1 +\n           ^")


def test_missing_footer() -> None:
    with pytest.raises(ParseError, match="unexpected end of input"):
        parse_module("---- MODULE M ----\nA == 1\n", "m")


@pytest.mark.parametrize(
    "text",
    [
        "---- MODULE M ----\nFoo == 1 BY Bar\n====",
        "---- MODULE M ----\nTHEOREM TRUE\nFoo == 1 OBVIOUS\n====",
    ],
)
def test_proof_keywords_outside_a_proof_are_errors(text: str) -> None:
    with pytest.raises(ParseError, match=r"unexpected '(BY|OBVIOUS)'"):
        parse_module(text, "m")
    with pytest.raises(ParseError, match="unexpected 'BY'"):
        parse_expression("x + 1 BY y", "e")


def test_mixed_junctions_need_parentheses() -> None:
    with pytest.raises(ParseError) as info:
        parse_expression("a /\\ b \\/ c", "e")
    assert info.value.location == "e:1:8"
    assert "precedence conflict" in info.value.message
    parse_expression("(a /\\ b) \\/ c", "e")
    parse_expression("/\\ a\n/\\ b \\/ c", "e")
