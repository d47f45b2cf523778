------------------------------- MODULE Zones4 -------------------------------
(***************************************************************************)
(* Zone membership of the reference profile, input revision 2: the zone    *)
(* instances, the partition of in-game identifiers over them and the       *)
(* atomic move relation.                                                   *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
SeatZoneKinds4 == {"Deck", "Hand", "Discard", "Objective"}

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
SharedZones4 == {"Play", "Bank", "SetAside", "Removed"}

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
\* @type: (Str) => Set(Str);
SeatZones4(s) == {s \o "." \o k : k \in SeatZoneKinds4}

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
ZoneInstances4 == (UNION {SeatZones4(s) : s \in Seats4}) \cup SharedZones4

\* @type: (Set(Int), Str -> Set(Int)) => Bool;
\* verbatim: 000_06548165aa2c0842.txt, reference-profile · input revision 2 · CC0 1.0
ZonePartition4(inGameIds, occupants) ==
    /\ DOMAIN occupants = ZoneInstances4
    /\ UNION {occupants[z] : z \in ZoneInstances4} = inGameIds
    /\ \A a,b \in ZoneInstances4 : a # b => occupants[a] \intersect occupants[b] = {}

\* @type: (Set(Int), Str -> Set(Int), Str -> Set(Int), Int, Str, Str, Bool, Bool, Bool) => Bool;
\* verbatim: 000_06548165aa2c0842.txt, reference-profile · input revision 2 · CC0 1.0
AtomicZoneMove4(inGameIds, before, after, id, source, destination,
                movementAuthorized, revealRequired, revealedBeforeMove) ==
    /\ source \in ZoneInstances4 /\ destination \in ZoneInstances4 /\ source # destination
    /\ ZonePartition4(inGameIds,before) /\ id \in before[source]
    /\ movementAuthorized /\ (revealRequired => revealedBeforeMove)
    /\ after = [z \in ZoneInstances4 |-> IF z = source THEN before[z] \ {id}
                       ELSE IF z = destination THEN before[z] \cup {id} ELSE before[z]]
    /\ ZonePartition4(inGameIds,after)

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
\* The seat zones as a table: SeatZone4[s][k] is s \o "." \o k (constant-level, so a
\* model checker without string concatenation receives it as a literal).
SeatZone4 == [s \in Seats4 |-> [k \in SeatZoneKinds4 |-> s \o "." \o k]]

=============================================================================
