------------------------------- MODULE Kinds -------------------------------
(* TRUE and 1 are different values: a search that merges the states        *)
(* <<TRUE, 0>> and <<1, 0>> never reaches <<1, 1>>, where Inv is FALSE.      *)
EXTENDS Naturals, TLC
VARIABLES x, y
vars == <<x, y>>

Init == (x = TRUE \/ x = 1) /\ y = 0
Next == y < 1 /\ y' = y + 1 /\ x' = x
Spec == Init /\ [][Next]_vars

Inv == ToString(x) # "1" \/ y = 0
=============================================================================
