---- MODULE ZoneMembershipBench ----
EXTENDS ZoneMoveBench
VARIABLES inGameIds, occupants

Move(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source, p.destination,
                       p.movementAuthorized, p.revealRequired, p.revealedBeforeMove)
    /\ UNCHANGED inGameIds

Partition == ZonePartition4(inGameIds, occupants)
====
