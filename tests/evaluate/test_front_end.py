"""One front end: the evaluator loads what the resolver found and checked.

Each spec error is reported when the module loads, with file:line:col and a
caret, in the same words ``tlaconf parse`` uses; replay turns it into an
``error`` verdict (exit 2) with that message, ``--json`` included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.errors import UserError
from tlaconf.evaluate import load_module
from tlaconf.trace import TraceWriter

CASES: dict[str, tuple[dict[str, str | tuple[str, str]], str]] = {
    "undefined name in an unused operator": (
        {"M": "EXTENDS Naturals\nVARIABLE x\nInc(p) == x' = x + 1\nUnused == y + 1\n"},
        "M.tla:5:11: undefined name y",
    ),
    "module extending itself": (
        {"M": "EXTENDS M\nVARIABLE x\nInc(p) == x' = x\n"},
        "M.tla:2:9: circular dependency: module M extends or instantiates itself (M -> M)",
    ),
    "EXTENDS cycle": (
        {"M": "EXTENDS A\nVARIABLE x\nInc(p) == x' = x\n", "A": "EXTENDS M\n"},
        "A.tla:2:9: circular dependency: module M depends on itself (M -> A -> M)",
    ),
    "INSTANCE cycle": (
        {"M": "VARIABLE x\nINSTANCE A\nInc(p) == x' = x\n", "A": "VARIABLE x\nINSTANCE M\n"},
        "A.tla:3:1: circular dependency: module M depends on itself (M -> A -> M)",
    ),
    "recursion without RECURSIVE": (
        {"M": "EXTENDS Naturals\nVARIABLE x\nF(n) == IF n = 0 THEN 0 ELSE F(n - 1)\n"
              "Inc(p) == x' = F(x)\n"},
        "M.tla:4:30: F is used in its own definition, but it is not declared RECURSIVE",
    ),
    "MODULE name differs from the file name": (
        {"M": ("Other", "VARIABLE x\nInc(p) == x' = x\n")},
        "M.tla:1:1: the file M.tla holds MODULE Other: a module file must be named after its "
        "module (Other.tla), as TLC requires",
    ),
    "an imported file holding another module": (
        {"M": "EXTENDS A\nVARIABLE x\nInc(p) == x' = x\n", "A": ("B", "")},
        "A.tla holds MODULE B, not A (a module file is named after its module)",
    ),
}


def _write(folder: Path, modules: dict[str, str | tuple[str, str]]) -> Path:
    """``name -> body`` (or ``(MODULE name, body)``) as ``name.tla``; the path of M.tla."""
    for name, body in modules.items():
        header, text = body if isinstance(body, tuple) else (name, body)
        (folder / f"{name}.tla").write_text(f"---- MODULE {header} ----\n{text}====\n")
    return folder / "M.tla"


def _module(tmp_path: Path, case: str) -> Path:
    spec = tmp_path / "spec"
    conformance = spec / "conformance"
    conformance.mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    return _write(conformance, CASES[case][0])


@pytest.mark.parametrize("case", CASES)
def test_spec_errors_at_load_as_parse_reports_them(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _module(tmp_path, case)
    expected = CASES[case][1]
    with pytest.raises(UserError) as info:
        load_module(path)
    loaded = str(info.value)
    assert expected in loaded and "^" in loaded
    assert main(["parse", str(path)]) == 2
    parsed = capsys.readouterr().err
    assert parsed.strip() == loaded.strip()

    trace = tmp_path / "t.trace.jsonl"
    with TraceWriter(trace, "M", "1", {}, {}) as w:
        w.init({"x": 0})
        w.step("Inc", {}, "accepted", {"x": 0})
    assert main(["replay", "--json", "--spec", str(tmp_path / "spec"), str(trace)]) == 2
    doc = json.loads(capsys.readouterr().out)
    reason = doc["traces"][0]["failure"]["reason"]
    assert doc["traces"][0]["verdict"] == "error" and expected in reason
    assert loaded.strip() in reason and "RecursionError" not in reason


def test_a_well_formed_module_loads(tmp_path: Path) -> None:
    path = _write(tmp_path, {
        "M": "EXTENDS Naturals\nVARIABLE x\nN == INSTANCE Naturals\nRECURSIVE F(_)\n"
             "F(n) == IF n = 0 THEN 0 ELSE N!+(F(n - 1), 1)\nINSTANCE A\nInc(p) == x' = F(x)\n",
        "A": "EXTENDS Integers\nTwice(n) == n + n\nLOCAL Hidden == 1\n",
    })
    ctx = load_module(path)
    assert ctx.holds("Inc", (0,), {"x": 3}, {"x": 3})
    assert ctx.evaluate("Twice(4)") == 8


def test_eval_m_errors_point_into_the_users_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {"M": ("Other", "A == 1\n")})
    assert main(["eval", "-m", str(path), "A"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:1: the file M.tla holds MODULE Other" in err and "<eval>" not in err
    path = _write(tmp_path, {"M": "A == undefined\n"})
    assert main(["eval", "-m", str(path), "A"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:6: undefined name undefined" in err and "<eval>" not in err
