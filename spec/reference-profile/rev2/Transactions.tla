---------------------------- MODULE Transactions ----------------------------
(***************************************************************************)
(* Costs and drafts: reference profile, input revision 2, read from seed   *)
(* 002_7346ff58e0b15244.txt (prose only: every definition is authored).    *)
(*   pool      resource -> amount        cost  resource -> amount          *)
(*   intents   set of [seat, item]       priority  a sequence of seats     *)
(***************************************************************************)
EXTENDS Naturals, Sequences

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Costs remain resource transactions: every resource is there to pay.
\* @type: (Str -> Int, Str -> Int) => Bool;
CanPay(pool, cost) == \A r \in DOMAIN cost : r \in DOMAIN pool /\ pool[r] >= cost[r]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* ... and all of it is paid at once.
\* @type: (Str -> Int, Str -> Int) => (Str -> Int);
Paid(pool, cost) == [r \in DOMAIN pool |-> IF r \in DOMAIN cost THEN pool[r] - cost[r] ELSE pool[r]]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Set({item: Str, seat: Str}), Str) => Set(Str);
Claimants(intents, item) == {i.seat : i \in {j \in intents : j.item = item}}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Set({item: Str, seat: Str}), Str) => Bool;
Contested(intents, item) == \E i, j \in intents : i.item = item /\ j.item = item /\ i # j

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), Str) => Int;
SeatRank(priority, s) == CHOOSE k \in 1..Len(priority) : priority[k] = s

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Draft picks are simultaneous intents: uncontested available claims succeed;
\* contested ones all fail, or go to the claimant first in priority.
\* @type: (Set({item: Str, seat: Str}), Set({item: Str, seat: Str}), Set(Str), Str, Seq(Str)) => Bool;
ArbitrationOK(granted, intents, available, arbitration, priority) ==
    /\ granted \subseteq {i \in intents : i.item \in available}
    /\ \A g, h \in granted : g.item = h.item => g = h
    /\ \A i \in intents : (i.item \in available /\ ~Contested(intents, i.item)) => i \in granted
    /\ arbitration = "allFail" => \A g \in granted : ~Contested(intents, g.item)
    /\ arbitration = "priority" =>
           \A i \in intents : (i.item \in available /\ Contested(intents, i.item)) =>
               (i \in granted <=> \A s \in Claimants(intents, i.item) :
                                      SeatRank(priority, i.seat) <= SeatRank(priority, s))
=============================================================================
