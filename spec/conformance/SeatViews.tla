----------------------------- MODULE SeatViews -----------------------------
(***************************************************************************)
(* Conformance module: what each seat sees, with order, across moves,      *)
(* draws, shuffles and deals, and the information-leak check.              *)
(* (authored: 002_7346ff58e0b15244.txt, observation and security;          *)
(*  000_06548165aa2c0842.txt, determine the observer's view explicitly)    *)
(*   inGameIds, occupants  as in ZoneMembership                            *)
(*   lists       every zone but the objective rows -> its internal list,   *)
(*               top first (a bag's and set-aside's too: their order is    *)
(*               hidden from the seats, not from the trace)                *)
(*   slots       objective row -> its slots in key order (0 = empty)       *)
(*   faceUp, controller, revealed  as in Observation                       *)
(* A view of a zone is [count, ids, listed, shown, layout]: ids the        *)
(* identities the seat may see, listed the same in the canonical           *)
(* (ascending) order, shown whether it may see the order (or slot layout), *)
(* layout the zone top first (slots in key order) with 0 for an entry it   *)
(* may not identify and -1 for an empty slot, <<>> when not shown.         *)
(* A revelation lasts while its object stays in its zone: a move, a draw   *)
(* or a deal of the object ends it; a shuffle of its deck does not.        *)
(* Observe(p):  p.seat, p.view                                             *)
(* Move(p):     as ZoneMembership's Move (on top of a list, into the first *)
(*              free slot of a row)                                        *)
(* Flip(p), Reveal(p): as Observation's                                    *)
(* Draw(p), Shuffle(p): as DeckOrder's; Deal(p): as Deals' Deal            *)
(* LeakCheck(p): p.seat, p.observer ("library": the library's view and     *)
(*   legal actions; "projection": a product's own), p.view, p.actions (the *)
(*   seat's legal actions, records [kind, id, source, destination]),       *)
(*   p.worlds (every world compared, in order: [occupants, lists, slots,   *)
(*   faceUp, controller, view, actions]), p.verdict ("none" | "leak")      *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

VARIABLES
    \* @type: Set(Int);
    inGameIds,
    \* @type: Str -> Set(Int);
    occupants,
    \* @type: Str -> Seq(Int);
    lists,
    \* @type: Str -> Seq(Int);
    slots,
    \* @type: Set(Int);
    faceUp,
    \* @type: Int -> Str;
    controller,
    \* @type: Str -> Set(Int);
    revealed

INSTANCE Piles4

INSTANCE ZoneLook4

INSTANCE Deal

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: world = {controller: Int -> Str, faceUp: Set(Int), lists: Str -> Seq(Int), occupants: Str -> Set(Int), slots: Str -> Seq(Int)};
\* @typeAlias: zoneView = {count: Int, ids: Set(Int), layout: Seq(Int), listed: Seq(Int), shown: Bool};
\* @typeAlias: legal = {destination: Str, id: Int, kind: Str, source: Str};
\* @typeAlias: recordedWorld = {actions: Set($legal), controller: Int -> Str, faceUp: Set(Int), lists: Str -> Seq(Int), occupants: Str -> Set(Int), slots: Str -> Seq(Int), view: Str -> $zoneView};
SeatViewTypes == TRUE

vars == <<inGameIds, occupants, lists, slots, faceUp, controller, revealed>>

ObjectiveZones == {SeatZone4[s]["Objective"] : s \in Seats4}

HandZones == {SeatZone4[s]["Hand"] : s \in Seats4}

ListZones == ZoneInstances4 \ ObjectiveZones

\* A world: the part of the state a permutation of hidden things may change.
\* @type: $world;
Real == [occupants |-> occupants, lists |-> lists, slots |-> slots, faceUp |-> faceUp,
         controller |-> controller]

\* @type: ($world, Str, Str, Int) => Bool;
Sees(W, z, s, id) ==
    \/ DefaultZoneLook4(z, IF id \in W.faceUp THEN "Up" ELSE "Down", s,
                        IF z \in DOMAIN SeatOfZone4 THEN ZoneSeat4(z) ELSE W.controller[id])
    \/ id \in revealed[s]

\* @type: ($world, Str, Str) => Set(Int);
Visible(W, z, s) == {id \in W.occupants[z] : Sees(W, z, s, id)}

\* authored: 002_7346ff58e0b15244.txt, observation and security (the profile's order
\* visibility: decks, the bank and set-aside hide it, a hand shows it to its seat, the
\* discard piles, objective rows, play and removed show it to every seat).
\* @type: (Str, Str) => Bool;
OrderShown(z, s) ==
    CASE z \in DeckZones4 -> FALSE
      [] z \in HandZones -> s = ZoneSeat4(z)
      [] z \in {"Bank", "SetAside"} -> FALSE
      [] OTHER -> TRUE

\* The ascending sequence of a finite set of identifiers (the canonical order).
\* @type: (Set(Int)) => Seq(Int);
Canonical(S) ==
    [i \in 1..Cardinality(S) |-> CHOOSE x \in S : Cardinality({y \in S : y < x}) = i - 1]

\* @type: ($world, Str, Str, Int) => Int;
Mask(W, z, s, id) == IF Sees(W, z, s, id) THEN id ELSE 0

\* @type: ($world, Str, Str) => Seq(Int);
Layout(W, z, s) ==
    IF z \in ObjectiveZones
    THEN [i \in 1..Len(W.slots[z]) |->
              IF W.slots[z][i] = 0 THEN -1 ELSE Mask(W, z, s, W.slots[z][i])]
    ELSE [i \in 1..Len(W.lists[z]) |-> Mask(W, z, s, W.lists[z][i])]

\* @type: ($world, Str, Str) => $zoneView;
ZoneView(W, z, s) ==
    [count |-> Cardinality(W.occupants[z]), ids |-> Visible(W, z, s),
     listed |-> Canonical(Visible(W, z, s)), shown |-> OrderShown(z, s),
     layout |-> IF OrderShown(z, s) THEN Layout(W, z, s) ELSE <<>>]

\* @type: ($world, Str) => Str -> $zoneView;
View(W, s) == [z \in ZoneInstances4 |-> ZoneView(W, z, s)]

\* authored: the harness's legal actions: draw while the deck holds a card, play or
\* discard a card of the hand.
\* @type: ($world, Str) => Set($legal);
LegalActions(W, s) ==
    LET dk == SeatZone4[s]["Deck"]
        hd == SeatZone4[s]["Hand"]
    IN  (IF W.occupants[dk] # {}
         THEN {[kind |-> "Draw", id |-> 0, source |-> dk, destination |-> hd]} ELSE {})
        \cup {[kind |-> "Move", id |-> i, source |-> hd, destination |-> d] :
                  i \in W.occupants[hd], d \in {"Play", SeatZone4[s]["Discard"]}}

\* A zone view has exactly these fields: another one (the stored list, say) would show
\* the seat what its policies hide.
ZoneViewFields == {"count", "ids", "listed", "shown", "layout"}

\* @type: ({seat: Str, view: Str -> {count: Int, ids: Set(Int), layout: Seq(Int), listed: Seq(Int), shown: Bool, a}}) => Bool;
Observe(p) ==
    /\ p.seat \in Seats4
    /\ DOMAIN p.view = ZoneInstances4
    /\ \A z \in ZoneInstances4 : DOMAIN p.view[z] = ZoneViewFields
    /\ \A z \in ZoneInstances4 : p.view[z].count = Cardinality(occupants[z])
    /\ \A z \in ZoneInstances4 : p.view[z].ids \subseteq Visible(Real, z, p.seat)
    /\ \A z \in ZoneInstances4 : Visible(Real, z, p.seat) \subseteq p.view[z].ids
    /\ \A z \in ZoneInstances4 : p.view[z].listed = Canonical(p.view[z].ids)
    /\ \A z \in ZoneInstances4 : p.view[z].shown = OrderShown(z, p.seat)
    /\ \A z \in ZoneInstances4 : p.view[z].layout = ZoneView(Real, z, p.seat).layout
    /\ UNCHANGED vars

\* @type: (Seq(Int), Int) => Seq(Int);
Without(l, id) == SelectSeq(l, LAMBDA e : e # id)

\* @type: (Seq(Int)) => Int;
FirstFree(row) == CHOOSE i \in DOMAIN row : row[i] = 0 /\ \A j \in DOMAIN row : j < i => row[j] # 0

\* @type: (Set(Int)) => Str -> Set(Int);
Unreveal(ids) == [s \in Seats4 |-> revealed[s] \ ids]

\* @type: ({destination: Str, id: Int, movementAuthorized: Bool, revealRequired: Bool, revealedBeforeMove: Bool, source: Str}) => Bool;
Move(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source, p.destination,
                       p.movementAuthorized, p.revealRequired, p.revealedBeforeMove)
    /\ p.destination \in ObjectiveZones => 0 \in SeqRange4(slots[p.destination])
    /\ lists' = [z \in ListZones |->
                    IF z = p.source THEN Without(lists[z], p.id)
                    ELSE IF z = p.destination THEN <<p.id>> \o lists[z] ELSE lists[z]]
    /\ slots' = [z \in ObjectiveZones |->
                    IF z = p.source THEN [i \in 1..Len(slots[z]) |->
                                              IF slots[z][i] = p.id THEN 0 ELSE slots[z][i]]
                    ELSE IF z = p.destination THEN [slots[z] EXCEPT ![FirstFree(slots[z])] = p.id]
                    ELSE slots[z]]
    /\ revealed' = Unreveal({p.id})
    /\ UNCHANGED <<inGameIds, faceUp, controller>>

\* @type: ({face: Str, id: Int}) => Bool;
Flip(p) ==
    /\ p.id \in inGameIds
    /\ p.face \in {"Up", "Down"}
    /\ faceUp' = IF p.face = "Up" THEN faceUp \cup {p.id} ELSE faceUp \ {p.id}
    /\ UNCHANGED <<inGameIds, occupants, lists, slots, controller, revealed>>

\* @type: ({id: Int, seat: Str}) => Bool;
Reveal(p) ==
    /\ p.seat \in Seats4
    /\ p.id \in inGameIds
    /\ revealed' = [revealed EXCEPT ![p.seat] = @ \cup {p.id}]
    /\ UNCHANGED <<inGameIds, occupants, lists, slots, faceUp, controller>>

\* @type: ({movementAuthorized: Bool, seat: Str}) => Bool;
Draw(p) ==
    /\ p.seat \in Seats4
    /\ LET dk == SeatZone4[p.seat]["Deck"]
           hd == SeatZone4[p.seat]["Hand"]
       IN  /\ lists[dk] # <<>>
           /\ AtomicZoneMove4(inGameIds, occupants, occupants', Head(lists[dk]), dk, hd,
                              p.movementAuthorized, FALSE, FALSE)
           /\ lists' = [lists EXCEPT ![dk] = Tail(@), ![hd] = <<Head(lists[dk])>> \o @]
           /\ revealed' = Unreveal({Head(lists[dk])})
    /\ UNCHANGED <<inGameIds, slots, faceUp, controller>>

\* A shuffle moves nothing out of its deck: a revelation in it stays.
\* @type: ({result: Seq(Int), seed: Int, zone: Str}) => Bool;
Shuffle(p) ==
    /\ p.zone \in DeckZones4
    /\ p.seed \in Nat
    /\ DeckReorder4(lists[p.zone], p.result, TRUE, FALSE, TRUE)
    /\ lists' = [lists EXCEPT ![p.zone] = p.result]
    /\ UNCHANGED <<inGameIds, occupants, slots, faceUp, controller, revealed>>

\* @type: Str -> Seq(Int);
Piles == [z \in PileZones4 |-> lists[z]]

\* @type: ({count: Int, countAll: Bool, distribution: Str, face: Str, movementAuthorized: Bool, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str}) => Bool;
Deal(p) ==
    /\ p.movementAuthorized
    /\ p.source \in PileZones4
    /\ \A j \in 1..Len(p.piles) : p.piles[j] \in PileZones4
    /\ DealEnabled(Piles, p)
    /\ LET after == DealPiles(Piles, p)
           dealt == SeqRange4(DealDepartures(lists[p.source], p))
       IN  /\ lists' = [z \in ListZones |-> IF z \in PileZones4 THEN after[z] ELSE lists[z]]
           /\ occupants' = [z \in ZoneInstances4 |->
                               IF z \in PileZones4 THEN SeqRange4(after[z]) ELSE occupants[z]]
           /\ faceUp' = DealFaces(faceUp, dealt, p.face)
           /\ revealed' = Unreveal(dealt)
    /\ UNCHANGED <<inGameIds, slots, controller>>

\* @type: ($recordedWorld) => $world;
WorldOf(w) ==
    [occupants |-> w.occupants, lists |-> w.lists, slots |-> w.slots, faceUp |-> w.faceUp,
     controller |-> w.controller]

\* Every identity the seat may see, in the real world.
\* @type: (Str) => Set(Int);
Shown(s) == UNION {Visible(Real, z, s) : z \in ZoneInstances4}

\* A world the seat cannot tell from the real one: a state of the same objects whose view
\* is the same, each object it may see lying as it does, with its face and controller.
\* @type: ($world, Str) => Bool;
Indistinguishable(W, s) ==
    /\ DOMAIN W.occupants = ZoneInstances4
    /\ ZonePartition4(inGameIds, W.occupants)
    /\ DOMAIN W.lists = ListZones
    /\ \A z \in ListZones : SeqRange4(W.lists[z]) = W.occupants[z]
    /\ DOMAIN W.slots = ObjectiveZones
    /\ \A z \in ObjectiveZones : SeqRange4(W.slots[z]) \ {0} = W.occupants[z]
    /\ DOMAIN W.controller = inGameIds
    /\ \A id \in Shown(s) : /\ (id \in W.faceUp) = (id \in faceUp)
                            /\ W.controller[id] = controller[id]
    /\ View(W, s) = View(Real, s)

\* W differs from the real world in the order of z alone.
\* @type: ($world, Str) => Bool;
OnlyOrderOf(W, z) ==
    /\ W.lists[z] # lists[z]
    /\ [y \in ListZones \ {z} |-> W.lists[y]] = [y \in ListZones \ {z} |-> lists[y]]
    /\ W.occupants = occupants /\ W.slots = slots
    /\ W.faceUp = faceUp /\ W.controller = controller

\* @type: ({actions: Set($legal), observer: Str, seat: Str, verdict: Str, view: Str -> $zoneView, worlds: Seq($recordedWorld)}, Int) => Bool;
Leaks(p, i) == p.worlds[i].view # p.view \/ p.worlds[i].actions # p.actions

\* @type: ({actions: Set($legal), observer: Str, seat: Str, verdict: Str, view: Str -> $zoneView, worlds: Seq($recordedWorld)}) => Bool;
LeakCheck(p) ==
    /\ p.seat \in Seats4
    /\ p.observer \in {"library", "projection"}
    /\ \A i \in DOMAIN p.worlds : WorldOf(p.worlds[i]) # Real
    /\ \A i \in DOMAIN p.worlds : Indistinguishable(WorldOf(p.worlds[i]), p.seat)
    /\ p.observer = "library" =>
           /\ p.view = View(Real, p.seat)
           /\ p.actions = LegalActions(Real, p.seat)
           /\ \A i \in DOMAIN p.worlds :
                  /\ p.worlds[i].view = View(WorldOf(p.worlds[i]), p.seat)
                  /\ p.worlds[i].actions = LegalActions(WorldOf(p.worlds[i]), p.seat)
    \* a leak is reported exactly when some world shows the seat something else, and the
    \* check stops at the first such world
    /\ p.verdict = IF \E i \in DOMAIN p.worlds : Leaks(p, i) THEN "leak" ELSE "none"
    /\ \A i \in DOMAIN p.worlds : Leaks(p, i) => i = Len(p.worlds)
    \* the permutations of deck order, bag order and opponent hands are all compared
    \* (unless it stopped at a leak)
    /\ p.verdict = "none" =>
           \A z \in ListZones :
               ~OrderShown(z, p.seat) /\ Len(lists[z]) >= 2 =>
                   \E i \in DOMAIN p.worlds : OnlyOrderOf(WorldOf(p.worlds[i]), z)
    /\ p.verdict = "none" =>
           (Cardinality({z \in ZoneInstances4 : occupants[z] \ Shown(p.seat) # {}}) >= 2 =>
               \E i \in DOMAIN p.worlds : p.worlds[i].occupants # occupants)
    /\ UNCHANGED vars

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the implementation reports (view, actions, worlds, verdict, result) are
\* replaced by its answer; their sets here only classify a request as allowed or not
\* (a leak check is classified with no worlds, so as forbidden wherever a hidden order
\* must be permuted).
Params_Observe == [seat |-> Seats4 \cup {"SideC"}, view |-> {View(Real, s) : s \in Seats4}]

Params_LeakCheck ==
    [seat |-> Seats4 \cup {"SideC"}, seed |-> {0, 1, 2}, observer |-> {"library"},
     view |-> {View(Real, s) : s \in Seats4}, actions |-> {LegalActions(Real, s) : s \in Seats4},
     worlds |-> {<<>>}, verdict |-> {"none", "leak"}]

Params_Move ==
    [id |-> inGameIds \cup {99}, source |-> ZoneInstances4 \cup {"Nowhere"},
     destination |-> ZoneInstances4, movementAuthorized |-> BOOLEAN,
     revealRequired |-> BOOLEAN, revealedBeforeMove |-> BOOLEAN]

Params_Flip == [id |-> inGameIds \cup {99}, face |-> {"Up", "Down", "Sideways"}]

Params_Reveal == [id |-> inGameIds \cup {99}, seat |-> Seats4 \cup {"SideC"}]

Params_Draw == [seat |-> Seats4 \cup {"SideC"}, movementAuthorized |-> BOOLEAN]

Params_Shuffle ==
    [zone |-> DeckZones4 \cup {"Play"}, seed |-> {0, 1, 7, 0 - 1},
     result |-> {lists[z] : z \in DeckZones4}]

Params_Deal ==
    [movementAuthorized |-> BOOLEAN, source |-> PileZones4,
     piles |-> {<<a>> : a \in PileZones4} \cup {<<a, b>> : a, b \in PileZones4},
     countAll |-> BOOLEAN, count |-> {0, 1, 2, 3, 0 - 1},
     distribution |-> {"round_robin", "pile_by_pile", "zigzag"},
     sourcePosition |-> {"top", "bottom", "index", "middle"}, sourceIndex |-> {0, 1, 2},
     pilePosition |-> {"top", "bottom", "side"},
     face |-> {"kept", "face_up", "face_down", "sideways"}]

Partition == ZonePartition4(inGameIds, occupants)

\* Each list a deck sequence (DeckSequenceValid4: identifiers, none twice) of its zone's
\* occupants; "none twice" as pairs of indexes rather than as Cardinality(SeqRange4(..))
\* = Len(..), the same, which a model checker decides without counting a set.
ListsMatchOccupants ==
    /\ DOMAIN lists = ListZones
    /\ \A z \in ListZones :
           /\ \A i \in DOMAIN lists[z] : lists[z][i] \in Nat
           /\ \A i, j \in DOMAIN lists[z] : i # j => lists[z][i] # lists[z][j]
           /\ SeqRange4(lists[z]) = occupants[z]
    /\ DOMAIN slots = ObjectiveZones
    /\ \A z \in ObjectiveZones : SeqRange4(slots[z]) \ {0} = occupants[z]

LookStateOK ==
    /\ faceUp \subseteq inGameIds
    /\ DOMAIN controller = inGameIds
    /\ \A id \in inGameIds : controller[id] \in Seats4
    /\ DOMAIN revealed = Seats4
    /\ \A s \in Seats4 : revealed[s] \subseteq inGameIds

=============================================================================
