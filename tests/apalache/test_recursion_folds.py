"""Functions defined by recursion on ``0..E``, as sent to Apalache: ``ApaFoldSeqLeft``.

Apalache has no recursive operators or functions; the bundle sends
``F[x \\in 0..E] == IF x = 0 THEN B ELSE G`` (``F`` used in ``G`` only as ``F[x - 1]``)
as the fold of ``G`` over ``1..n`` for each ``n`` of ``0..E``.  The text sent, evaluated by
tlaconf (with the definitions of Apalache's ``MkSeq`` and ``ApaFoldSeqLeft``), gives the
same values, keeps
every line where it was, has no recursion left and no LAMBDA the real server refuses;
any other recursion is sent as written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.apalache.fake_apalache import _polymorphic_lambda
from tlaconf.evaluate import load_module
from tlaconf.replay.apalache.bundle import _extend_apalache
from tlaconf.replay.apalache.recursion import recursion
from tlaconf.replay.apalache.sequences import as_sequences
from tlaconf.tla.parser import parse_module

HERE = Path(__file__).parent
TEXT = """---- MODULE Rec ----
EXTENDS Naturals, Sequences
N == 3
Power(n, k) ==
    LET F(i) == IF i > k THEN 1 ELSE n
        P[i \\in 0..N] ==
            IF i = 0 THEN 1 ELSE P[i - 1] * F(i)
    IN P[N]
Sums[i \\in 0..4] == IF i = 0 THEN 10 ELSE Sums[i - 1] + i
Twice[i \\in 0..4] == IF i = 0 THEN 0 ELSE Twice[i - 1] + Twice[i - 1] + 1
Fib[i \\in 0..5] == IF i = 0 THEN 0 ELSE IF i = 1 THEN 1 ELSE Fib[i - 1] + Fib[i - 2]
====
"""


def _both(tmp_path: Path) -> tuple[object, object, str]:
    tree = parse_module(TEXT, "Rec.tla")
    sent, made = as_sequences(TEXT, list(tree.definitions().values()))
    assert made == 3  # Power's P, Sums, Twice (not Fib)
    sent = _extend_apalache(sent, tuple(tree.extends))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "Rec.tla").write_text(TEXT)
    (tmp_path / "b" / "Rec.tla").write_text(sent)
    return (load_module(tmp_path / "a" / "Rec.tla", (), {}),
            load_module(tmp_path / "b" / "Rec.tla", (HERE,), {}), sent)


def test_what_is_sent_is_a_fold_on_the_same_lines(tmp_path: Path) -> None:
    _, _, sent = _both(tmp_path)
    lines = sent.split("\n")
    assert len(lines) == len(TEXT.split("\n"))
    assert lines[5].lstrip().startswith("P == LET tlaconf_fold_P(tlaconf_acc_P, i) ==")
    assert "tlaconf_acc_P * F(i)" in lines[6] and "P[i - 1]" not in sent
    assert "ApaFoldSeqLeft(tlaconf_fold_Sums, 10, SubSeq(MkSeq(4," in lines[8]
    assert lines[10].startswith("Fib[i \\in 0..5] ==")  # F[i - 2]: sent as written
    assert not _polymorphic_lambda(sent)


@pytest.mark.parametrize("expr", [
    "Power(2, 3)", "Power(5, 0)", "Power(3, 2)", "Power(0, 1)", "Sums", "Sums[0]", "Twice[4]",
])
def test_the_same_values(tmp_path: Path, expr: str) -> None:
    written, sent, _ = _both(tmp_path)
    assert sent.evaluate(expr) == written.evaluate(expr)  # type: ignore[attr-defined]


def test_a_different_value_would_be_seen(tmp_path: Path) -> None:
    written, sent, _ = _both(tmp_path)
    assert sent.evaluate("Power(2, 3)") != written.evaluate("Power(2, 2)")  # type: ignore[attr-defined]


def test_only_a_recursion_on_the_value_before_is_a_fold() -> None:
    tree = parse_module(TEXT, "Rec.tla")
    defs = tree.definitions()
    assert recursion(defs["Sums"]) is not None and recursion(defs["Twice"]) is not None
    assert recursion(defs["Fib"]) is None and recursion(defs["N"]) is None
    one = parse_module("---- MODULE O ----\nEXTENDS Naturals\n"
                       "G[i \\in 1..3] == IF i = 1 THEN 0 ELSE G[i - 1]\n====\n", "O.tla")
    assert recursion(one.definitions()["G"]) is None  # from 1: not this shape


def test_the_real_server_refuses_an_identity_lambda() -> None:
    """The fake refuses what the real 0.62.1 server refused: ``LAMBDA k: k`` (Snowcat
    leaves it ``(a) => a``: "Expected a non-polymorphic type, found: ((a685) => a685)")."""
    text = "---- MODULE L ----\nEXTENDS Apalache\nS == MkSeq(3, LAMBDA k: k)\n====\n"
    assert _polymorphic_lambda(text)
    assert not _polymorphic_lambda(text.replace("LAMBDA k: k", "LAMBDA k: k + 0"))
