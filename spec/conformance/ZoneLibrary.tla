----------------------------- MODULE ZoneLibrary -----------------------------
(***************************************************************************)
(* Conformance module: the zone library's policy axes, beyond the two-seat *)
(* profile (authored: 002_7346ff58e0b15244.txt, zone library behaviour).   *)
(* policy: zone -> [access, order, capacity, custody] (capacity -1 = none; *)
(*   access lifo/fifo/anyIndex/slots, order ordered/bag/sparse);           *)
(* lists: ordered zone -> sequence, TOP FIRST; bags: bag zone -> set (its  *)
(*   internal order is hidden, so the mapping records none); slots: sparse *)
(*   zone -> [slot key -> set of at most one entry]; transit: entry in a   *)
(*   custody zone -> [origin, effect, ability]; version: the collection's  *)
(*   version, one more after every committed change.                       *)
(* Transfer(p) commits a plan made at version p.planVersion: a plan made   *)
(* at another version is stale and must be refused.  Draw(p) and Deal(p)   *)
(* are the library's draw (top, front, or a seeded bag sample) and its     *)
(* round-robin and batch deals (see their comments).                       *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

VARIABLES
    \* @type: Str -> {access: Str, capacity: Int, custody: Bool, order: Str};
    policy,
    \* @type: Str -> Seq(Int);
    lists,
    \* @type: Str -> Set(Int);
    bags,
    \* @type: Str -> (Str -> Set(Int));
    slots,
    \* @type: Int -> {ability: Str, effect: Str, origin: Str};
    transit,
    \* @type: Int;
    version

Zones == DOMAIN policy

\* @type: (Seq(a)) => Set(a);
Range(s) == {s[i] : i \in DOMAIN s}

\* @type: (Seq(Int)) => Seq(Int);
Rev(s) == [i \in 1..Len(s) |-> s[Len(s) - i + 1]]

\* @type: (Str) => Set(Int);
Members(z) ==
    CASE policy[z].order = "ordered" -> Range(lists[z])
      [] policy[z].order = "bag" -> bags[z]
      [] OTHER -> UNION {slots[z][k] : k \in DOMAIN slots[z]}

\* @type: (Str) => Int;
Count(z) == Cardinality(Members(z))

\* The entries may leave the source in this order: the top ones (lifo), the
\* front ones -- the oldest, at the bottom -- (fifo), or any (anyIndex, slots).
\* @type: (Str, Seq(Int)) => Bool;
Taken(z, es) ==
    CASE policy[z].access = "lifo" -> es = SubSeq(lists[z], 1, Len(es))
      [] policy[z].access = "fifo" -> es = SubSeq(Rev(lists[z]), 1, Len(es))
      [] OTHER -> TRUE

\* @type: (Str, Int) => Bool;
Fits(z, k) == policy[z].capacity < 0 \/ Count(z) + k <= policy[z].capacity

\* @type: (Str, {ability: Str, custody: Bool, depth: Int, destination: Str, effect: Str, entries: Seq(Int), insert: Str, planVersion: Int, slot: Str, source: Str}) => Bool;
SlotOk(z, p) ==
    IF policy[z].order = "sparse"
    THEN /\ p.slot \in DOMAIN slots[z]
         /\ Len(p.entries) = 1
         /\ slots[z][p.slot] = {}
    ELSE p.slot = ""

\* Where arrivals go in an ordered destination: each on top (so they end up
\* reversed), at the bottom in departure order, or at a depth (anyIndex only).
\* @type: (Str, {ability: Str, custody: Bool, depth: Int, destination: Str, effect: Str, entries: Seq(Int), insert: Str, planVersion: Int, slot: Str, source: Str}) => Bool;
InsertOk(z, p) ==
    policy[z].order = "ordered" =>
        \/ p.insert \in {"top", "bottom"}
        \/ /\ p.insert = "depth"
           /\ policy[z].access = "anyIndex"
           /\ p.depth \in 0..Len(lists[z])

\* @type: (Seq(Int), {ability: Str, custody: Bool, depth: Int, destination: Str, effect: Str, entries: Seq(Int), insert: Str, planVersion: Int, slot: Str, source: Str}) => Seq(Int);
Inserted(l, p) ==
    CASE p.insert = "top" -> Rev(p.entries) \o l
      [] p.insert = "bottom" -> l \o p.entries
      [] OTHER -> SubSeq(l, 1, p.depth) \o p.entries \o SubSeq(l, p.depth + 1, Len(l))

\* @type: (Seq(Int), Set(Int)) => Seq(Int);
Without(l, es) == SelectSeq(l, LAMBDA e : e \notin es)

\* p: [entries (departure order), source, destination, insert ("top", "bottom",
\*     "depth"), depth, slot ("" = none), custody (a transit record given),
\*     effect, ability, planVersion]
\* @type: ({ability: Str, custody: Bool, depth: Int, destination: Str, effect: Str, entries: Seq(Int), insert: Str, planVersion: Int, slot: Str, source: Str}) => Bool;
Transfer(p) ==
    LET es == Range(p.entries)
        src == p.source
        dst == p.destination
    IN  /\ p.planVersion = version
        /\ src \in Zones
        /\ dst \in Zones
        /\ src # dst
        /\ Len(p.entries) >= 1
        /\ Cardinality(es) = Len(p.entries)
        /\ es \subseteq Members(src)
        /\ Taken(src, p.entries)
        /\ Fits(dst, Len(p.entries))
        /\ SlotOk(dst, p)
        /\ InsertOk(dst, p)
        /\ policy[dst].custody => p.custody
        /\ lists' = [z \in DOMAIN lists |->
                        IF z = src THEN Without(lists[z], es)
                        ELSE IF z = dst THEN Inserted(lists[z], p) ELSE lists[z]]
        /\ bags' = [z \in DOMAIN bags |->
                       IF z = src THEN bags[z] \ es
                       ELSE IF z = dst THEN bags[z] \cup es ELSE bags[z]]
        /\ slots' = [z \in DOMAIN slots |->
                        IF z = src THEN [k \in DOMAIN slots[z] |-> slots[z][k] \ es]
                        ELSE IF z = dst THEN [slots[z] EXCEPT ![p.slot] = es]
                        ELSE slots[z]]
        /\ transit' = [e \in (DOMAIN transit \ es) \cup
                                 (IF policy[dst].custody THEN es ELSE {}) |->
                          IF e \in es
                          THEN [origin |-> src, effect |-> p.effect, ability |-> p.ability]
                          ELSE transit[e]]
        /\ version' = version + 1
        /\ UNCHANGED policy

\* p: [zone, seed, result (top first)]
\* @type: ({result: Seq(Int), seed: Int, zone: Str}) => Bool;
Shuffle(p) ==
    /\ p.zone \in DOMAIN lists
    /\ p.seed \in Nat
    /\ Len(p.result) = Len(lists[p.zone])
    /\ Range(p.result) = Range(lists[p.zone])
    /\ lists' = [lists EXCEPT ![p.zone] = p.result]
    /\ version' = version + 1
    /\ UNCHANGED <<policy, bags, slots, transit>>

\* The entries a draw of k takes from an ordered zone, in departure order: the top ones,
\* or the front ones (the bottom) of a fifo zone.
\* @type: (Str, Seq(Int), Int) => Seq(Int);
Departing(z, l, k) == IF policy[z].access = "fifo" THEN SubSeq(Rev(l), 1, k) ELSE SubSeq(l, 1, k)

\* A transfer of es from src to dst at version v, as drawn (each arrival on top, or the
\* bottom for insert "bottom").
\* @type: (Seq(Int), Str, Str, Str) => {ability: Str, custody: Bool, depth: Int, destination: Str, effect: Str, entries: Seq(Int), insert: Str, planVersion: Int, slot: Str, source: Str};
Moved(es, src, dst, ins) ==
    [entries |-> es, source |-> src, destination |-> dst, insert |-> ins, depth |-> 0,
     slot |-> "", custody |-> FALSE, effect |-> "", ability |-> "", planVersion |-> version]

\* The ascending sequence of a finite set of entries.
\* @type: (Set(Int)) => Seq(Int);
Ascending(S) ==
    [i \in 1..Cardinality(S) |-> CHOOSE x \in S : Cardinality({y \in S : y < x}) = i - 1]

\* The entries a draw takes: for a bag, the product's sample when it is one (k distinct
\* entries of the bag), else the first k in ascending order (any sample decides the same
\* guards); for an ordered zone, its top (front) ones.
\* @type: ({count: Int, destination: Str, insert: Str, result: Seq(Int), seed: Int, source: Str}) => Seq(Int);
Drawn(p) ==
    IF policy[p.source].order = "bag"
    THEN IF /\ Len(p.result) = p.count
            /\ Range(p.result) \subseteq bags[p.source]
            /\ Cardinality(Range(p.result)) = p.count
         THEN p.result
         ELSE SubSeq(Ascending(bags[p.source]), 1, p.count)
    ELSE Departing(p.source, lists[p.source], p.count)

\* p: [source, destination, count, insert ("top" | "bottom"), seed (-1 = none), result
\*     (the entries drawn, departure order; <<>> when the draw is refused)]: the top (the
\*     front for fifo) of an ordered zone, or a seeded sample of a bag.
\* @type: ({count: Int, destination: Str, insert: Str, result: Seq(Int), seed: Int, source: Str}) => Bool;
Draw(p) ==
    /\ p.source \in Zones
    /\ p.count >= 1
    /\ p.count <= Count(p.source)
    /\ policy[p.source].order # "sparse"
    /\ policy[p.source].order = "bag" => p.seed >= 0
    /\ p.insert \in {"top", "bottom"}
    /\ p.result \in {Drawn(p), <<>>}
    /\ Transfer(Moved(Drawn(p), p.source, p.destination, p.insert))

\* p: [mode ("roundRobin" | "batches"), source, destinations (a sequence), per (entries
\*     each destination gets), seed (-1 = no shuffle first), result (the source, top first,
\*     after the shuffle; as it was when the deal is refused)]: a shuffle when seeded, then one entry at a time around the
\*     destinations, or one batch of per entries to each; every arrival on top.
\* @type: ({destinations: Seq(Str), mode: Str, per: Int, result: Seq(Int), seed: Int, source: Str}) => Bool;
Deal(p) ==
    LET src == p.source
        n == Len(p.destinations)
        ds == Range(p.destinations)
        dep == Departing(src, p.result, p.per * n)
        \* the departures the j-th destination receives, in order
        Got(j) == IF p.mode = "roundRobin"
                  THEN [k \in 1..p.per |-> dep[(k - 1) * n + j]]
                  ELSE SubSeq(dep, (j - 1) * p.per + 1, j * p.per)
        Slot(d) == CHOOSE j \in 1..Len(p.destinations) : p.destinations[j] = d
    IN  /\ p.mode \in {"roundRobin", "batches"}
        /\ n >= 1
        /\ Cardinality(ds) = n
        /\ src \in DOMAIN lists
        /\ src \notin ds
        /\ ds \subseteq Zones
        /\ p.per >= 1
        /\ p.per * n <= Len(lists[src])
        /\ IF p.seed >= 0 THEN /\ Len(p.result) = Len(lists[src])
                                /\ Range(p.result) = Range(lists[src])
                          ELSE p.result = lists[src]
        /\ \A d \in ds : /\ policy[d].order # "sparse"
                        /\ ~policy[d].custody
                        /\ Fits(d, p.per)
        /\ lists' = [z \in DOMAIN lists |->
                        IF z = src THEN SelectSeq(p.result, LAMBDA e : e \notin Range(dep))
                        ELSE IF z \in ds THEN Rev(Got(Slot(z))) \o lists[z] ELSE lists[z]]
        /\ bags' = [z \in DOMAIN bags |->
                       IF z \in ds THEN bags[z] \cup Range(Got(Slot(z))) ELSE bags[z]]
        /\ transit' = [e \in DOMAIN transit \ Range(dep) |-> transit[e]]
        /\ version' = version + (IF p.seed >= 0 THEN 1 ELSE 0)
                              + (IF p.mode = "roundRobin" THEN p.per * n ELSE n)
        /\ UNCHANGED <<policy, slots>>

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* entries are single entries, the top two and the front two of each list zone, a
\* duplicate and none; a plan is made now or one version ago.  result is the
\* implementation's (what it drew, or the order it shuffled to); the sets here only
\* classify a request as allowed or not.
Entries == UNION {Members(z) : z \in Zones}

Pairs == {y \in DOMAIN lists : Len(lists[y]) >= 2}

Params_Transfer ==
    [entries |-> {<<e>> : e \in Entries \cup {99}} \cup {<<>>}
                 \cup {SubSeq(lists[z], 1, 2) : z \in Pairs}
                 \cup {SubSeq(Rev(lists[z]), 1, 2) : z \in Pairs}
                 \cup {<<lists[z][1], lists[z][1]>> : z \in Pairs},
     source |-> Zones \cup {"nowhere"}, destination |-> Zones \cup {"nowhere"},
     insert |-> {"top", "bottom", "depth", "side"}, depth |-> {0, 1, 9},
     slot |-> {"", "a", "b", "z"}, custody |-> BOOLEAN, effect |-> {"effect-0"},
     ability |-> {"ability-0"}, planVersion |-> {version, version - 1}]

Params_Draw ==
    [source |-> Zones \cup {"nowhere"}, destination |-> Zones, count |-> {0, 1, 2, 9},
     insert |-> {"top", "bottom"}, seed |-> {0 - 1, 3}, result |-> {<<>>}]

Params_Deal ==
    [mode |-> {"roundRobin", "batches"}, source |-> Zones,
     destinations |-> {<<>>} \cup {<<a>> : a \in Zones} \cup {<<a, b>> : a, b \in Zones},
     per |-> {0, 1, 2}, seed |-> {0 - 1, 11}, result |-> {lists[z] : z \in DOMAIN lists}]

Params_Shuffle ==
    [zone |-> Zones, seed |-> {0, 5, 0 - 1}, result |-> {lists[z] : z \in DOMAIN lists}]

EntriesUnique ==
    /\ \A a, b \in Zones : a # b => Members(a) \cap Members(b) = {}
    /\ \A z \in DOMAIN lists : Cardinality(Range(lists[z])) = Len(lists[z])
    /\ \A z \in DOMAIN slots : \A k \in DOMAIN slots[z] : Cardinality(slots[z][k]) <= 1

ContentsMatchPolicy ==
    /\ DOMAIN lists = {z \in Zones : policy[z].order = "ordered"}
    /\ DOMAIN bags = {z \in Zones : policy[z].order = "bag"}
    /\ DOMAIN slots = {z \in Zones : policy[z].order = "sparse"}

CapacityRespected == \A z \in Zones : policy[z].capacity < 0 \/ Count(z) <= policy[z].capacity

CustodyTracked ==
    DOMAIN transit = UNION {Members(z) : z \in {y \in Zones : policy[y].custody}}

=============================================================================
