------------------------------ MODULE DiagNoView -----------------------------
\* A trace spec with the log position TLCGet("level") and no VIEW: the third log
\* line takes the switch back to a state already visited at level 1, which the search
\* drops as seen, so it dead-ends although the step satisfies the constraint.
EXTENDS Naturals, Sequences, TLC
Log == <<[on |-> TRUE], [on |-> FALSE], [on |-> TRUE]>>
VARIABLE on
Init == on = FALSE
Next == on' = ~on
TraceConstraint == LET i == TLCGet("level") IN i <= Len(Log) /\ on' = Log[i].on
TraceAccepted == TLCGet("stats").diameter - 1 = Len(Log)
=============================================================================
