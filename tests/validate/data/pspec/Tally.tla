-------------------------------- MODULE Tally --------------------------------
(* A conformance module for partial traces: Add(p) is logged, Tick is not.   *)
EXTENDS Naturals
VARIABLES count, ticks
vars == <<count, ticks>>
Init == count = [a |-> 0, b |-> 0] /\ ticks = 0
Add(p) == /\ p.n \in 1..2
          /\ count' = [count EXCEPT ![p.who] = @ + p.n]
          /\ UNCHANGED ticks
Tick == ticks' = ticks + 1 /\ UNCHANGED count
Next == (\E w \in {"a", "b"}, n \in 1..2 : Add([who |-> w, n |-> n])) \/ Tick
SilentActions == {"Tick"}
SilentBound == 2
Small == count.a < 10
=============================================================================
