---- MODULE HourClock ----
\* The abstract clock that MinuteClock refines.
EXTENDS Naturals
VARIABLE hr
HCini == hr \in 1..3
HCnxt == hr' = IF hr # 3 THEN hr + 1 ELSE 1
HC == HCini /\ [][HCnxt]_hr
FairHC == HC /\ WF_hr(HCnxt)
====
