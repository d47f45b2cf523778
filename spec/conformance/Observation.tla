---------------------------- MODULE Observation ----------------------------
(***************************************************************************)
(* Conformance module: what a seat sees is what DefaultZoneLook4 (or an    *)
(* explicit revelation) allows, nothing more and nothing less.             *)
(*   inGameIds, occupants  as in ZoneMembership                            *)
(*   faceUp      identifiers lying face up                                 *)
(*   controller  identifier -> seat controlling it                         *)
(*   revealed    seat -> identifiers explicitly revealed to it             *)
(* Observe(p): p.seat, p.view (zone -> [count |-> n, ids |-> visible set, *)
(*             and optionally listed |-> the ids as the seat is shown them, *)
(*             a sequence: it must be the canonical (ascending) order, so  *)
(*             that no hidden order or insertion history leaks), and no    *)
(*             other field]                                                *)
(* Move(p):    as ZoneMembership's Move; a move ends the mover's reveals   *)
(* Flip(p):    p.id, p.face ("Up" | "Down")                                *)
(* Reveal(p):  p.id, p.seat                                                *)
(* Next: some step (a step without an action label is checked against it) *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

VARIABLES
    \* @type: Set(Int);
    inGameIds,
    \* @type: Str -> Set(Int);
    occupants,
    \* @type: Set(Int);
    faceUp,
    \* @type: Int -> Str;
    controller,
    \* @type: Str -> Set(Int);
    revealed

INSTANCE ZoneLook4

vars == <<inGameIds, occupants, faceUp, controller, revealed>>

\* @type: (Int) => Str;
Face(id) == IF id \in faceUp THEN "Up" ELSE "Down"

\* A seat zone's looks are controlled by its seat, shared zones' by the object's controller.
\* @type: (Str, Int) => Str;
LookController(z, id) ==
    IF z \in DOMAIN SeatOfZone4 THEN ZoneSeat4(z) ELSE controller[id]

\* @type: (Str, Str) => Set(Int);
Visible(z, s) ==
    {id \in occupants[z] : DefaultZoneLook4(z, Face(id), s, LookController(z, id))
                           \/ id \in revealed[s]}

\* authored: 002_7346ff58e0b15244.txt, observation and information-leak rules
\* The ascending sequence of a finite set of identifiers (the canonical order).
\* @type: (Set(Int)) => Seq(Int);
Canonical(S) ==
    [i \in 1..Cardinality(S) |-> CHOOSE x \in S : Cardinality({y \in S : y < x}) = i - 1]

\* A zone view has these fields and no other (another one, the zone's contents say, would
\* show the seat what the looks hide); listed is optional.
ZoneViewFields == {{"count", "ids"}, {"count", "ids", "listed"}}

\* @type: ({seat: Str, view: Str -> {count: Int, ids: Set(Int), listed: Seq(Int), a}}) => Bool;
Observe(p) ==
    /\ p.seat \in Seats4
    /\ DOMAIN p.view = ZoneInstances4
    /\ \A z \in ZoneInstances4 : DOMAIN p.view[z] \in ZoneViewFields
    /\ \A z \in ZoneInstances4 : p.view[z].count = Cardinality(occupants[z])
    /\ \A z \in ZoneInstances4 : p.view[z].ids \subseteq Visible(z, p.seat)
    /\ \A z \in ZoneInstances4 : Visible(z, p.seat) \subseteq p.view[z].ids
    /\ \A z \in ZoneInstances4 :
           "listed" \in DOMAIN p.view[z] => p.view[z].listed = Canonical(p.view[z].ids)
    /\ UNCHANGED vars

\* @type: ({destination: Str, id: Int, movementAuthorized: Bool, revealRequired: Bool, revealedBeforeMove: Bool, source: Str}) => Bool;
Move(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source,
                       p.destination, p.movementAuthorized, p.revealRequired,
                       p.revealedBeforeMove)
    /\ revealed' = [s \in Seats4 |-> revealed[s] \ {p.id}]
    /\ UNCHANGED <<inGameIds, faceUp, controller>>

\* @type: ({face: Str, id: Int}) => Bool;
Flip(p) ==
    /\ p.id \in inGameIds
    /\ p.face \in {"Up", "Down"}
    /\ faceUp' = IF p.face = "Up" THEN faceUp \cup {p.id} ELSE faceUp \ {p.id}
    /\ UNCHANGED <<inGameIds, occupants, controller, revealed>>

\* @type: ({id: Int, seat: Str}) => Bool;
Reveal(p) ==
    /\ p.seat \in Seats4
    /\ p.id \in inGameIds
    /\ revealed' = [revealed EXCEPT ![p.seat] = @ \cup {p.id}]
    /\ UNCHANGED <<inGameIds, occupants, faceUp, controller>>

\* Some step of the module.  Params range over finite sets; an Observe names
\* the one view it can report (an observation changes nothing).
Next ==
    \/ \E s \in Seats4 :
           Observe([seat |-> s, view |-> [z \in ZoneInstances4 |->
                       [count |-> Cardinality(occupants[z]), ids |-> Visible(z, s)]]])
    \/ \E id \in inGameIds, source \in ZoneInstances4 :
           /\ id \in occupants[source]
           /\ \E destination \in ZoneInstances4, authorized, required, shown \in BOOLEAN :
                  Move([id |-> id, source |-> source, destination |-> destination,
                        movementAuthorized |-> authorized, revealRequired |-> required,
                        revealedBeforeMove |-> shown])
    \/ \E id \in inGameIds, face \in {"Up", "Down"} : Flip([id |-> id, face |-> face])
    \/ \E id \in inGameIds, s \in Seats4 : Reveal([id |-> id, seat |-> s])

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Params_Move ==
    [id |-> inGameIds \cup {99}, source |-> ZoneInstances4 \cup {"Nowhere"},
     destination |-> ZoneInstances4, movementAuthorized |-> BOOLEAN,
     revealRequired |-> BOOLEAN, revealedBeforeMove |-> BOOLEAN]

Params_Flip == [id |-> inGameIds \cup {99}, face |-> {"Up", "Down", "Sideways"}]

Params_Reveal == [id |-> inGameIds \cup {99}, seat |-> Seats4 \cup {"SideC"}]

Partition == ZonePartition4(inGameIds, occupants)

LookStateOK ==
    /\ faceUp \subseteq inGameIds
    /\ DOMAIN controller = inGameIds
    /\ \A id \in inGameIds : controller[id] \in Seats4
    /\ DOMAIN revealed = Seats4

=============================================================================
