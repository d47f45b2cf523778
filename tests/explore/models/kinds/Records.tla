------------------------------ MODULE Records ------------------------------
(* A record state that crosses processes: the worker that expands it must  *)
(* find it in a set of records it builds itself (equal records, one hash). *)
EXTENDS Naturals
VARIABLE r

Init == r \in {[a |-> "p", b |-> 0], [a |-> "q", b |-> 0]}
Next == /\ r \in {[a |-> s, b |-> i] : s \in {"p", "q"}, i \in 0..5}
        /\ r.b < 5
        /\ r' = [r EXCEPT !.b = @ + 1]
=============================================================================
