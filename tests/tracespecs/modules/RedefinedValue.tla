---------------------------- MODULE RedefinedValue ----------------------------
\* The same with a value: the .cfg's Limit = 4 redefines the base's Limit.
EXTENDS Naturals, TLC
VARIABLE x
Limit == 1
Init == x = 0
Next == x < Limit /\ x' = x + 1
Inv == PrintT(x)
=============================================================================
