---- MODULE Toggle ----
\* Hit is enabled only every other state: weak fairness does not force it, strong does.
VARIABLES light, done
vars == <<light, done>>
Init == light = FALSE /\ done = FALSE
Flip == light' = ~light /\ UNCHANGED done
Hit == light /\ ~done /\ done' = TRUE /\ UNCHANGED light
Next == Flip \/ Hit
WeakSpec == Init /\ [][Next]_vars /\ WF_vars(Flip) /\ WF_vars(Hit)
StrongSpec == Init /\ [][Next]_vars /\ WF_vars(Flip) /\ SF_vars(Hit)
FlipOnly == Init /\ [][Next]_vars /\ SF_vars(Hit)
Done == <>done
DoneForever == <>[]done
====
