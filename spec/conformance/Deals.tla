------------------------------- MODULE Deals -------------------------------
(***************************************************************************)
(* Conformance module: the TCS `deal` verb over the profile's piles.       *)
(*   inGameIds, occupants, piles  as in DeckOrder                          *)
(*   faceUp     the identifiers lying face up                              *)
(* DealCard(p): one dealt card, an atomic zone move: p.id, p.source,       *)
(*   p.index (its position from the top as it leaves), p.pile,             *)
(*   p.pilePosition, p.face, p.movementAuthorized                          *)
(* Deal(p): a whole deal against the TCS reading (spec/tcs/Deal.tla):      *)
(*   p.source, p.piles, p.countAll, p.count, p.distribution,               *)
(*   p.sourcePosition, p.sourceIndex, p.pilePosition, p.face,              *)
(*   p.movementAuthorized                                                  *)
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
    piles,
    \* @type: Set(Int);
    faceUp

INSTANCE Piles4

INSTANCE Deal

\* @type: (Seq(Int), Int) => Seq(Int);
RemoveAt(s, i) == SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))

\* @type: ({face: Str, id: Int, index: Int, movementAuthorized: Bool, pile: Str, pilePosition: Str, source: Str}) => Bool;
DealCard(p) ==
    /\ p.source \in PileZones4
    /\ p.pile \in PileZones4
    /\ p.pilePosition \in {"top", "bottom"}
    /\ p.face \in {"face_up", "face_down", "kept"}
    /\ p.index \in 1..Len(piles[p.source])
    /\ p.id = piles[p.source][p.index]
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source, p.pile,
                       p.movementAuthorized, FALSE, FALSE)
    /\ piles' = [piles EXCEPT ![p.source] = RemoveAt(@, p.index),
                              ![p.pile] = IF p.pilePosition = "top" THEN <<p.id>> \o @
                                          ELSE Append(@, p.id)]
    /\ faceUp' = DealFaces(faceUp, {p.id}, p.face)
    /\ UNCHANGED inGameIds

\* @type: ({count: Int, countAll: Bool, distribution: Str, face: Str, movementAuthorized: Bool, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str}) => Bool;
Deal(p) ==
    /\ p.movementAuthorized
    /\ p.source \in PileZones4
    /\ \A j \in 1..Len(p.piles) : p.piles[j] \in PileZones4
    /\ DealEnabled(piles, p)
    /\ piles' = DealPiles(piles, p)
    /\ faceUp' = DealFaces(faceUp, SeqRange4(DealDepartures(piles[p.source], p)), p.face)
    /\ occupants' = [z \in ZoneInstances4 |->
                        IF z \in PileZones4 THEN SeqRange4(piles'[z]) ELSE occupants[z]]
    /\ DealPostState(piles, piles', faceUp, faceUp', p)
    /\ UNCHANGED inGameIds

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Params_Deal ==
    [movementAuthorized |-> BOOLEAN, source |-> PileZones4,
     piles |-> {<<a>> : a \in PileZones4} \cup {<<a, b>> : a, b \in PileZones4},
     countAll |-> BOOLEAN, count |-> {0, 1, 2, 3, 0 - 1},
     distribution |-> {"round_robin", "pile_by_pile", "zigzag"},
     sourcePosition |-> {"top", "bottom", "index", "middle"}, sourceIndex |-> {0, 1, 2},
     pilePosition |-> {"top", "bottom", "side"},
     face |-> {"kept", "face_up", "face_down", "sideways"}]

Partition == ZonePartition4(inGameIds, occupants)

PilesMatchOccupants == PilesAgree4(piles, occupants)

HandsProjectPiles ==
    \A s \in Seats4 : HandSetupProjection4(piles[SeatZone4[s]["Hand"]],
                                            occupants[SeatZone4[s]["Hand"]])

FaceUpInGame == faceUp \subseteq inGameIds

=============================================================================
