---- MODULE Gate ----
\* A counter that holds at most Cap.  Drain's second guard is dead: Params_Drain offers
\* at most Cap, and count is never negative, so p.n > count + Cap is never TRUE.
EXTENDS Naturals
CONSTANTS Cap
VARIABLES count

Add(p) ==
    /\ p.n \in 1..Cap
    /\ count + p.n <= Cap
    /\ count' = count + p.n

Drain(p) ==
    /\ p.n \in 1..Cap
    /\ p.n > count + Cap
    /\ count' = 0

AtMostCap == count <= Cap

Params_Add == [n |-> 0..Cap + 1]
Params_Drain == [n |-> 0..Cap]
====
