---- MODULE IOTraceReject ----
(* IOTrace on IOTraceReject.bin, not compressed, which TLC's IOSerialize wrote from   *)
(*   <<[op |-> "inc", by |-> 1, tag |-> "a"], [op |-> "dec", by |-> 5, tag |-> "a"],  *)
(*     [op |-> "inc", by |-> 3, tag |-> "a"]>>                                        *)
(* Its second entry cannot be matched (x is 1): TraceMatched is violated.             *)
EXTENDS IOTrace
====
