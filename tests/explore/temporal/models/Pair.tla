---- MODULE Pair ----
VARIABLES a, b
Set == a' = 1 /\ b' = 2
Both == ENABLED Set
====
