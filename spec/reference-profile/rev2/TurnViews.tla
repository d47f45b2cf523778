----------------------------- MODULE TurnViews -----------------------------
(***************************************************************************)
(* TurnView observation and security: reference profile, input revision  *)
(* 2, read from seed 002_7346ff58e0b15244.txt (prose only: every           *)
(* definition is authored).  st is the authoritative state:                *)
(*   zones        zone -> sequence (list zones top first; bags in canonical *)
(*                order; slot zones in slot order, 0 for an empty slot)    *)
(*   policies     zone -> [kind ("list" | "bag" | "slots"), access,        *)
(*                identity, order, owner ("" = none), slotKeys]            *)
(*   controllers  entry -> seat;  faceUp: set of entries;                  *)
(*   revealed     set of [entry, seat]                                     *)
(* A zone view: [count, identities (ascending), orderShown, order (0 for   *)
(* an unidentified entry), slotsShown, slots (<<[key, occupied, entry]>>)] *)
(***************************************************************************)
EXTENDS Targets

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: zonePolicy = {access: Str, identity: Str, kind: Str, order: Str, owner: Str, slotKeys: Seq(Str)};
\* @typeAlias: tableState = {controllers: Int -> Str, faceUp: Set(Int), policies: Str -> $zonePolicy, revealed: Set({entry: Int, seat: Str}), zones: Str -> Seq(Int)};
\* @typeAlias: zoneView = {count: Int, identities: Seq(Int), order: Seq(Int), orderShown: Bool, slots: Seq({entry: Int, key: Str, occupied: Bool}), slotsShown: Bool};
\* @typeAlias: turnView = {actions: Set($concreteAction), refused: Bool, targetChoices: Str -> $choiceView, zones: Str -> $zoneView};
TurnViewTypes == TRUE

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* The seat's independent identity and order policies.
\* @type: (Str, Str, Str, Str) => Bool;
Allows(policy, seat, face, controller) ==
    \/ policy = "public"
    \/ policy = "owner" /\ seat = controller
    \/ policy = "face" /\ (face = "up" \/ seat = controller)

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* @type: ($tableState, Str) => Set(Int);
Members(st, z) == {st.zones[z][i] : i \in 1..Len(st.zones[z])} \ {0}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* @type: ($tableState, Str, Int) => Str;
Controller(st, z, e) ==
    IF st.policies[z].owner # "" THEN st.policies[z].owner ELSE st.controllers[e]

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* Identities shown only where the identity policy (or a revelation) allows.
\* @type: ($tableState, Str, Str) => Set(Int);
Identified(st, z, seat) ==
    {e \in Members(st, z) :
        \/ Allows(st.policies[z].identity, seat, IF e \in st.faceUp THEN "up" ELSE "down",
                  Controller(st, z, e))
        \/ [entry |-> e, seat |-> seat] \in st.revealed}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* @type: ($tableState, Str, Str) => Bool;
OrderVisible(st, z, seat) == Allows(st.policies[z].order, seat, "down", st.policies[z].owner)

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* TurnView.zones: always the count; identities canonicalized (ascending, so
\* insertion history cannot leak); order or slots only where allowed.
\* @type: ($zoneView, $tableState, Str, Str) => Bool;
ZoneViewOK(v, st, z, seat) ==
    LET ids == Identified(st, z, seat)
        orderShown == st.policies[z].kind = "list" /\ OrderVisible(st, z, seat)
        slotsShown == st.policies[z].kind = "slots" /\ OrderVisible(st, z, seat)
        \* @type: (Int) => Int;
        Mask(e) == IF e \in ids THEN e ELSE 0
    IN /\ v.count = Cardinality(Members(st, z))
       /\ {v.identities[i] : i \in 1..Len(v.identities)} = ids
       /\ Len(v.identities) = Cardinality(ids)
       /\ \A i \in 1..(Len(v.identities) - 1) : v.identities[i] < v.identities[i + 1]
       /\ v.orderShown = orderShown
       /\ v.order = IF orderShown THEN [i \in 1..Len(st.zones[z]) |-> Mask(st.zones[z][i])]
                    ELSE <<>>
       /\ v.slotsShown = slotsShown
       /\ v.slots = IF slotsShown
                    THEN [i \in 1..Len(st.zones[z]) |->
                             [key |-> st.policies[z].slotKeys[i],
                              occupied |-> st.zones[z][i] # 0,
                              entry |-> Mask(st.zones[z][i])]]
                    ELSE <<>>

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* A TurnView exposes what the policies allow and nothing else: each record it is
\* made of has exactly these fields (an extra one, a deck order or an opponent's
\* hand, would be exposure the seed forbids).
TurnViewFields == {"zones", "targetChoices", "refused", "actions"}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
ZoneViewFields == {"count", "identities", "orderShown", "order", "slotsShown", "slots"}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
SlotViewFields == {"key", "occupied", "entry"}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* What the seat may identify, zone by zone: the board its choices come from.
\* @type: ($tableState, Str) => (Str -> Set(Int));
VisibleBoard(st, seat) == [z \in DOMAIN st.zones |-> Identified(st, z, seat)]

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* What a seat may tell of a table by its policies alone: each zone's length, count
\* and the identities it may see, their places (and which places are occupied) where it
\* may see the order or slots, and the face and controller of each identity it sees.
\* Two tables with one Look are worlds the seat cannot tell apart.
\* @type: ($tableState, Str) => {controllers: Set(<<Int, Str>>), entries: Set(Int), faces: Set(Int), zones: Str -> {count: Int, identities: Set(Int), length: Int, occupied: Seq(Bool), places: Seq(Int)}};
Look(st, seat) ==
    LET seen == UNION {Identified(st, z, seat) : z \in DOMAIN st.zones}
        \* @type: (Str, Int) => Int;
        Place(z, i) == IF st.zones[z][i] \in Identified(st, z, seat) THEN st.zones[z][i] ELSE 0
    IN [entries |-> UNION {Members(st, z) : z \in DOMAIN st.zones},
        zones |-> [z \in DOMAIN st.zones |->
                      [length |-> Len(st.zones[z]), count |-> Cardinality(Members(st, z)),
                       identities |-> Identified(st, z, seat),
                       places |-> IF OrderVisible(st, z, seat)
                                  THEN [i \in 1..Len(st.zones[z]) |-> Place(z, i)] ELSE <<>>,
                       occupied |-> IF OrderVisible(st, z, seat)
                                    THEN [i \in 1..Len(st.zones[z]) |-> st.zones[z][i] # 0]
                                    ELSE <<>>]],
        faces |-> st.faceUp \cap seen,
        controllers |-> {<<e, st.controllers[e]>> : e \in seen}]

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* The list zones whose order the seat may not see and that a permutation changes.
\* @type: ($tableState, Str) => Set(Str);
HiddenOrderZones(st, seat) ==
    {z \in DOMAIN st.zones :
        st.policies[z].kind = "list" /\ ~OrderVisible(st, z, seat) /\ Len(st.zones[z]) >= 2}

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* W differs from st in the order of zone z alone.
\* @type: ($tableState, $tableState, Str) => Bool;
OnlyOrderOf(W, st, z) ==
    /\ W.zones[z] # st.zones[z]
    /\ [W EXCEPT !.zones = [@ EXCEPT ![z] = st.zones[z]]] = st

\* authored: 002_7346ff58e0b15244.txt, Observation and security
\* The whole TurnView: zones, target choices and legal actions, the last two
\* enumerated over what the seat may identify (so they leak nothing either).
\* @type: ($turnView, $tableState, Str, Str -> $targetSpec, Set($actionDefinition)) => Bool;
TurnViewOK(view, st, seat, specs, defs) ==
    /\ DOMAIN view.zones = DOMAIN st.zones
    /\ \A z \in DOMAIN st.zones : ZoneViewOK(view.zones[z], st, z, seat)
    /\ DOMAIN view.targetChoices = DOMAIN specs
    /\ \A s \in DOMAIN specs :
           TargetChoicesOK(view.targetChoices[s], specs[s], VisibleBoard(st, seat))
    /\ ActionEnumerationOK(view, defs, specs, VisibleBoard(st, seat))
=============================================================================
