---- MODULE Partial ----
\* Fairness on an action that leaves a variable unassigned (Next constrains it):
\* ENABLED <<Hit>>_done needs only done'.
VARIABLES light, done
vars == <<light, done>>
Init == light = FALSE /\ done = FALSE
Flip == light' = ~light /\ UNCHANGED done
Hit == light /\ ~done /\ done' = TRUE
Next == Flip \/ (Hit /\ UNCHANGED light)
WeakSpec == Init /\ [][Next]_vars /\ WF_vars(Flip) /\ WF_done(Hit)
StrongSpec == Init /\ [][Next]_vars /\ WF_vars(Flip) /\ SF_done(Hit)
Done == <>done
====
