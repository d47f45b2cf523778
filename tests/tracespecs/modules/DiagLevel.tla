------------------------------ MODULE DiagLevel ------------------------------
\* A trace spec in the EWD998 style: an ACTION_CONSTRAINT ties each step to the log
\* line at TLCGet("level"); the event picks the disjunct of the constraint.  The log
\* (DiagLevel.ndjson) has a send by process 2, which has nothing to send.
EXTENDS Naturals, Sequences, TLC, Json
Proc == {1, 2}
VARIABLES count, sent
vars == <<count, sent>>
Init == count = [p \in Proc |-> 0] /\ sent = 0
Inc(p) == count' = [count EXCEPT ![p] = @ + 1] /\ UNCHANGED sent
Send(p) == /\ count[p] > 0
           /\ count' = [count EXCEPT ![p] = @ - 1]
           /\ sent' = sent + 1
Next == \E p \in Proc : Inc(p) \/ Send(p)
Log == ndJsonDeserialize("DiagLevel.ndjson")
IsInc(e) == /\ e.event = "inc"
            /\ count'[e.proc] = e.count
IsSend(e) == /\ e.event = "send"
             /\ sent' = e.sent
             /\ count'[e.proc] = e.count
TraceConstraint ==
    LET i == TLCGet("level") IN
    /\ i <= Len(Log)
    /\ LET logline == Log[i] IN IsInc(logline) \/ IsSend(logline)
TraceView == <<vars, TLCGet("level")>>
TraceAccepted == TLCGet("stats").diameter - 1 = Len(Log)
=============================================================================
