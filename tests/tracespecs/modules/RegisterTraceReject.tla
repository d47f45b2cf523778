---- MODULE RegisterTraceReject ----
(* RegisterTrace on a log whose fourth line reads a history it cannot have seen.   *)
EXTENDS RegisterTrace
====
