"""The community-module operators TLC overrides in Java, against TLC's answers.

``tlc_overrides.json`` holds cases Hypothesis drew for every overridden operator of
SequencesExt, FiniteSetsExt, Functions, BagsExt, Combinatorics and Bitwise, and for
IOUtils' ``atoi`` and Json's ``JsonDeserialize`` and ``ndJsonDeserialize`` (with the JSON
text each reads: numbers past 32 bits, fractions, exponents, nested values), with the value
TLC printed (``ToString``) or ``null`` where TLC failed (recorded once, in one TLC run, by
``python -m tests.library.generate_overrides``).  The modules here are the stubs of
``data/lib``, whose overridden definitions cannot be evaluated: every value comes from
tlaconf's own implementation of the override, and must be TLC's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tlaconf.evaluate import Context, EvalError, load_text

HERE = Path(__file__).parent
DATA = json.loads((HERE / "tlc_overrides.json").read_text())
CASES: list[dict[str, Any]] = DATA["cases"]


@pytest.fixture(scope="module")
def ctx() -> Context:
    text = (f"---- MODULE Probe ----\nEXTENDS {', '.join(DATA['modules'])}, TLC, Integers, "
            "Sequences, FiniteSets\n====\n")
    return load_text(text, [HERE / "data" / "lib"])


def test_every_overridden_operator_is_covered() -> None:
    from tests.library.generate_overrides import FILE_OPERATORS, OPERATORS

    assert {c["operator"] for c in CASES} == set(OPERATORS) | set(FILE_OPERATORS)
    refused = {c["operator"] for c in CASES if c["tlc"] is None}
    assert {"SelectInSubSeq", "SelectLastInSubSeq", "AntiFunction", "AllSubSeqs", "choose",
            "FoldBag", "LongestCommonPrefix", "Quantify"} <= refused


@pytest.mark.parametrize("case", CASES, ids=[f"{c['operator']}-{i}" for i, c in enumerate(CASES)])
def test_same_answer_as_tlc(ctx: Context, case: dict[str, Any], tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    expr, expected = case["expr"], case["tlc"]
    if "file" in case:  # a JSON file the expression reads, as TLC read it: from the cwd
        (tmp_path / case["file"]).write_text(case["text"])
        monkeypatch.chdir(tmp_path)
    try:
        got = ctx.evaluate(f"ToString({expr})")
    except EvalError as err:
        assert expected is None, f"{expr}: TLC gives {expected}, tlaconf fails: {err}"
        return
    assert got == expected, f"{expr}: TLC gives {expected}"
