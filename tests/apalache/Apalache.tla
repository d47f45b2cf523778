---- MODULE Apalache ----
\* The part of Apalache's standard module the fake explorer server needs (for tests only).
EXTENDS Naturals, FiniteSets, Sequences

MkSeq(N, F(_)) == [i \in 1..N |-> F(i)]

RECURSIVE ApaFoldSet(_, _, _)
ApaFoldSet(Op(_, _), v, S) ==
    IF S = {} THEN v ELSE LET w == CHOOSE x \in S : TRUE IN ApaFoldSet(Op, Op(v, w), S \ {w})

RECURSIVE ApaFoldSeqLeft(_, _, _)
ApaFoldSeqLeft(Op(_, _), v, seq) ==
    IF seq = <<>> THEN v ELSE ApaFoldSeqLeft(Op, Op(v, Head(seq)), Tail(seq))

SetAsFun(S) == [x \in {p[1] : p \in S} |-> (CHOOSE p \in S : p[1] = x)[2]]
====
