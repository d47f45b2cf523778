---- MODULE Counters ----
\* bench: three counters modulo N, N^3 states (explore -w)
EXTENDS Naturals
CONSTANT N
VARIABLES a, b, c
Init == a = 0 /\ b = 0 /\ c = 0
Next == \/ a' = (a + 1) % N /\ UNCHANGED <<b, c>>
        \/ b' = (b + 1) % N /\ UNCHANGED <<a, c>>
        \/ c' = (c + 1) % N /\ UNCHANGED <<a, b>>
Inv == a + b + c >= 0
====
