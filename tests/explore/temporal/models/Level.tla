---- MODULE Level ----
EXTENDS Naturals
VARIABLE lvl
Step == lvl' = lvl + 1 /\ lvl' <= 2
CanStep == ENABLED Step
Rises == WF_lvl(Step)
Spin == lvl' = lvl
Idle == WF_lvl(Spin)
====
