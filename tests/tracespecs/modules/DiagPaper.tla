------------------------------ MODULE DiagPaper ------------------------------
\* A trace spec in the style of the 2024 paper ("Validating Traces of Distributed
\* Programs Against TLA+ Specifications", lbinria/TwoPhase): the log position l is a
\* variable, IsEvent(e) selects the base action, a POSTCONDITION compares the diameter
\* with the log's length and the VIEW holds l.  The log (DiagPaper.ndjson) commits
\* while r2 is still working.
EXTENDS DiagPaperBase, Sequences, TLC, Json
TraceRM == {"r1", "r2"}
VARIABLE l
Trace == ndJsonDeserialize("DiagPaper.ndjson")
logline == Trace[l]
IsEvent(e) == /\ l <= Len(Trace)
              /\ logline.event = e
              /\ l' = l + 1
IsPrepare == /\ IsEvent("Prepare")
             /\ Prepare(logline.rm)
IsCommit == /\ IsEvent("Commit")
            /\ Commit
TraceInit == Init /\ l = 1
TraceNext == IsPrepare \/ IsCommit
TraceSpec == TraceInit /\ [][TraceNext]_<<vars, l>>
TraceView == <<vars, l>>
TraceAccepted == TLCGet("stats").diameter - 1 = Len(Trace)
=============================================================================
