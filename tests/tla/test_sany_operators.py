"""SANY's operator table, checked pair by pair against real SANY's recorded answers.

``sany/operators.json`` holds, for every ordered pair of TLA+ operators chained, mixed and
parenthesized, what real SANY did (accept with a tree, or reject); it is regenerated with
``sany/generate_operators.py`` when ``TLC_JAR`` is set.  No Java is needed here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.tla import ast
from tlaconf.tla.errors import ParseError
from tlaconf.tla.parser import parse_expression
from tlaconf.tla.precedence import OPERATORS

DATA = json.loads((Path(__file__).parent / "sany" / "operators.json").read_text("utf-8"))

_SANY_NAMES = {"\\X": "$CartesianProd", "~": "\\lnot"}


def shape(e: ast.Expr) -> str:
    """The tree as SANY's semantic graph spells it (``SanyProbe.java``)."""
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Junction):
        op = "\\land" if e.op == "/\\" else "\\lor"
        out = shape(e.items[0])
        for item in e.items[1:]:
            out = f"({op} {out} {shape(item)})"
        return out
    if isinstance(e, ast.Prime):
        return f"(' {shape(e.expr)})"
    if isinstance(e, ast.Enabled):
        return f"(ENABLED {shape(e.expr)})"
    if isinstance(e, ast.Unchanged):
        return f"(UNCHANGED {shape(e.expr)})"
    if isinstance(e, ast.FnApp):
        return f"($FcnApply {shape(e.fn)} {' '.join(shape(a) for a in e.args)})"
    if isinstance(e, ast.Dot):
        return f'($RcdSelect {shape(e.expr)} "{e.field_name}")'
    assert isinstance(e, ast.OpApp), e
    name = _SANY_NAMES.get(e.name) or (OPERATORS[e.name].name if e.name in OPERATORS else e.name)
    return f"({name} {' '.join(shape(a) for a in e.args)})"


def _tlaconf(expr: str) -> list[str]:
    try:
        tree = parse_expression(expr)
    except ParseError:
        return ["reject"]
    return ["accept", shape(tree)]


def _same(expected: list[str], got: list[str]) -> bool:
    if expected[0] == "semantic":  # SANY parsed it, then refused a name or level
        return got[0] == "accept"
    return expected == got


def test_every_pair_of_operators_as_sany() -> None:
    differences = [
        (e, want, got) for e, want in DATA.items() if not _same(want, got := _tlaconf(e))
    ]
    assert len(DATA) > 25000
    assert not differences, f"{len(differences)} of {len(DATA)} probes differ: {differences[:20]}"


def test_the_table_rejects_what_sany_rejects() -> None:
    rejected = [e for e, want in DATA.items() if want[0] == "reject"]
    for chain in ("=>", "\\equiv", "~>", "-+->"):
        assert f"a {chain} b {chain} c" in rejected
    assert DATA["a = \\lnot b"][0] == "accept"
    assert DATA["a \\lor b \\land c"][0] == "reject"


@pytest.mark.parametrize(
    "text, where, names",
    [
        ("a => b => c", 8, ("'=>' cannot be chained",)),
        ("a /\\ b \\/ c", 8, ("'/\\'", "'\\/'")),
        ("a + b \\cdot c", 7, ("'+'", "'\\cdot'")),
        ("SUBSET a + b", 10, ("'SUBSET'", "'+'")),
        ("a * -b", 5, ("'*'", "'-'")),
    ],
)
def test_a_refused_chain_names_both_operators(
    text: str, where: int, names: tuple[str, ...]
) -> None:
    with pytest.raises(ParseError) as info:
        parse_expression(text, "Spec.tla")
    assert f"Spec.tla:1:{where}:" in str(info.value)
    assert all(n in info.value.message for n in names)
    assert "parentheses" in info.value.message


def test_negation_on_the_right_of_an_equality_parses() -> None:
    assert shape(parse_expression("a = ~b")) == "(= a (\\lnot b))"
    assert shape(parse_expression("x' = ~x")) == "(= (' x) (\\lnot x))"
