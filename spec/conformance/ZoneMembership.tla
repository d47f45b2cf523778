--------------------------- MODULE ZoneMembership ---------------------------
(***************************************************************************)
(* Conformance module: zone membership of the reference profile.           *)
(*   inGameIds  the identifiers in the game                                *)
(*   occupants  zone instance -> set of identifiers (every instance)       *)
(* Action Move(p): p.id, p.source, p.destination, p.movementAuthorized,    *)
(* p.revealRequired, p.revealedBeforeMove.                                 *)
(* Next: some Move (a step without an action label is checked against it). *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

VARIABLES
    \* @type: Set(Int);
    inGameIds,
    \* @type: Str -> Set(Int);
    occupants

INSTANCE Zones4

\* @type: ({destination: Str, id: Int, movementAuthorized: Bool, revealRequired: Bool, revealedBeforeMove: Bool, source: Str}) => Bool;
Move(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source,
                       p.destination, p.movementAuthorized, p.revealRequired,
                       p.revealedBeforeMove)
    /\ UNCHANGED inGameIds

\* Some move of an object from the zone that holds it, with some flags.
Next ==
    \E id \in inGameIds, source \in ZoneInstances4 :
        /\ id \in occupants[source]
        /\ \E destination \in ZoneInstances4, authorized, required, revealed \in BOOLEAN :
               Move([id |-> id, source |-> source, destination |-> destination,
                     movementAuthorized |-> authorized, revealRequired |-> required,
                     revealedBeforeMove |-> revealed])

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Params_Move ==
    [id |-> inGameIds \cup {99}, source |-> ZoneInstances4 \cup {"Nowhere"},
     destination |-> ZoneInstances4, movementAuthorized |-> BOOLEAN,
     revealRequired |-> BOOLEAN, revealedBeforeMove |-> BOOLEAN]

Partition == ZonePartition4(inGameIds, occupants)

=============================================================================
