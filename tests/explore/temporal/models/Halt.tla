---- MODULE Halt ----
\* A run that stops: without CHECK_DEADLOCK its last state stutters forever.
EXTENDS Naturals
VARIABLE n
Init == n \in {0, 1}
Next == n < 3 /\ n' = n + 2
Spec == Init /\ [][Next]_n /\ WF_n(Next)
Even == <>(n = 2)
Grows == <>(n >= 2)
====
