---- MODULE PrintArg ----
(* The smallest module of the LockServer divergence: TLC passes an operator its      *)
(* arguments unevaluated (a lazy value, computed the first time the operator uses    *)
(* it), so a Print in an argument the operator never uses never prints, and one in   *)
(* an argument used twice prints once.  lbinria's TVOperators pass Default(varName)  *)
(* (a Print, where the trace spec does not redefine Default) to every update, used   *)
(* only by its "Init" branch (tlaconf printed it at every step).                     *)
EXTENDS Naturals, TLC
Default(n) == Print(<<"default used", n>>, 0)
Pick(op, default, v) == IF op = "init" THEN default ELSE v
Twice(v) == v + v
ASSUME PrintT(Pick("set", Default(1), 5))
ASSUME PrintT(Pick("init", Default(2), 5))
ASSUME PrintT(Twice(Print("once", 1)))
VARIABLE x
Init == x = 0
Next == x < 2 /\ x' = Pick("set", Default(x), x + 1)
====
