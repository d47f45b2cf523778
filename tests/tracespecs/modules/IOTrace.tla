---- MODULE IOTrace ----
(* A trace spec whose log TLC's IOSerialize wrote (PGo's trace validation reads its   *)
(* logs so): IOTrace.bin, gzipped, holds                                              *)
(*   <<[op |-> "inc", by |-> 1, tag |-> "a"], [op |-> "inc", by |-> 2, tag |-> "a"],  *)
(*     [op |-> "dec", by |-> 1, tag |-> "b"], [op |-> "inc", by |-> 3, tag |-> "a"]>> *)
(* and IOValues.bin, gzipped, a value of every kind IOSerialize writes, printed here  *)
(* one element a line (TLC wraps a longer line):                                      *)
(*   <<-7, 2147483647, TRUE, "s", {1, 3}, 2..5, <<"s", "s">>, (2 :> "x" @@ 5 :> "y"), *)
(*     [a |-> {[b |-> "s"]}, c |-> <<>>], {}, {<<1, "t">>, <<0, "t">>}>>              *)
(* The whole log matched is <>(l > Len(TraceLog)), with weak fairness.                *)
EXTENDS IOUtils, Naturals, Sequences, TLC
CONSTANTS LogFile, Compressed
TraceLog == IODeserialize(LogFile, Compressed)
ASSUME LET v == IODeserialize("IOValues.bin", TRUE) IN \A i \in 1..Len(v) : PrintT(v[i])
VARIABLES x, l
vars == <<x, l>>
Init == x = 0 /\ l = 1
Step(e) == \/ e.op = "inc" /\ x' = x + e.by
           \/ e.op = "dec" /\ x >= e.by /\ x' = x - e.by
TraceNext == l <= Len(TraceLog) /\ Step(TraceLog[l]) /\ l' = l + 1
Spec == Init /\ [][TraceNext]_vars /\ WF_vars(TraceNext)
TraceMatched == <>(l > Len(TraceLog))
====
