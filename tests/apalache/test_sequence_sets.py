"""Sets of sequences and prefix ranges as sent to Apalache: the same values as the TLA+.

Apalache's model checker cannot expand a set of functions ("Trying to expand a set of
functions. This will blow up the solver.") nor take a range whose bounds are not
constants ("Expected a constant integer range in [ .. ], found 1..(i - 1)"); the bundle
sends ``[1..n -> S]`` as ``n`` times ``S`` folded with ``Append`` and ``1..i - 1``
(``i`` an index of ``s``) as the indexes of ``s`` below ``i``.  Both texts, evaluated
by tlaconf (with the definitions of Apalache's ``MkSeq`` and ``ApaFoldSeqLeft``), give
the same values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.apalache.fake_apalache import _polymorphic_lambda
from tlaconf.evaluate import load_module
from tlaconf.replay.apalache.bundle import _extend_apalache
from tlaconf.replay.apalache.sequences import as_sequences
from tlaconf.tla.parser import parse_module

HERE = Path(__file__).parent
TEXT = """---- MODULE Sets ----
EXTENDS Naturals, Sequences, FiniteSets
Tuples(S, n) == [1..n -> S]
Upto(s) == [1..Len(s) -> {0, 1}]
Lex(a, b) == \\E i \\in 1..Len(a) : a[i] < b[i] /\\ \\A j \\in 1..(i - 1) : a[j] = b[j]
Heads(s) == {SubSeq(s, 1, Len(t)) : t \\in {[k \\in 1..i |-> k] : i \\in 1..Len(s)}}
Prefix(s) == {<<i, 1..i>> : i \\in 1..Len(s)}
====
"""


def _both(tmp_path: Path) -> tuple[object, object, str]:
    tree = parse_module(TEXT, "Sets.tla")
    sent, _ = as_sequences(TEXT, list(tree.definitions().values()))
    sent = _extend_apalache(sent, tuple(tree.extends))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "Sets.tla").write_text(TEXT)
    (tmp_path / "b" / "Sets.tla").write_text(sent)
    return (load_module(tmp_path / "a" / "Sets.tla", (), {}),
            load_module(tmp_path / "b" / "Sets.tla", (HERE,), {}), sent)


def test_what_is_sent_has_no_set_of_functions_nor_variable_range(tmp_path: Path) -> None:
    _, _, sent = _both(tmp_path)
    lines = sent.split("\n")
    assert len(lines) == len(TEXT.split("\n"))  # Apalache's line numbers are the file's
    assert "->" not in lines[2] and "ApaFoldSeqLeft(tlaconf_ext1, {<<>>}, MkSeq(n," in lines[2]
    assert "SubSeq(MkSeq(__ApalacheSeqCapacity(s)" in lines[3]
    assert "\\A j \\in {tlaconf_j \\in DOMAIN (a) : tlaconf_j < i} : a[j] = b[j]" in lines[4]
    assert "{tlaconf_j \\in DOMAIN (s) : tlaconf_j <= i}" in lines[6]
    assert "1..i" not in lines[6]


@pytest.mark.parametrize("expr", [
    "Tuples({1, 2}, 2)", "Tuples({1, 2, 3}, 1)", "Tuples({1}, 3)", "Tuples({}, 2)",
    "Tuples({1, 2}, 0)", "Upto(<<5, 6>>)", "Upto(<<>>)", "Prefix(<<4, 5, 6>>)",
    "Heads(<<4, 5, 6>>)",
    "{<<a, b>> \\in Tuples({1, 2, 3}, 2) \\X Tuples({1, 2, 3}, 2) : Lex(a, b)}",
    "Cardinality(Tuples({1, 2, 3}, 3))",
])
def test_the_same_values(tmp_path: Path, expr: str) -> None:
    written, sent, _ = _both(tmp_path)
    assert sent.evaluate(expr) == written.evaluate(expr)  # type: ignore[attr-defined]


def test_a_different_set_would_be_seen(tmp_path: Path) -> None:
    """The comparison can fail: a set of a different length is another value."""
    written, sent, _ = _both(tmp_path)
    assert sent.evaluate("Tuples({1, 2}, 1)") != written.evaluate(  # type: ignore[attr-defined]
        "Tuples({1, 2}, 2)")


def test_no_lambda_parameter_is_left_unused(tmp_path: Path) -> None:
    """The real model checker refuses a LAMBDA that does not use its parameter (Snowcat
    leaves its type a variable: "Expected a non-polymorphic type, found: ((a1158) =>
    Set(Int))"), and so does the fake; the fold's LAMBDA uses it."""
    _, _, sent = _both(tmp_path)
    assert not _polymorphic_lambda(sent)
    assert _polymorphic_lambda(sent.replace("IF tlaconf_k > 0 THEN S ELSE {}", "S"))
