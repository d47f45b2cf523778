r"""The layout rule for bulleted /\ and \/ lists (Specifying Systems 15.2.2)."""

from __future__ import annotations

import pytest

from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.parser import parse_expression, parse_units

from .helpers import tree

CASES = [
    ("/\\ a\n/\\ b", "AND*[a, b]"),
    ("\\/ a\n\\/ b", "OR*[a, b]"),
    ("/\\ a", "AND*[a]"),
    # nesting by column
    ("/\\ a\n/\\ \\/ b\n   \\/ c\n/\\ d", "AND*[a, OR*[b, c], d]"),
    ("\\/ /\\ a\n   /\\ b\n\\/ c", "OR*[AND*[a, b], c]"),
    ("/\\ /\\ /\\ a\n      /\\ b\n   /\\ c\n/\\ d", "AND*[AND*[AND*[a, b], c], d]"),
    # an item continues on lines to the right of its bullet
    ("/\\ x =\n     1\n/\\ y", "AND*[=(x, 1), y]"),
    # a token left of the bullet ends the list
    ("/\\ a\n /\\ b\n=> c", "=>(AND*[a, b], c)"),
    # infix /\ after an operand, even at the start of a line
    ("x = 1\n  /\\ y = 2\n  /\\ z = 3", "AND[=(x, 1), =(y, 2), =(z, 3)]"),
    # a leading-bullet chain on one line: the items join the list
    ("/\\ a /\\ b\n/\\ c", "AND*[a, b, c]"),
    ("/\\ a \\/ b\n/\\ c", "AND*[OR[a, b], c]"),
    # lists inside brackets end at the closing bracket
    ("(/\\ a\n /\\ b) /\\ c", "AND[AND*[a, b], c]"),
    ("f(/\\ a\n  /\\ b, c)", "f(AND*[a, b], c)"),
    ("<< /\\ a, b >>", "<<AND*[a], b>>"),
    ("{ \\/ a\n  \\/ b }", "{OR*[a, b]}"),
    ("[x \\in S |-> /\\ a\n              /\\ b]", "[x \\in S |-> AND*[a, b]]"),
    ("x = /\\ a\n    /\\ b", "=(x, AND*[a, b])"),
    # keyword constructs inside items
    ("/\\ IF a\n   THEN b\n   ELSE c\n/\\ d", "AND*[IF(a, b, c), d]"),
    ("IF /\\ a\n   /\\ b THEN c ELSE d", "IF(AND*[a, b], c, d)"),
    ("IF a THEN /\\ b\n          /\\ c\n     ELSE d", "IF(a, AND*[b, c], d)"),
    ("/\\ LET x == 1\n   IN x\n/\\ d", "AND*[LET x IN x, d]"),
    ("LET x == /\\ a\n         /\\ b\nIN x", "LET x IN x"),
    ("/\\ \\A x \\in S :\n     /\\ P\n     /\\ Q\n/\\ R", "AND*[\\A x \\in S : AND*[P, Q], R]"),
    ("\\E x \\in /\\ a\n         /\\ b : x", "\\E x \\in AND*[a, b] : x"),
    ("/\\ CASE a -> b\n     [] c -> d\n/\\ e", "AND*[CASE(a -> b; c -> d), e]"),
    ("CASE a -> /\\ b\n          /\\ c\n  [] OTHER -> d", "CASE(a -> AND*[b, c]; OTHER -> d)"),
    ("CASE a -> /\\ b /\\ c [] OTHER -> d", "CASE(a -> AND*[b, c]; OTHER -> d)"),
    # a junction symbol used as an operator argument is not a bullet
    ("F(/\\, \\/)", "F(/\\, \\/)"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_layout(text: str, expected: str) -> None:
    assert tree(text) == expected


def test_bulleted_flag_and_item_spans() -> None:
    e = parse_expression("/\\ a = 1\n/\\ b = 2", "f")
    assert isinstance(e, ast.Junction) and e.bulleted
    assert [(i.span.line, i.span.col) for i in e.items] == [(1, 4), (2, 4)]
    assert (e.span.line, e.span.col, e.span.end_line, e.span.end_col) == (1, 1, 2, 8)


def test_token_left_of_the_bullets_ends_the_list() -> None:
    with pytest.raises(ParseError) as err:
        parse_expression("x = /\\ a\n    /\\ b\n  c", "f")
    assert err.value.location == "f:3:3"
    assert tree(" /\\ a\n/\\ b") == "AND[AND*[a], b]"


SEED_FLATTENED = [
    # seed 003: the whole AbilityShape9 on two lines, indentation lost
    (
        "AbilityShape9(kind,instructions) ==\n"
        'kind \\in AbilityKinds9 /\\ IF kind = "Static" THEN Len(instructions) = 0 '
        "ELSE Len(instructions) > 0",
        "AND[\\in(kind, AbilityKinds9), IF(=(kind, 'Static'), =(Len(instructions), 0), "
        ">(Len(instructions), 0))]",
    ),
    # seed 003: ReturnAbility9, bullets at column 1, several items on one line
    (
        "ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller) ==\n"
        "/\\ before.complete /\\ ~before.returned /\\ actualFinalCheckpointAndChainsComplete "
        "/\\ caller = before.caller\n"
        "/\\ after = [before EXCEPT !.returned = TRUE]",
        "AND*[before.complete, ~(before.returned), actualFinalCheckpointAndChainsComplete, "
        "=(caller, before.caller), =(after, [before EXCEPT !.returned = TRUE])]",
    ),
    # seed 003: AbilitySource9, CASE arms at column 1
    (
        "AbilitySource9(origin,printedObject,recipient,effectCreator,rule) ==\n"
        'CASE origin = "Printed" -> ObjectAbilitySource9(printedObject)\n'
        '[] origin = "Granted" -> ObjectAbilitySource9(recipient)\n'
        '[] origin = "Rule" -> RuleAbilitySource9(rule)',
        "CASE(=(origin, 'Printed') -> ObjectAbilitySource9(printedObject); "
        "=(origin, 'Granted') -> ObjectAbilitySource9(recipient); "
        "=(origin, 'Rule') -> RuleAbilitySource9(rule))",
    ),
    # a bracket opened in an item keeps the item open even at column 1
    (
        "Op(z) ==\n/\\ after = [z \\in S |-> IF z = a THEN 1\nELSE 2]\n/\\ b",
        "AND*[=(after, [z \\in S |-> IF(=(z, a), 1, 2)]), b]",
    ),
]


@pytest.mark.parametrize(("text", "expected"), SEED_FLATTENED)
def test_flattened_fragment_lines(text: str, expected: str) -> None:
    (unit,) = parse_units(text, "page.txt")
    assert isinstance(unit, ast.OpDef)
    assert tree_of(unit.body) == expected


def tree_of(e: ast.Expr) -> str:
    from .helpers import show

    return show(e)


def test_two_definitions_with_column_one_bullets() -> None:
    units = parse_units("A ==\n/\\ a\n/\\ b\nB ==\n/\\ c", "page.txt")
    assert [u.name for u in units if isinstance(u, ast.OpDef)] == ["A", "B"]
    first = units[0]
    assert isinstance(first, ast.OpDef)
    assert tree_of(first.body) == "AND*[a, b]"
