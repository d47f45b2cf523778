"""Apalache @type annotations of variables and the ITF forms they choose."""

from __future__ import annotations

import pytest

from tlaconf.tla.annotations import type_form, variable_types
from tlaconf.values.forms import ANY, Form


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("Int", ANY),
        ("Seq(Int)", Form("seq", (ANY,))),
        ("<<Int, Str>>", Form("tup", (ANY, ANY))),
        ("{a: Int, b: Seq(Str)}", Form("rec", fields=(("a", ANY), ("b", Form("seq", (ANY,)))))),
        ("[a: Int]", Form("rec", fields=(("a", ANY),))),
        ("Str -> Set(Int)", Form("map", (ANY, Form("set", (ANY,))))),
        ("Int -> Int -> Str", Form("map", (ANY, Form("map", (ANY, ANY))))),
        ("(Int -> Str)", Form("map", (ANY, ANY))),
        ("Set(<<Int, ZONE>>)", Form("set", (Form("tup", (ANY, ANY)),))),
        ("A(Int) | B(Str)", ANY),
        ("(Int) => Bool", ANY),
        ("Seq(", ANY),
    ],
)
def test_type_forms(text: str, form: Form) -> None:
    assert type_form(text) == form


def test_variable_annotations_and_aliases() -> None:
    text = (
        "VARIABLES\n"
        "    \\* @type: Set(Int);\n    ids,\n"
        "    (* @type: Str -> Set(Int); *)\n    occupants,\n"
        "    \\* @typeAlias: pair = <<Int, Str>>;\n"
        "    \\* @type: Seq($pair);\n    \\* the piles, top first\n    piles,\n"
        "    plain\n"
        "\\* @type: (Int) => Bool;\nOp(x) == TRUE\n"
    )
    types = variable_types(text, ["ids", "occupants", "piles", "plain"])
    assert types == {"ids": "Set(Int)", "occupants": "Str -> Set(Int)",
                     "piles": "Seq(<<Int, Str>>)"}
    assert type_form(types["piles"]) == Form("seq", (Form("tup", (ANY, ANY)),))
    assert type_form("Seq($unknown)") == Form("seq", (ANY,))
    fn = "\\* @typeAlias: f = Int -> Str;\nVARIABLE\n  \\* @type: $f -> Int;\n  g\n"
    assert variable_types(fn, ["g"]) == {"g": "(Int -> Str) -> Int"}
