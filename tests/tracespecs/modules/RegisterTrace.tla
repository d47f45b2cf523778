---- MODULE RegisterTrace ----
(* CCF's consistency trace-spec style: TLC register 0 holds the furthest log line   *)
(* reached, written in the next-state relation and read by the POSTCONDITION (which *)
(* sees no variable); TraceMatched in the queue form with TLCGet("queue") \in       *)
(* Nat \ {0}; Termination stops the search once the last line is the current one    *)
(* (TLCSet("exit"), as CCF's: the last line itself is never matched); a             *)
(* bookkeeping step (Backfill) that consumes no line may precede a logged write.     *)
EXTENDS Naturals, Sequences, Json, TLC
ASSUME TLCGet("config").mode = "bfs" /\ TLCGet("config").worker = 1 /\ TLCSet(0, 0)
CONSTANT LogFile
JsonLog == ndJsonDeserialize(LogFile)
VARIABLES l, ledger, history
vars == <<l, ledger, history>>
logline == JsonLog[l]
TraceInit == l = 1 /\ ledger = <<>> /\ history = <<>>
IsEvent(e) ==
    /\ l \in 1..Len(JsonLog)
    /\ logline.action = e
    /\ l' = l + 1
    /\ TLCSet(0, IF l' > TLCGet(0) THEN l' ELSE TLCGet(0))
Write ==
    /\ IsEvent("Write")
    /\ Len(ledger) = logline.seqno - 1
    /\ ledger' = Append(ledger, logline.tx)
    /\ history' = Append(history, logline.tx)
Backfill ==
    /\ l' = l
    /\ l \in 1..Len(JsonLog)
    /\ logline.action = "Write"
    /\ Len(ledger) < logline.seqno - 1
    /\ ledger' = Append(ledger, "other")
    /\ UNCHANGED history
Read ==
    /\ IsEvent("Read")
    /\ logline.seen = Len(history)
    /\ UNCHANGED <<ledger, history>>
TraceNext == Write \/ Backfill \/ Read
TraceSpec == TraceInit /\ [][TraceNext]_vars
Termination == l = Len(JsonLog) => TLCSet("exit", TRUE)
TraceMatched ==
    [](l <= Len(JsonLog) => [](TLCGet("queue") \in Nat \ {0} \/ l > Len(JsonLog)))
TraceMatchedNonTrivially == TLCGet(0) >= Len(JsonLog)
====
