---- MODULE DeadlockTraceReject ----
(* DeadlockTrace on a log whose third move leaves 0..3: the deadlock comes early.  *)
EXTENDS DeadlockTrace
====
