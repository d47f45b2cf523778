----------------------------- MODULE Durations -----------------------------
(***************************************************************************)
(* Durations: reference profile, input revision 2, read from seed          *)
(* 002_7346ff58e0b15244.txt (prose only: every definition is authored).    *)
(*   a duration: [id, unit ("phase" | "turn" | "round"), remaining, order, *)
(*   created (when it was added: 1, 2, ...)]                               *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: duration = {created: Int, id: Int, order: Int, remaining: Int, unit: Str};
DurationTypes == TRUE

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Durations advance only on explicit phase, turn or round boundaries.
DurationUnits == {"phase", "turn", "round"}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Set($duration), Str) => Set($duration);
Expiring(active, unit) == {d \in active : d.unit = unit /\ d.remaining = 1}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* After a boundary of unit: its durations count down, the expiring ones end.
\* @type: (Set($duration), Str) => Set($duration);
AfterBoundary(active, unit) ==
    {IF d.unit = unit THEN [d EXCEPT !.remaining = @ - 1] ELSE d
     : d \in active \ Expiring(active, unit)}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Authored order: the product's order, then the order of creation (ids are minted
\* by counters or seeded draws: their order is not the authored one).
\* @type: ($duration, $duration) => Bool;
AuthoredBefore(a, b) == a.order < b.order \/ (a.order = b.order /\ a.created < b.created)

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Set($duration), Int) => $duration;
DurationWithId(active, id) == CHOOSE d \in active : d.id = id

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Simultaneous expiries are returned in authored order.
\* @type: (Seq(Int), Set($duration), Str) => Bool;
ExpiriesInAuthoredOrder(expired, active, unit) ==
    /\ Len(expired) = Cardinality(Expiring(active, unit))
    /\ {expired[i] : i \in 1..Len(expired)} = {d.id : d \in Expiring(active, unit)}
    /\ \A i \in 1..(Len(expired) - 1) :
           AuthoredBefore(DurationWithId(active, expired[i]),
                          DurationWithId(active, expired[i + 1]))
=============================================================================
