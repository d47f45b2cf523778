"""The TLC .cfg reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.spec.cfg import Substitution, parse_cfg, read_cfg
from tlaconf.values import ModelValue, record


def test_constants_and_invariants() -> None:
    cfg = parse_cfg(
        r"""
        \* line comment
        CONSTANTS
            Seats4 = {"SideA", "SideB"}   (* block (* nested *) comment *)
            N = -3  Range = 1..3
            Pair = <<TRUE, "x\"y">>
            Rec = [a |-> 1, b |-> {}]
            Mv = m1
        SPECIFICATION Spec
        INVARIANT Inv1
        INVARIANTS Inv2 Inv1
        CHECK_DEADLOCK FALSE
        """
    )
    assert cfg.constants == {
        "Seats4": frozenset({"SideA", "SideB"}),
        "N": -3,
        "Range": frozenset({1, 2, 3}),
        "Pair": (True, 'x"y'),
        "Rec": record(a=1, b=frozenset()),
        "Mv": ModelValue("m1"),
    }
    assert cfg.invariants == ("Inv1", "Inv2")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("CONSTANTS\n  X = {1, 2", 2, "expected ',' or '}'"),
        ("CONSTANT X <- INIT", 1, "expected a definition after '<-'"),
        ("CONSTANT X 3", 1, "expected '=' or '<-'"),
        ("INIT A\nINIT B", 2, "INIT is given twice"),
        ("CHECK_DEADLOCK maybe", 1, "TRUE or FALSE"),
        ("CONSTANTS\nX <- A\nX <-[M] B", 3, "<-[Module] Def"),
        ("CONSTANTS\nX = [M]v", 2, "[Module]value"),
        ("CONSTANTS\nX = 1\nX = 2", 3, "given twice"),
        ("FOO Bar", 1, "section keyword"),
        ("CONSTANTS\n\nX = {TRUE, 1}", 3, "cannot compare"),
        ("CONSTANTS X = 1 (* open", 1, "unterminated comment"),
        ("CONSTANTS X = $", 1, "unexpected character"),
        ("CONSTANTS X =\nINVARIANT I", 2, "keyword INVARIANT"),
    ],
)
def test_errors_name_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(UserError) as err:
        parse_cfg(text, "M.cfg")
    assert err.value.location == f"M.cfg:{line}" and message in err.value.message


def test_explorer_sections() -> None:
    cfg = parse_cfg(
        "CONSTANTS N = 3\n  Op <- MCOp\n  P = {p1, p2}\nSPECIFICATION Spec\nINIT I\nNEXT N\n"
        "CONSTRAINT C1 C2\nACTION_CONSTRAINT AC\nSYMMETRY Sym\nVIEW V\n"
        "CHECK_DEADLOCK FALSE\nPROPERTY Live\nALIAS A\nINVARIANT Inv\n", "M.cfg")
    assert cfg.constants["Op"] == Substitution("MCOp")
    assert cfg.values == {"N": 3, "P": frozenset({ModelValue("p1"), ModelValue("p2")})}
    assert (cfg.specification, cfg.init, cfg.next, cfg.symmetry, cfg.view) == (
        "Spec", "I", "N", "Sym", "V")
    assert cfg.constraints == ("C1", "C2") and cfg.action_constraints == ("AC",)
    assert cfg.check_deadlock is False and cfg.properties == ("Live",)
    assert cfg.invariants == ("Inv",) and cfg.sections["ALIAS"] == 13
    assert parse_cfg("INIT I", "M.cfg").check_deadlock is None


def test_read_cfg(tmp_path: Path) -> None:
    path = tmp_path / "M.cfg"
    path.write_text("CONSTANT Limit = 4\nINVARIANT Ok\n")
    cfg = read_cfg(path)
    assert (cfg.path, cfg.constants, cfg.invariants) == (path, {"Limit": 4}, ("Ok",))
    with pytest.raises(UserError, match="cannot read"):
        read_cfg(tmp_path / "missing.cfg")
