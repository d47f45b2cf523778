------------------------------- MODULE Kinds -------------------------------
(* The conformance-module form of tests/explore/models/kinds/Kinds.tla: the *)
(* candidates <<TRUE, 0>> and <<1, 0>> are two states (TRUE is not 1).      *)
EXTENDS Naturals, TLC
VARIABLES x, y
vars == <<x, y>>

Init == (x = TRUE \/ x = 1) /\ y = 0
Next == y < 1 /\ y' = y + 1 /\ x' = x

Inv == ToString(x) # "1" \/ y = 0
=============================================================================
