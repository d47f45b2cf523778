"""Bound names may not shadow visible ones (SANY's "Multiply-defined symbol"): parameters,
quantifier, CHOOSE, set and function bounds, LAMBDA parameters and LET definitions.  Each
verdict is real SANY's (cc6b616); ``test_sany_agrees`` re-checks them where ``TLC_JAR``
is set."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tlaconf.tla.resolve import ResolveErrors, load

CASES: list[tuple[str, bool]] = [  # (module body after EXTENDS Naturals, SANY accepts)
    ("y == 5\nF(y) == y", False),
    ("F(y) == y\ny == 5", True),  # y is defined after F: no clash
    ("F(a) == LET a == 1 IN a", False),
    ("y == 5\nS == {y \\in {1} : y > 0}", False),
    ("y == 5\nS == [y \\in {1} |-> y]", False),
    ("y == 5\nS == {y : y \\in {1}}", False),
    ("y == 5\nS == CHOOSE y \\in {1} : TRUE", False),
    ("S == LET a == 1 IN LET a == 2 IN a", False),
    ("S == (LET a == 1 IN a) + (LET a == 2 IN a)", True),  # siblings, not nested
    ("CONSTANT y\nS == \\A y \\in {1} : TRUE", False),
    ("S == \\E a \\in {1}, a \\in {2} : TRUE", False),
    ("S == LET F(a) == LET a == 1 IN a IN F(1)", False),
    ("S == \\E a \\in {1} : LET a == 1 IN a", False),
    ("S == {a \\in {1} : \\E a \\in {1} : TRUE}", False),
    ("y == 5\nS == \\E <<y, z>> \\in {<<1, 2>>} : TRUE", False),
    ("y[n \\in {1}] == 1\nS == \\A y \\in {1} : TRUE", False),
    ("S == \\E Nat \\in {1} : TRUE", False),  # a standard module's name
    ("S == \\E a \\in {1} : \\E b \\in {a} : TRUE", True),
    ("S == LET RECURSIVE G(_) G(n) == IF n = 0 THEN 0 ELSE G(n - 1) IN G(2)", True),
    ("F(Op(_), x) == Op(x)\nS == F(LAMBDA z : z, 1)", True),
    ("S == \\E x \\in {1} : TRUE\nT == \\E x \\in {1} : TRUE", True),
    ("THEOREM ASSUME NEW D(_), ASSUME NEW n \\in Nat PROVE D(n) PROVE LET f[n \\in Nat] == D(n) "
     "IN TRUE", True),  # a nested ASSUME's NEW names are its own (tlapm's NaturalsInduction)
    ("THEOREM ASSUME NEW n \\in Nat PROVE \\E n \\in Nat : TRUE", False),
    ("THEOREM ASSUME NEW S, \\A s \\in S : s = s, NEW s \\in S PROVE s = s", True),
    ("THEOREM ASSUME NEW S, NEW s \\in S, \\A s \\in S : s = s PROVE TRUE", False),
]


def _module(tmp: Path, n: int, body: str) -> Path:
    path = tmp / f"M{n}.tla"
    path.write_text(f"---- MODULE M{n} ----\nEXTENDS Naturals\n{body}\n====\n")
    return path


@pytest.mark.parametrize(("n", "body", "accepts"), [(n, b, a) for n, (b, a) in enumerate(CASES)])
def test_shadowing_as_sany(n: int, body: str, accepts: bool, tmp_path: Path) -> None:
    path = _module(tmp_path, n, body)
    if accepts:
        load(path)
        return
    with pytest.raises(ResolveErrors, match="multiply-defined symbol") as info:
        load(path)
    assert f"M{n}.tla:" in str(info.value)


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "to re-check the recorded verdicts against SANY")
def test_sany_agrees(tmp_path: Path) -> None:
    paths = [_module(tmp_path, n, body) for n, (body, _) in enumerate(CASES)]
    for path, (_, accepts) in zip(paths, CASES, strict=True):
        run = subprocess.run(["java", "-cp", os.environ["TLC_JAR"], "tla2sany.SANY", path.name],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert ("rror" not in run.stdout + run.stderr) == accepts, (path.read_text(), run.stdout)
