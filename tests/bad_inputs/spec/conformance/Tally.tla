---- MODULE Tally ----
\* The conformance module of the bad-input corpus (tests/bad_inputs/).
EXTENDS Naturals, TallyOps
CONSTANT Limit
VARIABLE count

Inc(p) == /\ p.by > 0
          /\ count' = Plus(count, p.by)

Bounded == count <= Limit

Next == \E b \in 1..3 : Inc([by |-> b])
====
