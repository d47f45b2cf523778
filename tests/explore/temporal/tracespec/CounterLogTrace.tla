---- MODULE CounterLogTrace ----
(* A trace spec whose end is a temporal property: the whole log is matched      *)
(* (TraceMatched, with weak fairness), and the behaviour refines Counter.       *)
EXTENDS Naturals, Sequences, Json, IOUtils, TLC
VARIABLES x, y, l
TraceLog == ndJsonDeserialize(IOEnv.JSON)
base == INSTANCE Counter
TraceInit == base!Init /\ l = 1
Step(e) == \/ e.op = "x" /\ base!IncX /\ x' = e.value
           \/ e.op = "y" /\ base!IncY /\ y' = e.value
           \/ e.op = "reset" /\ base!Reset
           \/ e.op = "jump" /\ x' = e.value /\ UNCHANGED y
TraceNext == l <= Len(TraceLog) /\ Step(TraceLog[l]) /\ l' = l + 1
tvars == <<x, y, l>>
TraceSpec == TraceInit /\ [][TraceNext]_tvars /\ WF_tvars(TraceNext)
TraceMatched == <>(l > Len(TraceLog))
TraceMatchedQueue == [](l <= Len(TraceLog) => [](TLCGet("queue") = 1 \/ l > Len(TraceLog)))
Refinement == base!Init /\ [][base!Next]_base!vars
====
