---- MODULE Echo ----
\* A service that answers a question with a list of numbers it computes: the answers are
\* reported by the implementation, so the guards on them are reached only through what it
\* reports (an accepted step), never by a request's ENABLED walk.
EXTENDS Naturals, Sequences
VARIABLES asked

Ask(p) ==
    /\ p.q \in 1..3
    /\ \A i \in DOMAIN p.answers :
           /\ p.answers[i] >= 1
           /\ p.answers[i] <= p.q
    /\ asked' = asked + 1

Params_Ask == [q |-> 0..3, answers |-> {<<>>}]
====
