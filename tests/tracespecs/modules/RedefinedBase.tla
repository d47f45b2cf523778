---------------------------- MODULE RedefinedBase ----------------------------
\* The base spec: its Init uses InitX, which the trace spec's .cfg redefines.
EXTENDS Naturals
VARIABLE x
InitX == x = 0
Init == InitX
Next == x < 2 /\ x' = x + 1
=============================================================================
