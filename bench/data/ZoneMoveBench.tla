---- MODULE ZoneMoveBench ----
\* ZonePartition4 and AtomicZoneMove4: verbatim from the reference profile, input revision 2
\* (seed 000_06548165aa2c0842.txt, CC0 1.0).  ZoneInstances4: authored for the benchmark.
EXTENDS Naturals, FiniteSets, Sequences
CONSTANT Seats4

ZoneInstances4 ==
    {s \o "." \o k : s \in Seats4, k \in {"Deck", "Hand", "Discard", "Objective"}}
        \cup {"Play", "Bank", "SetAside", "Removed"}

ZonePartition4(inGameIds, occupants) ==
    /\ DOMAIN occupants = ZoneInstances4
    /\ UNION {occupants[z] : z \in ZoneInstances4} = inGameIds
    /\ \A a,b \in ZoneInstances4 : a # b => occupants[a] \intersect occupants[b] = {}

AtomicZoneMove4(inGameIds, before, after, id, source, destination,
                movementAuthorized, revealRequired, revealedBeforeMove) ==
    /\ source \in ZoneInstances4 /\ destination \in ZoneInstances4 /\ source # destination
    /\ ZonePartition4(inGameIds,before) /\ id \in before[source]
    /\ movementAuthorized /\ (revealRequired => revealedBeforeMove)
    /\ after = [z \in ZoneInstances4 |-> IF z = source THEN before[z] \ {id}
                       ELSE IF z = destination THEN before[z] \cup {id} ELSE before[z]]
    /\ ZonePartition4(inGameIds,after)
====
