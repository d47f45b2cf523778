---- MODULE EchoLoose ----
\* Echo (Echo.tla) with its check of the answers undone: a second disjunct admits any
\* answers, so its guards on them do not decide the step.  A near-miss observation (an
\* accepted step with one answer changed so that only such a guard is FALSE) is then
\* accepted by the step check, which tlaconf mbt reports as a failure of the check.
EXTENDS Naturals, Sequences
VARIABLES asked

Ask(p) ==
    /\ p.q \in 1..3
    /\ \/ \A i \in DOMAIN p.answers :
              /\ p.answers[i] >= 1
              /\ p.answers[i] <= p.q
       \/ asked >= 0
    /\ asked' = asked + 1

Params_Ask == [q |-> 0..3, answers |-> {<<>>}]
====
