"""Names are scoped as TLC scopes them: one namespace per module, LOCAL, EXTENDS, INSTANCE
... WITH.  Each case's expected value is what real TLC printed for it (``PrintT(Val)``, TLC
cc6b616); ``test_tlc_agrees`` re-checks them where ``TLC_JAR`` is set."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tlaconf.evaluate import EvalError, load_module
from tlaconf.values.printing import to_tla

CASES: dict[str, tuple[dict[str, str], str]] = {
    # Lib's LOCAL Helper is Lib's own: Main's Helper does not replace it in Val
    "local": ({"Lib": "LOCAL Helper == 1\nVal == Helper",
               "Main": "EXTENDS Lib\nHelper == 2"}, "1"),
    # LOCAL in a module extended twice (a diamond): one Base, its LOCAL H private
    "diamond": ({"Base": "LOCAL H == 7\nB == H",
                 "Left": "EXTENDS Naturals, Base\nL == B + 1",
                 "Right": "EXTENDS Naturals, Base\nR == B + 2",
                 "Main": "EXTENDS Left, Right\nH == 100\nVal == <<L, R, B, H>>"},
                "<<8, 9, 7, 100>>"),
    # INSTANCE ... WITH: the instance's constant substituted, its LOCAL definition private
    "instance-with": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nLOCAL Helper == N + 10\n"
                              "Val == Helper + 1",
                       "Main": "Helper == 2\nI == INSTANCE Lib WITH N <- 3\n"
                               "Val == <<I!Val, Helper>>"}, "<<14, 2>>"),
    # an unnamed INSTANCE: implicit substitution of N by Main's N; Lib's LOCAL not imported
    "instance-unnamed": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nLOCAL Helper == N + 10\n"
                                 "Get == Helper",
                          "Main": "N == 5\nHelper == 2\nINSTANCE Lib\nVal == <<Get, Helper>>"},
                         "<<15, 2>>"),
    # LOCAL INSTANCE: Mid uses Lib's Twice, a module extending Mid does not see it
    "local-instance": ({"Lib": "EXTENDS Naturals\nTwice(n) == 2 * n",
                        "Mid": "LOCAL INSTANCE Lib\nFour == Twice(2)",
                        "Main": "EXTENDS Naturals, Mid\nTwice(n) == 3 * n\n"
                                "Val == <<Four, Twice(2)>>"}, "<<4, 6>>"),
    # an instantiated module's ASSUME is not checked (TLC checks only the root's and what it
    # EXTENDS): N <- "s" makes Lib's ASSUME N \\in Nat an error, and TLC still prints Val
    "instance-assume": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nASSUME N \\in Nat\nThree == 3",
                         "Main": "I == INSTANCE Lib WITH N <- \"s\"\nINSTANCE Lib WITH N <- \"t\"\n"
                                 "Val == <<I!Three, Three>>"}, "<<3, 3>>"),
    # a named ASSUME is a name for its formula, usable in expressions (ASSUME A1 /\ A2)
    "named-assume": ({"Lib": "EXTENDS Naturals\nCONSTANT N\nASSUME Pos == N > 0",
                      "Main": "N == 2\nINSTANCE Lib\nVal == <<Pos, Pos /\\ N = 2>>"},
                     "<<TRUE, TRUE>>"),
    # LET: a definition sees the parameters around it
    "let": ({"Main": "EXTENDS Naturals\nF(a) == LET G(b) == a + b IN G(10)\n"
                     "Val == LET c == 1 IN <<F(c), F(2)>>"}, "<<11, 12>>"),
}


def _write(folder: Path, modules: dict[str, str], tlc: bool = False) -> Path:
    for name, body in modules.items():
        if name == "Main" and tlc:
            body = body.replace("EXTENDS ", "EXTENDS TLC, ", 1) if body.startswith("EXTENDS") \
                else "EXTENDS TLC\n" + body
            body += ('\nVARIABLE x\nASSUME PrintT(<<"Val", Val>>)\nInit == x = 0\n'
                     "Next == UNCHANGED x")
        (folder / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}\n====\n")
    if tlc:
        (folder / "Main.cfg").write_text("INIT Init\nNEXT Next\n")
    return folder / "Main.tla"


@pytest.mark.parametrize("case", CASES)
def test_scoping_as_tlc(case: str, tmp_path: Path) -> None:
    modules, tlc_says = CASES[case]
    ctx = load_module(_write(tmp_path, modules), [], {})
    assert to_tla(ctx.evaluate("Val")) == tlc_says


def test_local_helper_is_not_replaced(tmp_path: Path) -> None:
    """The issue's case: ``tlaconf eval -m Main.tla Val`` said 2, TLC says 1."""
    modules, _ = CASES["local"]
    ctx = load_module(_write(tmp_path, modules), [], {})
    assert ctx.evaluate("Val") == 1
    assert ctx.evaluate("Helper") == 2  # Main's own Helper is still Main's


def test_only_the_roots_assumptions_are_checked(tmp_path: Path) -> None:
    """Lib's ASSUME fails under the instance's substitution and is not checked; the same
    ASSUME in a module Main EXTENDS is."""
    modules, _ = CASES["instance-assume"]
    load_module(_write(tmp_path, modules), [], {}).check_assumptions()
    main = _write(tmp_path, {"Main": "EXTENDS Lib"})
    with pytest.raises(EvalError, match="in Nat"):
        load_module(main, [], {"N": "s"}).check_assumptions()


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "to re-check the recorded answers against TLC")
@pytest.mark.parametrize("case", CASES)
def test_tlc_agrees(case: str, tmp_path: Path) -> None:
    modules, tlc_says = CASES[case]
    main = _write(tmp_path, modules, tlc=True)
    run = subprocess.run(["java", "-cp", os.environ["TLC_JAR"], "tlc2.TLC", "-workers", "1",
                          "-metadir", str(tmp_path / "states"), main.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    printed = re.search(r'^<<"Val", (.*)>>$', run.stdout, re.MULTILINE)
    assert printed is not None, run.stdout[-2000:]
    assert printed.group(1) == tlc_says
