--------------------------- MODULE CostsAndDrafts ---------------------------
(***************************************************************************)
(* Conformance module: costs as resource transactions, draft picks as      *)
(* simultaneous intents with all-fail or priority arbitration.            *)
(*   SeatOrder  the seats, in priority order                               *)
(*   pools      seat -> resource -> amount                                 *)
(*   available  the draft pool        picks  seat -> items picked          *)
(* Pay(p):   p.seat, p.cost              Gain(p): p.seat, p.gain           *)
(* Draft(p): p.intents (in submission order), p.arbitration ("allFail" |  *)
(*           "priority"),                                                  *)
(*           p.granted (the intents the helper let succeed)                *)
(***************************************************************************)
EXTENDS Transactions, FiniteSets

CONSTANT
    \* @type: Seq(Str);
    SeatOrder

VARIABLES
    \* @type: Str -> (Str -> Int);
    pools,
    \* @type: Set(Str);
    available,
    \* @type: Str -> Set(Str);
    picks

Seats == {SeatOrder[i] : i \in 1..Len(SeatOrder)}

\* @type: ({cost: Str -> Int, seat: Str}) => Bool;
Pay(p) ==
    /\ p.seat \in Seats
    /\ \A r \in DOMAIN p.cost : p.cost[r] >= 0
    /\ CanPay(pools[p.seat], p.cost)
    /\ pools' = [pools EXCEPT ![p.seat] = Paid(@, p.cost)]
    /\ UNCHANGED <<available, picks>>

\* @type: ({gain: Str -> Int, seat: Str}) => Bool;
Gain(p) ==
    /\ p.seat \in Seats
    /\ \A r \in DOMAIN p.gain : r \in DOMAIN pools[p.seat] /\ p.gain[r] >= 0
    /\ pools' = [pools EXCEPT ![p.seat] =
                    [r \in DOMAIN @ |-> IF r \in DOMAIN p.gain THEN @[r] + p.gain[r] ELSE @[r]]]
    /\ UNCHANGED <<available, picks>>

\* The intents come in the order they were submitted; they are simultaneous, so only
\* the set of them counts (stating one intent twice is stating it once).
\* @type: ({arbitration: Str, granted: Set({item: Str, seat: Str}), intents: Seq({item: Str, seat: Str})}) => Bool;
Draft(p) ==
    LET intents == {p.intents[k] : k \in DOMAIN p.intents}
    IN  /\ p.arbitration \in {"allFail", "priority"}
        /\ \A i \in intents : i.seat \in Seats
        /\ \A i, j \in intents : i.seat = j.seat => i = j
        /\ ArbitrationOK(p.granted, intents, available, p.arbitration, SeatOrder)
        /\ available' = available \ {g.item : g \in p.granted}
        /\ picks' = [s \in Seats |-> picks[s] \cup {g.item : g \in {h \in p.granted : h.seat = s}}]
        /\ UNCHANGED pools

NoDebt == \A s \in Seats : \A r \in DOMAIN pools[s] : pools[s][r] >= 0

PicksLeftThePool == \A s \in Seats : picks[s] \cap available = {}

PicksDisjoint == \A s, t \in Seats : s # t => picks[s] \cap picks[t] = {}

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the helper reports (granted; the intents in the order submitted) are replaced
\* by its answer; their sets here only classify a request as allowed or not.
Intents1 == [seat : Seats \cup {"SideZ"}, item : available \cup {"d9"}]

\* Pairs of intents on two items (contested or not): d1 and d2 until they are picked.
Intents2 == [seat : Seats, item : {"d1", "d2"}]

\* Costs and gains as functions on resources (one type for every shape).
Params_Pay ==
    [seat |-> Seats \cup {"SideZ"},
     cost |-> {[r \in {"gold"} |-> n] : n \in {0, 1, 3, 4, 0 - 1}}
              \cup {[r \in {"gold", "mana"} |-> 1], [r \in {"mana"} |-> 3],
                    [r \in {"gems"} |-> 1]}]

Params_Gain ==
    [seat |-> Seats \cup {"SideZ"},
     gain |-> {[r \in {"gold"} |-> n] : n \in {1, 0 - 1}}
              \cup {[r \in {"mana"} |-> 2], [r \in {"gold", "mana"} |-> 1],
                    [r \in {"gems"} |-> 1]}]

Params_Draft ==
    [intents |-> {<<i>> : i \in Intents1} \cup {<<i, j>> : i, j \in Intents2},
     arbitration |-> {"allFail", "priority", "lottery"}, granted |-> {{}}]

=============================================================================
