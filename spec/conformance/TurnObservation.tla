-------------------------- MODULE TurnObservation --------------------------
(***************************************************************************)
(* Conformance module: TurnView and createInformationRevelation.          *)
(*   Policies, Controllers, Seats, TargetSpecs, ActionDefinitions: the      *)
(*   table's zones, who controls each entry, the seats, the product rules  *)
(*   zones, faceUp, revealed  the authoritative state (see TurnViews)      *)
(*   replay    the public replay: <<[entry, seats, reason]>>               *)
(* Observe(p): p.seat, p.view ([zones, targetChoices, refused, actions],  *)
(*             every record of it with exactly its fields: see TurnViews)  *)
(* Reveal(p):  p.entry, p.seats, p.reason                                  *)
(* LeakCheck(p): p.seat, p.observer ("library": the library's TurnView,   *)
(*             held to the reading; any other, e.g. "projection": a        *)
(*             product's own, held to the verdict), p.view (the seat's),   *)
(*             p.worlds (every world compared, in order: [zones, faceUp,   *)
(*             controllers, view]), p.verdict ("none" | "leak")            *)
(* Move(p):    p.entry, p.source, p.destination (not a slot zone); the     *)
(*             entry arrives on top; it may leave a lifo zone from the top *)
(*             only, a fifo zone from the front (the bottom, the oldest)   *)
(***************************************************************************)
EXTENDS TurnViews

CONSTANTS
    \* @type: Str -> $zonePolicy;
    Policies,
    \* @type: Int -> Str;
    Controllers,
    \* @type: Set(Str);
    Seats,
    \* @type: Set($actionDefinition);
    ActionDefinitions

VARIABLES
    \* @type: Str -> Seq(Int);
    zones,
    \* @type: Set(Int);
    faceUp,
    \* @type: Set({entry: Int, seat: Str});
    revealed,
    \* @type: Seq({entry: Int, reason: Str, seats: Set(Str)});
    replay

vars == <<zones, faceUp, revealed, replay>>

St == [zones |-> zones, policies |-> Policies, controllers |-> Controllers, faceUp |-> faceUp,
       revealed |-> revealed]

InGame == UNION {Members(St, z) : z \in DOMAIN zones}

\* A list or bag loses the entry; a slot keeps its place, empty (0).
\* @type: (Seq(Int), Int, Str) => Seq(Int);
Remove(s, e, kind) ==
    IF kind = "slots" THEN [i \in 1..Len(s) |-> IF s[i] = e THEN 0 ELSE s[i]]
    ELSE LET Keep(x) == x # e IN SelectSeq(s, Keep)

\* @type: (Seq(Int), Int) => Seq(Int);
InsertSorted(s, e) ==
    LET k == Cardinality({i \in 1..Len(s) : s[i] < e})
    IN SubSeq(s, 1, k) \o <<e>> \o SubSeq(s, k + 1, Len(s))

\* The view as the reading's records (Observe checks their fields first).
\* @type: ({actions: Set({action: Str, targets: Seq(Int), c}), refused: Bool, targetChoices: Str -> {choices: Seq(Seq(Int)), truncated: Bool, b}, zones: Str -> {count: Int, identities: Seq(Int), order: Seq(Int), orderShown: Bool, slots: Seq({entry: Int, key: Str, occupied: Bool, e}), slotsShown: Bool, d}, a}) => $turnView;
AsRead(v) ==
    [zones |-> [z \in DOMAIN v.zones |->
                   [count |-> v.zones[z].count, identities |-> v.zones[z].identities,
                    orderShown |-> v.zones[z].orderShown, order |-> v.zones[z].order,
                    slotsShown |-> v.zones[z].slotsShown,
                    slots |-> [i \in 1..Len(v.zones[z].slots) |->
                                  [key |-> v.zones[z].slots[i].key,
                                   occupied |-> v.zones[z].slots[i].occupied,
                                   entry |-> v.zones[z].slots[i].entry]]]],
     targetChoices |-> [s \in DOMAIN v.targetChoices |->
                           [choices |-> v.targetChoices[s].choices,
                            truncated |-> v.targetChoices[s].truncated]],
     refused |-> v.refused,
     actions |-> {[action |-> x.action, targets |-> x.targets] : x \in v.actions}]

\* @type: ({seat: Str, view: {actions: Set({action: Str, targets: Seq(Int), c}), refused: Bool, targetChoices: Str -> {choices: Seq(Seq(Int)), truncated: Bool, b}, zones: Str -> {count: Int, identities: Seq(Int), order: Seq(Int), orderShown: Bool, slots: Seq({entry: Int, key: Str, occupied: Bool, e}), slotsShown: Bool, d}, a}}) => Bool;
Observe(p) ==
    /\ p.seat \in Seats
    \* the view exposes nothing through a field the reading does not name
    /\ DOMAIN p.view = TurnViewFields
    /\ \A z \in DOMAIN p.view.zones : DOMAIN p.view.zones[z] = ZoneViewFields
    /\ \A z \in DOMAIN p.view.zones : \A i \in DOMAIN p.view.zones[z].slots :
           DOMAIN p.view.zones[z].slots[i] = SlotViewFields
    /\ \A s \in DOMAIN p.view.targetChoices : DOMAIN p.view.targetChoices[s] = ChoiceViewFields
    /\ \A x \in p.view.actions : DOMAIN x = ConcreteActionFields
    /\ TurnViewOK(AsRead(p.view), St, p.seat, TargetSpecs, ActionDefinitions)
    /\ UNCHANGED vars

\* A revelation goes into the public replay; the authoritative state is untouched.
\* @type: ({entry: Int, reason: Str, seats: Set(Str)}) => Bool;
Reveal(p) ==
    /\ p.entry \in InGame
    /\ p.seats # {} /\ p.seats \subseteq Seats
    /\ revealed' = revealed \cup {[entry |-> p.entry, seat |-> s] : s \in p.seats}
    /\ replay' = Append(replay, [entry |-> p.entry, seats |-> p.seats, reason |-> p.reason])
    /\ UNCHANGED <<zones, faceUp>>

\* The authoritative state decides: a moved entry is no longer revealed.
\* Which entry may leave z: the top (index 1) of a lifo zone, the front of a fifo
\* zone (arrivals go on top, so the front is the bottom, the last index), any other.
\* @type: (Str, Int) => Bool;
Leaves(z, e) ==
    CASE Policies[z].access = "lifo" -> zones[z][1] = e
      [] Policies[z].access = "fifo" -> zones[z][Len(zones[z])] = e
      [] OTHER -> TRUE

\* @type: ({destination: Str, entry: Int, source: Str}) => Bool;
Move(p) ==
    /\ p.source \in DOMAIN zones /\ p.destination \in DOMAIN zones
    /\ p.source # p.destination
    /\ Policies[p.destination].kind # "slots"
    /\ p.entry \in Members(St, p.source)
    /\ Leaves(p.source, p.entry)
    /\ zones' = [zones EXCEPT ![p.source] = Remove(@, p.entry, Policies[p.source].kind),
                              ![p.destination] = IF Policies[p.destination].kind = "bag"
                                                 THEN InsertSorted(@, p.entry)
                                                 ELSE <<p.entry>> \o @]
    /\ revealed' = {r \in revealed : r.entry # p.entry}
    /\ UNCHANGED <<faceUp, replay>>

\* A world the check compared, as a table state (the same policies and revelations:
\* where entries lie, how they face and who controls them may differ).
\* @type: ({controllers: Int -> Str, faceUp: Set(Int), view: $turnView, zones: Str -> Seq(Int)}) => $tableState;
WorldOf(w) ==
    [zones |-> w.zones, policies |-> Policies, controllers |-> w.controllers,
     faceUp |-> w.faceUp, revealed |-> revealed]

\* The information-leak check over the whole TurnView (zones, target choices, legal
\* actions), recorded: every world compared is one the seat cannot tell apart; the
\* library's views are the reading's in each world; the verdict is "leak" exactly when
\* some world's view differs, the check stopping there; and a "none" has compared a
\* permutation of every hidden list order (deck order) and, when hidden identities lie
\* in two zones or more, a world where some lie elsewhere (opponent hands).  A bag's
\* order is not in the state (it is kept canonical), so no trace can show it permuted.
\* @type: ({observer: Str, seat: Str, verdict: Str, view: $turnView, worlds: Seq({controllers: Int -> Str, faceUp: Set(Int), view: $turnView, zones: Str -> Seq(Int)})}) => Bool;
LeakCheck(p) ==
    /\ p.seat \in Seats
    /\ \A i \in DOMAIN p.worlds : Look(WorldOf(p.worlds[i]), p.seat) = Look(St, p.seat)
    /\ p.observer = "library" =>
           /\ TurnViewOK(p.view, St, p.seat, TargetSpecs, ActionDefinitions)
           /\ \A i \in DOMAIN p.worlds :
                  TurnViewOK(p.worlds[i].view, WorldOf(p.worlds[i]), p.seat, TargetSpecs,
                             ActionDefinitions)
    /\ p.verdict = IF \E i \in DOMAIN p.worlds : p.worlds[i].view # p.view THEN "leak" ELSE "none"
    /\ \A i \in DOMAIN p.worlds : p.worlds[i].view # p.view => i = Len(p.worlds)
    /\ p.verdict = "none" =>
           \A z \in HiddenOrderZones(St, p.seat) :
               \E i \in DOMAIN p.worlds : OnlyOrderOf(WorldOf(p.worlds[i]), St, z)
    /\ p.verdict = "none" =>
           (Cardinality({z \in DOMAIN zones : Members(St, z) # Identified(St, z, p.seat)}) >= 2
            => \E i \in DOMAIN p.worlds : \E z \in DOMAIN zones :
                   Members(WorldOf(p.worlds[i]), z) # Members(St, z))
    /\ UNCHANGED vars

EntriesInOneZone ==
    \A y, z \in DOMAIN zones : y # z => Members(St, y) \cap Members(St, z) = {}

RevealedInGame == \A r \in revealed : r.entry \in InGame /\ r.seat \in Seats

BagsCanonical ==
    \A z \in DOMAIN zones : Policies[z].kind = "bag" =>
        \A i \in 1..(Len(zones[z]) - 1) : zones[z][i] < zones[z][i + 1]

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the library reports (view, worlds, verdict, observer) are replaced by its
\* answer; their sets here only classify a request as allowed or not.
NoView == [zones |-> <<>>, targetChoices |-> <<>>, refused |-> TRUE, actions |-> {}]

Params_Observe == [seat |-> Seats \cup {"SideZ"}, view |-> {NoView}]

Params_Reveal ==
    [entry |-> 1..17, seats |-> SUBSET (Seats \cup {"SideZ"}), reason |-> {"effect", "rule"}]

Params_Move == [entry |-> 1..17, source |-> DOMAIN zones \cup {"Limbo"}, destination |-> DOMAIN zones]

Params_LeakCheck ==
    [seat |-> Seats \cup {"SideZ"}, seed |-> {0, 1}, observer |-> {"library"}, view |-> {NoView},
     worlds |-> {<<>>}, verdict |-> {"none"}]

=============================================================================
