------------------------------ MODULE DiagEvent ------------------------------
\* A trace spec in the etcd raft style: the log position l is a variable of the
\* trace spec, TraceNext's disjunct is picked by the logged event, and
\* TraceMatched == <>(l > Len(Log)) under weak fairness says the whole log was matched.
\* The log (DiagEvent.ndjson) has server b elected before any timeout of b.
EXTENDS Naturals, Sequences, TLC, Json
Server == {"a", "b"}
VARIABLES term, leader, l
vars == <<term, leader>>
Log == ndJsonDeserialize("DiagEvent.ndjson")
logline == Log[l]
IsEvent(e) == /\ l <= Len(Log)
              /\ logline.event = e
Init == term = [s \in Server |-> 0] /\ leader = "none" /\ l = 1
Timeout(s) == term' = [term EXCEPT ![s] = @ + 1] /\ UNCHANGED leader
Elect(s) == /\ leader = "none"
            /\ term[s] > 0
            /\ leader' = s
            /\ UNCHANGED term
TimeoutIfLogged(s) == /\ logline.node = s
                      /\ Timeout(s)
                      /\ term'[s] = logline.term
ElectIfLogged(s) == /\ logline.node = s
                    /\ Elect(s)
TraceNext == /\ \/ /\ IsEvent("timeout")
                   /\ \E s \in Server : TimeoutIfLogged(s)
                \/ /\ IsEvent("elect")
                   /\ \E s \in Server : ElectIfLogged(s)
             /\ l' = l + 1
TraceSpec == Init /\ [][TraceNext]_<<vars, l>> /\ WF_<<vars, l>>(TraceNext)
TraceView == <<vars, l>>
TraceMatched == <>(l > Len(Log))
=============================================================================
