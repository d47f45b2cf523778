--------------------------- MODULE ZoneMembership ---------------------------
(***************************************************************************)
(* Conformance module: zone membership of the reference profile.           *)
(*   inGameIds  the identifiers in the game                                *)
(*   occupants  zone instance -> set of identifiers (every instance)       *)
(* Action Move(p): p.id, p.source, p.destination, p.movementAuthorized,    *)
(* p.revealRequired, p.revealedBeforeMove.                                 *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANT Seats4

VARIABLES inGameIds, occupants

INSTANCE Zones4

Move(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source,
                       p.destination, p.movementAuthorized, p.revealRequired,
                       p.revealedBeforeMove)
    /\ UNCHANGED inGameIds

Partition == ZonePartition4(inGameIds, occupants)

=============================================================================
