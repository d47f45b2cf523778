------------------------------- MODULE Counter -------------------------------
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
IncX == x' = x + 1 /\ UNCHANGED y
IncY == y' = y + 1 /\ UNCHANGED x
Reset == x > 1 /\ x' = 0 /\ UNCHANGED y
Next == IncX \/ IncY \/ Reset
Spec == Init /\ [][Next]_vars
=============================================================================
