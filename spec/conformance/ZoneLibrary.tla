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
(* at another version is stale and must be refused.                        *)
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

\* @type: (Seq(Int)) => Set(Int);
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
