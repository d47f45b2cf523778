---- MODULE Gauge ----
\* ENABLED written inside instantiated modules whose variables are substituted: TLC
\* decides it on the instance's own variables (lvl' and a', b' are assigned by the
\* action), reading an unprimed lvl as m \div 2.
EXTENDS Naturals
VARIABLE m
Init == m = 0
Up == m < 5 /\ m' = m + 1
Reset == m = 5 /\ m' = 0
Spec == Init /\ [][Up \/ Reset]_m
FairSpec == Spec /\ WF_m(Up) /\ WF_m(Reset)
UpOnly == Init /\ [][Up]_m /\ WF_m(Up)
L == INSTANCE Level WITH lvl <- m \div 2
P == INSTANCE Pair WITH a <- m, b <- m
StepFair == Spec /\ WF_m(L!Step)
Rises == L!Rises
Idle == L!Idle
StepsEnabled == []<>L!CanStep
PairEnabled == []<>P!Both
Grows == <>(m = 5)
====
