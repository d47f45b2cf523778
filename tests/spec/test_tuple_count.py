"""``CappedCount`` and ``IsTargetTuple`` (spec/reference-profile/rev2/Targets.tla) count and
test target tuples without building them (a model checker that builds and compares every
tuple to count them, Apalache, took 80 to 90 s for one count), and count without
multiplying.  Each must be what it replaced, on a grid of specs (every count up to
``MaxTargetCount``, 0 included, distinct or not, one zone, two or none, caps 0, 1 and 2)
and boards (empty, overlapping zones, fewer candidates than targets), for
``MaxTargetCount`` 0 to 3: ``Cardinality(TargetTuples(spec, board))`` up to ``cap + 1``, and
``t \\in TargetTuples(spec, board)``; and ``TargetChoicesOK`` is its first form (the
tuples built) on every prefix of the canonical order and its perturbations.  By tlaconf's
evaluator and by TLC itself."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tlaconf.evaluate import load_module

PROFILE = Path(__file__).resolve().parents[2] / "spec" / "reference-profile" / "rev2"
MAX_COUNTS = (0, 1, 2, 3)

GRID = r"""---- MODULE Grid{m} ----
EXTENDS Naturals, FiniteSets, Sequences, TLC
Spec(c, d, zs, cap) == [id |-> "s", zones |-> zs, count |-> c, distinct |-> d, cap |-> cap]
Specs == [s \in {{"x", "y"}} |-> Spec(IF s = "x" THEN {m} ELSE 0, FALSE, {{"a"}}, 2)]
INSTANCE Targets WITH TargetSpecs <- Specs
Boards == {{[a |-> A, b |-> B] : A \in SUBSET (1..3), B \in {{{{}}, {{3, 4}}}}}}
\* caps up to the product's greatest (2): CountBound is 3 for MaxTargetCount up to 2,
\* below the 4 candidates some boards hold, so the counts above it are tested too
Caps == {{0, 1, 2}}
Cases == (0..MaxTargetCount) \X BOOLEAN \X (SUBSET {{"a", "b"}}) \X Caps \X Boards
Min(a, b) == IF a < b THEN a ELSE b
Tuples == {{<<>>}} \cup {{<<x>> : x \in 0..4}} \cup {{<<x, y>> : x, y \in 1..4}}
            \cup {{<<x, y, z>> : x, y, z \in 1..4}}
MemberWrong == {{<<c, t>> \in Cases \X Tuples : LET sp == Spec(c[1], c[2], c[3], c[4]) IN
                  IsTargetTuple(t, sp, c[5]) # (t \in TargetTuples(sp, c[5]))}}
\* the comparison can fail: counting as if no spec wanted distinct targets
FlippedWrong == {{c \in Cases : LET sp == Spec(c[1], c[2], c[3], c[4]) IN
                   CappedCount([sp EXCEPT !.distinct = FALSE], c[5])
                   # Min(Cardinality(TargetTuples(sp, c[5])), sp.cap + 1)}}
Counts == {{CappedCount(Spec(c[1], c[2], c[3], c[4]), c[5]) : c \in Cases}}
CountWrong == {{c \in Cases : LET sp == Spec(c[1], c[2], c[3], c[4]) IN
                  CappedCount(sp, c[5]) # Min(Cardinality(TargetTuples(sp, c[5])), sp.cap + 1)}}
\* the cases with few enough tuples to order them all by comparing (the rest: CountWrong)
Small == {{c \in Cases : Cardinality(TargetTuples(Spec(c[1], c[2], c[3], c[4]), c[5])) <= 16}}
Sorted(sp, bd) == LET all == TargetTuples(sp, bd) IN
    [i \in 1..Cardinality(all) |->
        CHOOSE t \in all : Cardinality({{u \in all : LexBefore(u, t)}}) = i - 1]
OldChoicesOK(view, spec, board) ==
    LET all == TargetTuples(spec, board)
        listed == {{view.choices[i] : i \in 1..Len(view.choices)}}
    IN /\ view.truncated <=> Cardinality(all) > spec.cap
       /\ listed \subseteq all
       /\ Len(view.choices) = IF Cardinality(all) > spec.cap THEN spec.cap ELSE Cardinality(all)
       /\ \A i \in 1..(Len(view.choices) - 1) : LexBefore(view.choices[i], view.choices[i + 1])
       /\ \A t \in all \ listed, u \in listed : LexBefore(u, t)
Views(sp, bd) == LET s == Sorted(sp, bd) IN
    {{[choices |-> v, truncated |-> tr] : tr \in BOOLEAN,
        v \in {{SubSeq(s, 1, n) : n \in 0..Len(s)}}
           \cup {{SubSeq(s, 2, n) : n \in 1..Len(s)}}
           \cup {{SubSeq(s, 1, n) \o <<<<9>>>> : n \in 0..Len(s)}}
           \cup {{<<s[j]>> : j \in 1..Len(s)}}}}
ChoicesWrong == {{c \in Small : LET sp == Spec(c[1], c[2], c[3], c[4]) IN
    \E v \in Views(sp, c[5]) : TargetChoicesOK(v, sp, c[5]) # OldChoicesOK(v, sp, c[5])}}
\* both answers occur (the comparisons compare something)
ChoicesSeen == UNION {{LET sp == Spec(c[1], c[2], c[3], c[4]) IN
                        {{OldChoicesOK(v, sp, c[5]) : v \in Views(sp, c[5])}} : c \in Small}}
====
"""
EXPRS = ("MaxTargetCount", "CountWrong", "MemberWrong", "FlippedWrong = {}",
         "Cardinality(Cases)", "ChoicesWrong")


def _grid(folder: Path, m: int) -> Path:
    path = folder / f"Grid{m}.tla"
    path.write_text(GRID.format(m=m), encoding="utf-8")
    return path


@pytest.mark.parametrize("m", MAX_COUNTS)
def test_counted_and_tested_as_built(tmp_path: Path, m: int) -> None:
    ctx = load_module(_grid(tmp_path, m), (tmp_path, PROFILE))
    assert ctx.evaluate("MaxTargetCount") == m
    for wrong in ("CountWrong", "MemberWrong", "ChoicesWrong"):
        assert ctx.evaluate(wrong) == frozenset(), wrong
    assert ctx.evaluate("Cardinality(Cases)") == (m + 1) * 2 * 4 * 3 * 16
    assert ctx.evaluate("ChoicesSeen") == {True, False}
    counts = ctx.evaluate("Counts")
    assert 1 in counts and (m == 0 or 0 in counts)  # count 0 (one empty tuple); k > n
    assert m == 0 or 3 in counts  # more tuples than the greatest cap
    assert ctx.evaluate("FlippedWrong = {}") is (m < 2)  # distinct matters from 2 targets


def _tlc(folder: Path, m: int) -> list[str]:
    """What TLC prints for ``ASSUME PrintT(e)`` of each of ``EXPRS`` on grid ``m``."""
    grid = _grid(folder, m).read_text(encoding="utf-8")
    lines = "\n".join(f"ASSUME PrintT({e})" for e in EXPRS)
    (folder / f"Grid{m}.tla").write_text(grid.replace("\n====", f"\n{lines}\n===="))
    (folder / f"Grid{m}.cfg").write_text("", encoding="utf-8")
    for p in PROFILE.glob("*.tla"):
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    out = subprocess.run(
        ["java", "-cp", os.environ["TLC_JAR"], "tlc2.TLC", "-noGenerateSpecTE", f"Grid{m}"],
        cwd=folder, capture_output=True, text=True, timeout=600, check=False).stdout
    printed = out.splitlines()
    start = next((i for i, line in enumerate(printed) if line.startswith("Starting...")), None)
    assert start is not None, out[-2000:]
    return printed[start + 1 : start + 1 + len(EXPRS)]


@pytest.mark.skipif(not os.environ.get("TLC_JAR"),
                    reason="set TLC_JAR=/path/to/tla2tools.jar to ask TLC itself "
                           "(see docs/checkers.md, 'TLC')")
@pytest.mark.parametrize("m", MAX_COUNTS)
def test_tlc_counts_the_same(tmp_path: Path, m: int) -> None:
    printed = _tlc(tmp_path, m)
    assert printed == [str(m), "{}", "{}", "TRUE" if m < 2 else "FALSE",
                       str((m + 1) * 2 * 4 * 3 * 16), "{}"], printed
