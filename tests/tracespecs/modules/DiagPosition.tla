----------------------------- MODULE DiagPosition -----------------------------
\* The etcd raft style where the search level is not the log entry: an "add" event
\* takes two steps (the first keeps the log position l, as etcd raft's receipt of a
\* message may), and the spec's log is the file's lines tagged "trace".  The log
\* (DiagPosition.ndjson) checks x = 4 where x is 3: the search dead-ends at log
\* entry 3, the file's line 5, at search level 5.
EXTENDS Naturals, Sequences, TLC, Json
VARIABLES x, half, l
vars == <<x, half>>
Log == SelectSeq(ndJsonDeserialize("DiagPosition.ndjson"), LAMBDA r: r.tag = "trace")
logline == Log[l]
Init == x = 0 /\ half = FALSE /\ l = 1
AddHalf == /\ l <= Len(Log) /\ logline.event = "add" /\ ~half
           /\ half' = TRUE /\ UNCHANGED <<x, l>>
AddRest == /\ l <= Len(Log) /\ logline.event = "add" /\ half
           /\ x' = x + logline.n /\ half' = FALSE /\ l' = l + 1
Check == /\ l <= Len(Log) /\ logline.event = "check"
         /\ x = logline.x
         /\ UNCHANGED <<x, half>> /\ l' = l + 1
TraceNext == AddHalf \/ AddRest \/ Check
TraceSpec == Init /\ [][TraceNext]_<<vars, l>> /\ WF_<<vars, l>>(TraceNext)
TraceView == <<vars, l>>
TraceMatched == <>(l > Len(Log))
=============================================================================
