---- MODULE MinuteClock ----
\* Refinement through INSTANCE ... WITH: the hour is the minute divided by 2.
EXTENDS Naturals
VARIABLE m
Init == m = 2
Tick == m' = IF m # 7 THEN m + 1 ELSE 2
Skip == m' = IF m < 5 THEN m + 3 ELSE 2
Spec == Init /\ [][Tick]_m
SkipSpec == Init /\ [][Tick \/ Skip]_m
FairSpec == Spec /\ WF_m(Tick)
H == INSTANCE HourClock WITH hr <- m \div 2
Refines == H!HC
RefinesFair == H!FairHC
====
