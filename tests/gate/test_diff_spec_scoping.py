"""``diff-spec`` binds names as TLC does: a change affects ``Main!Val`` exactly when TLC's
value of ``Val`` changes with it.

Each case is a module set, one edit to it, and whether ``Val`` is affected; the values TLC
printed for ``Val`` before and after the edit (``PrintT(Val)``, TLC cc6b616) are recorded
beside it, and ``test_tlc_agrees`` re-checks them where ``TLC_JAR`` is set.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tlaconf.gate.diff_spec import diff_specs

Modules = dict[str, str]
CASES: dict[str, tuple[Modules, tuple[str, str, str], bool, tuple[str, str]]] = {
    # EXTENDS: Val uses Lib's H
    "extends": ({"Lib": "H == 1", "Main": "EXTENDS Lib\nVal == H"},
                ("Lib", "H == 1", "H == 2"), True, ("1", "2")),
    # LOCAL: A's H is A's own; Val == H is B's H (A's is not visible in Main)
    "local-other": ({"A": "LOCAL H == 1\nGetA == H", "B": "H == 2",
                     "Main": "EXTENDS A, B\nVal == H"},
                    ("B", "H == 2", "H == 3"), True, ("2", "3")),
    "local-own": ({"A": "LOCAL H == 1\nGetA == H", "B": "H == 2",
                   "Main": "EXTENDS A, B\nVal == H"},
                  ("A", "LOCAL H == 1", "LOCAL H == 5"), False, ("2", "2")),
    # LET: a LET definition hides the module's definition of the same name (defined later)
    "let": ({"Main": "Val == LET H == 5 IN H\nH == 1"}, ("Main", "H == 1", "H == 2"), False,
            ("5", "5")),
    # a quantifier's bound variable hides the module's definition of the same name
    "quantifier": ({"Main": "EXTENDS Naturals\nVal == {x \\in 1..3 : x > 1}\nx == 7"},
                   ("Main", "x == 7", "x == 8"), False, ("{2, 3}", "{2, 3}")),
    "parameter": ({"Main": "F(x) == x\nVal == F(3)\nx == 7"}, ("Main", "x == 7", "x == 8"),
                  False, ("3", "3")),
    # INSTANCE ... WITH: a definition of the instance uses what is substituted
    "instance-with": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nGet == N + 1",
                       "Main": "K == 1\nI == INSTANCE Lib WITH N <- K\nVal == I!Get"},
                      ("Main", "K == 1", "K == 2"), True, ("2", "3")),
    "instance-unnamed": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nGet == N + 1",
                          "Main": "K == 1\nINSTANCE Lib WITH N <- K\nVal == Get"},
                         ("Main", "K == 1", "K == 2"), True, ("2", "3")),
    # an implicit substitution: Lib's N is Main's definition N
    "instance-implicit": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nGet == N + 1",
                           "Main": "N == 1\nI == INSTANCE Lib\nVal == I!Get"},
                          ("Main", "N == 1", "N == 4"), True, ("2", "5")),
    # a definition of the instantiated module Val does not use
    "instance-unused": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nGet == N + 1\nOther == 0",
                         "Main": "I == INSTANCE Lib WITH N <- 1\nVal == I!Get"},
                        ("Lib", "Other == 0", "Other == 9"), False, ("2", "2")),
}


def _tree(root: Path, modules: Modules, edit: tuple[str, str, str] | None = None,
          tlc: bool = False) -> Path:  # fmt: skip
    folder = root / "conformance"
    folder.mkdir(parents=True)
    for name, body in modules.items():
        if edit is not None and edit[0] == name:
            assert edit[1] in body
            body = body.replace(edit[1], edit[2])
        if name == "Main" and tlc:
            body = ("EXTENDS TLC, " + body[len("EXTENDS "):] if body.startswith("EXTENDS ")
                    else "EXTENDS TLC\n" + body)
            body += ('\nVARIABLE tlaconf_x\nASSUME PrintT(<<"Val", Val>>)\n'
                     "Init == tlaconf_x = 0\nNext == UNCHANGED tlaconf_x")
        (folder / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}\n====\n")
    if tlc:
        (folder / "Main.cfg").write_text("INIT Init\nNEXT Next\n")
    return root


@pytest.mark.parametrize("case", CASES)
def test_affected_as_tlc_binds_names(case: str, tmp_path: Path) -> None:
    modules, edit, affected, (before, after) = CASES[case]
    assert (before != after) == affected  # the recorded TLC values say the same
    diff = diff_specs(_tree(tmp_path / "old", modules), _tree(tmp_path / "new", modules, edit))
    assert diff.modified == ((f"conformance/{edit[0]}.tla", edit[2].split()[-3]),)
    assert (("conformance/Main.tla", "Val") in diff.affected) == affected, diff.affected


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "to re-check the recorded values against TLC")
@pytest.mark.parametrize("case", CASES)
def test_tlc_agrees(case: str, tmp_path: Path) -> None:
    modules, edit, _, recorded = CASES[case]
    printed = []
    for side, change in (("old", None), ("new", edit)):
        folder = _tree(tmp_path / side, modules, change, tlc=True) / "conformance"
        run = subprocess.run(["java", "-cp", os.environ["TLC_JAR"], "tlc2.TLC", "-workers", "1",
                              "-metadir", str(tmp_path / side / "states"), "Main.tla"],
                             cwd=folder, capture_output=True, text=True, timeout=300)  # fmt: skip
        found = re.search(r'^<<"Val", (.*)>>$', run.stdout, re.MULTILINE)
        assert found is not None, run.stdout[-2000:]
        printed.append(found.group(1))
    assert tuple(printed) == recorded
