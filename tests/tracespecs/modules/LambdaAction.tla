---- MODULE LambdaAction ----
(* The smallest module of the PGo (TraceLink) divergence: an action passed down as a *)
(* LAMBDA (LAMBDA c : x' = c), through operators and other LAMBDAs that apply it, is  *)
(* an action where it is applied: its x' = c assigns, as in TLC (tlaconf read x' as   *)
(* a value, "read before the action assigns it").  TLCCache(e, closure) is e.        *)
EXTENDS Naturals, TLCExt, TLC
ASSUME PrintT(TLCCache(1 + 1, {"k"}))
VARIABLES x, y
Check(v, commit(_)) == LET n == v + 1 IN /\ n < 3 /\ commit(n)
Wrap(s, rest(_)) == /\ s >= 0 /\ rest(s)
Inner(v, commit(_, _)) == LET s == v * 2 IN Wrap(s, LAMBDA t : commit(t, v))
Step(v, commit(_, _)) == \/ Inner(v, commit)
Init == x = 0 /\ y = 0
Next == /\ Check(x, LAMBDA c : x' = c)
        /\ Step(x, LAMBDA a, b : y' = a + b)
====
