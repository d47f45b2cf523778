# ruff: noqa: E501
"""The TLA+ text published in the seed pages parses into the expected shapes."""

from __future__ import annotations

from tlaconf.tla import ast
from tlaconf.tla.parser import parse_units

RETURN_ABILITY = r"""ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller) ==
/\ before.complete /\ ~before.returned /\ actualFinalCheckpointAndChainsComplete /\ caller = before.caller
/\ after = [before EXCEPT !.returned = TRUE]
"""


def test_return_ability_flattened_bullets() -> None:
    (unit,) = parse_units(RETURN_ABILITY, "seed003")
    assert isinstance(unit, ast.OpDef) and unit.name == "ReturnAbility9"
    body = unit.body
    assert isinstance(body, ast.Junction) and body.bulleted and len(body.items) == 5
    last = body.items[-1]
    assert isinstance(last, ast.OpApp) and isinstance(last.args[1], ast.Except)
