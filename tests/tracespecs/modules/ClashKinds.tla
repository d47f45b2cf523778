---- MODULE ClashKinds ----
(* A name one EXTENDed module declares (CONSTANT F) and another defines: SANY's  *)
(* error, not a warning (tlaconf: exit 2 too).                                     *)
EXTENDS ClashConstant, ClashA
VARIABLE x
Init == x = 0
Next == UNCHANGED x
====
