---- MODULE Counter ----
\* A small conformance module for replay's own tests (not part of the product's spec/).
EXTENDS Naturals, CounterOps
CONSTANT Limit
VARIABLES count, tally

Inc(p) ==
    /\ p.by > 0
    /\ count' = Add(count, p.by)
    /\ tally' = [tally EXCEPT ![p.who] = @ + p.by]
\* @type: ({atLeast: Int}) => Bool;
Reset(p) ==
    /\ count >= p.atLeast
    /\ count' = 0
    /\ tally' = [w \in DOMAIN tally |-> 0]

Bounded == count <= Limit

\* Some step: an increment by someone, or a reset (what unlabeled steps are checked against).
Next ==
    \/ \E w \in DOMAIN tally, by \in 1..Limit : Inc([who |-> w, by |-> by])
    \/ Reset([atLeast |-> 0])
====
