---- MODULE Excluded ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1
Inv == x < 3
Safe == [](x < 3)
Step == [][x' = x + 1 /\ x' < 3]_x
Inv2 == x > 0
C == x < 3
C0 == x < 0
AC == x' < 3
Spec == Init /\ [][Next]_x
====
