----------------------------- MODULE DeckOrder -----------------------------
(***************************************************************************)
(* Conformance module: deck order (reorder, seeded shuffle, draw).         *)
(*   inGameIds, occupants  as in ZoneMembership                            *)
(*   piles      ordered pile -> sequence of identifiers, top first         *)
(* Reorder(p): p.zone, p.order (top first), p.reorderContext,              *)
(*             p.searchCompletion, p.shuffleOccurred                       *)
(* Shuffle(p): p.zone, p.seed, p.result (the order the seed produced)      *)
(* Draw(p):    p.seat, p.movementAuthorized (top of the deck to the top    *)
(*             of the hand, an atomic zone move)                           *)
(* Locate(p):  p.id, p.location (the implementation's answer, a            *)
(*             [kind, host, zone, position] record as ObjectLocation4)     *)
(* Next: some step (a step without an action label is checked against it) *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

VARIABLES
    \* @type: Set(Int);
    inGameIds,
    \* @type: Str -> Set(Int);
    occupants,
    \* @type: Str -> Seq(Int);
    piles

INSTANCE Piles4

INSTANCE Locations4

\* No object is hosted (the empty function from hosted to host ids).
\* @type: Int -> Int;
NoHosts == [id \in {} |-> 0]

\* @type: ({order: Seq(Int), reorderContext: Bool, searchCompletion: Bool, shuffleOccurred: Bool, zone: Str}) => Bool;
Reorder(p) ==
    /\ p.zone \in DeckZones4
    /\ DeckReorder4(piles[p.zone], p.order, p.reorderContext, p.searchCompletion,
                    p.shuffleOccurred)
    /\ piles' = [piles EXCEPT ![p.zone] = p.order]
    /\ UNCHANGED <<inGameIds, occupants>>

\* @type: ({result: Seq(Int), seed: Int, zone: Str}) => Bool;
Shuffle(p) ==
    /\ p.zone \in DeckZones4
    /\ p.seed \in Nat
    /\ DeckReorder4(piles[p.zone], p.result, TRUE, FALSE, TRUE)
    /\ piles' = [piles EXCEPT ![p.zone] = p.result]
    /\ UNCHANGED <<inGameIds, occupants>>

\* @type: ({movementAuthorized: Bool, seat: Str}) => Bool;
Draw(p) ==
    /\ p.seat \in Seats4
    /\ LET dk == SeatZone4[p.seat]["Deck"]
           hd == SeatZone4[p.seat]["Hand"]
       IN  /\ piles[dk] # <<>>
           /\ AtomicZoneMove4(inGameIds, occupants, occupants', Head(piles[dk]), dk, hd,
                              p.movementAuthorized, FALSE, FALSE)
           /\ piles' = [piles EXCEPT ![dk] = Tail(@), ![hd] = <<Head(piles[dk])>> \o @]
    /\ UNCHANGED inGameIds

\* @type: ({id: Int, location: {host: Int, kind: Str, position: Int, zone: Str}}) => Bool;
Locate(p) ==
    /\ p.id \in inGameIds
    /\ p.location = ObjectLocation4(p.id, NoHosts, [z \in DeckZones4 |-> piles[z]], occupants)
    /\ UNCHANGED <<inGameIds, occupants, piles>>

\* Some step of the module.  A reordering's or shuffle's new order is the one
\* the next state shows (s' is known when a step is checked), a shuffle's seed
\* does not constrain the order, and a Locate names the one location it can
\* report (a lookup changes nothing).
Next ==
    \/ \E z \in DeckZones4, context, search, shuffled \in BOOLEAN :
           Reorder([zone |-> z, order |-> piles'[z], reorderContext |-> context,
                    searchCompletion |-> search, shuffleOccurred |-> shuffled])
    \/ \E z \in DeckZones4 : Shuffle([zone |-> z, seed |-> 0, result |-> piles'[z]])
    \/ \E s \in Seats4 : Draw([seat |-> s, movementAuthorized |-> TRUE])
    \/ \E id \in inGameIds :
           Locate([id |-> id, location |->
                      ObjectLocation4(id, NoHosts, [z \in DeckZones4 |-> piles[z]], occupants)])

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Rotated(s) == IF s = <<>> THEN s ELSE SubSeq(s, 2, Len(s)) \o <<Head(s)>>

Orders == UNION {{piles[z], Rotated(piles[z]), SubSeq(piles[z], 2, Len(piles[z]))} :
                 z \in DeckZones4}

Params_Draw == [seat |-> Seats4 \cup {"SideC"}, movementAuthorized |-> BOOLEAN]

\* result is the implementation's (the order it shuffled to); the current orders are drawn.
Params_Shuffle ==
    [zone |-> DeckZones4 \cup {"Play"}, seed |-> {0, 1, 7, 0 - 1},
     result |-> {piles[z] : z \in DeckZones4}]

Params_Reorder ==
    [zone |-> DeckZones4 \cup {"Play"}, order |-> Orders, reorderContext |-> BOOLEAN,
     searchCompletion |-> BOOLEAN, shuffleOccurred |-> BOOLEAN]

\* location is the implementation's answer; the true ones are drawn.
Params_Locate ==
    [id |-> inGameIds \cup {99},
     location |-> {ObjectLocation4(i, NoHosts, [z \in DeckZones4 |-> piles[z]], occupants) :
                   i \in inGameIds}]

Partition == ZonePartition4(inGameIds, occupants)

PilesMatchOccupants == PilesAgree4(piles, occupants)

=============================================================================
