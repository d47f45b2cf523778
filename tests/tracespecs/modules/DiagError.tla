------------------------------ MODULE DiagError ------------------------------
\* A trace spec whose second log line has no field "node": evaluating the branch it
\* selects fails there, under the binding s = "a".
EXTENDS Naturals, Sequences, TLC
Server == {"a", "b"}
Log == <<[event |-> "up", node |-> "a"], [event |-> "up"]>>
VARIABLES up, l
logline == Log[l]
Init == up = {} /\ l = 1
UpIfLogged(s) == /\ logline.node = s
                 /\ up' = up \cup {s}
TraceNext == /\ l <= Len(Log)
             /\ \/ /\ logline.event = "down"
                   /\ \E s \in up : up' = up \ {s}
                \/ /\ logline.event = "up"
                   /\ \E s \in Server : UpIfLogged(s)
             /\ l' = l + 1
TraceView == <<up, l>>
TraceAccepted == TLCGet("stats").diameter - 1 = Len(Log)
=============================================================================
