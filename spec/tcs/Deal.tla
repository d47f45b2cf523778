-------------------------------- MODULE Deal --------------------------------
(***************************************************************************)
(* An authored TLA+ reading of the TCS taxonomy v0.8 `deal` verb           *)
(* (deal.json beside this module, published data, copied verbatim).        *)
(*                                                                         *)
(* Piles are sequences, top first.  A deal request is a record d with      *)
(*   d.source        the source pile                                       *)
(*   d.piles         the target piles, a sequence (TCS default <<target>>) *)
(*   d.countAll      TRUE for count "all"; then d.count is ignored         *)
(*   d.count         an integer >= 1 otherwise                             *)
(*   d.distribution  "round_robin" | "pile_by_pile"                        *)
(*   d.sourcePosition "top" | "bottom" | "index"; with "index" the         *)
(*                   integer >= 1 d.sourceIndex is the position (1 = top)  *)
(*   d.pilePosition  "top" | "bottom"                                      *)
(*   d.face          "face_up" | "face_down" | "kept"                      *)
(* The union-typed TCS parameters (count, source_position) are split into *)
(* a tag and an integer because TLC cannot compare strings with integers.  *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract.parameters
\* @type: ({count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Bool;
DealParamsValid(d) ==
    /\ d.countAll \in BOOLEAN
    /\ d.countAll \/ (d.count \in Nat /\ d.count >= 1)
    /\ Len(d.piles) >= 1
    /\ Cardinality({d.piles[j] : j \in 1..Len(d.piles)}) = Len(d.piles)
    /\ d.distribution \in {"round_robin", "pile_by_pile"}
    /\ d.sourcePosition \in {"top", "bottom", "index"}
    /\ d.sourcePosition = "index" => (d.sourceIndex \in Nat /\ d.sourceIndex >= 1)
    /\ d.pilePosition \in {"top", "bottom"}
    /\ d.face \in {"face_up", "face_down", "kept"}

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract.parameters.source_position
\* Cards available from the source position (from position k down for "index").
\* @type: (Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Int;
DealAvailable(src, d) ==
    IF d.sourcePosition = "index" THEN Len(src) - d.sourceIndex + 1 ELSE Len(src)

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract.parameters.count
\* @type: (Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Int;
DealCount(src, d) == IF d.countAll THEN DealAvailable(src, d) ELSE d.count

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract (project decision: an
\* out-of-range position, too large a count or nothing to deal is no deal)
\* @type: (Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Bool;
DealFeasible(src, d) ==
    /\ d.sourcePosition = "index" => d.sourceIndex <= Len(src)
    /\ DealCount(src, d) >= 1
    /\ DealCount(src, d) <= DealAvailable(src, d)

\* authored: 004_98e2a323b9d3ac3e.txt, post_state_invariant
\* The cards in departure order: "Cards leave source one at a time from
\* source_position" (from "index" k the next card is the one now at k).
\* @type: (Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Seq(Int);
DealDepartures(src, d) ==
    LET n == DealCount(src, d) IN
    CASE d.sourcePosition = "top" -> SubSeq(src, 1, n)
      [] d.sourcePosition = "bottom" ->
             LET bottom == SubSeq(src, Len(src) - n + 1, Len(src))
             IN  [i \in 1..Len(bottom) |-> bottom[Len(bottom) - i + 1]]
      [] OTHER -> SubSeq(src, d.sourceIndex, d.sourceIndex + n - 1)

\* authored: 004_98e2a323b9d3ac3e.txt, post_state_invariant
\* @type: (Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Seq(Int);
DealRemaining(src, d) ==
    LET n == DealCount(src, d) IN
    CASE d.sourcePosition = "top" -> SubSeq(src, n + 1, Len(src))
      [] d.sourcePosition = "bottom" -> SubSeq(src, 1, Len(src) - n)
      [] OTHER -> SubSeq(src, 1, d.sourceIndex - 1)
                  \o SubSeq(src, d.sourceIndex + n, Len(src))

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract.parameters.distribution
\* The pile (1..P) receiving the i-th of n departures.  round_robin deals
\* around the piles; pile_by_pile (project decision) gives each pile one
\* contiguous block, the first (n % P) piles one card more, so both
\* distributions give every pile the same number of cards.
\* @type: (Int, Int, Int, Str) => Int;
DealPileOf(i, n, P, distribution) ==
    IF distribution = "round_robin" THEN ((i - 1) % P) + 1
    ELSE LET q == n \div P
             big == (n % P) * (q + 1)
         IN  IF i <= big THEN ((i - 1) \div (q + 1)) + 1
             ELSE (n % P) + ((i - big - 1) \div q) + 1

\* authored: 004_98e2a323b9d3ac3e.txt, post_state_invariant
\* The cards pile j (1..P) receives, in departure order: the departures i with
\* DealPileOf(i, n, P, distribution) = j, in order.  Written without the set of
\* those i: round_robin gives pile j the departures j, j + P, j + 2P, ...;
\* pile_by_pile the block of q + 1 (the first n % P piles) or q cards after the
\* (j - 1) * q + Min(j - 1, n % P) before it (q = n \div P).  The same sequence,
\* which a model checker builds without counting sets.
\* @type: (Seq(Int), Int, Int, Str) => Seq(Int);
DealReceived(dep, P, j, distribution) ==
    LET n == Len(dep)
        q == n \div P
        r == n % P
        count == IF distribution = "round_robin"
                 THEN IF j <= n THEN ((n - j) \div P) + 1 ELSE 0
                 ELSE q + (IF j <= r THEN 1 ELSE 0)
        before == ((j - 1) * q) + (IF j - 1 < r THEN j - 1 ELSE r)
        \* @type: (Int) => Int;
        at(k) == IF distribution = "round_robin" THEN ((k - 1) * P) + j ELSE before + k
    IN  SubSeq([k \in 1..Len(dep) |-> dep[IF at(k) <= n THEN at(k) ELSE 1]], 1, count)

\* authored: 004_98e2a323b9d3ac3e.txt, post_state_invariant
\* @type: (Seq(Int)) => Seq(Int);
DealReverse(s) == [i \in 1..Len(s) |-> s[Len(s) - i + 1]]

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract.parameters.face
\* @type: (Set(Int), Set(Int), Str) => Set(Int);
DealFaces(faceUp, dealt, face) ==
    CASE face = "face_up" -> faceUp \cup dealt
      [] face = "face_down" -> faceUp \ dealt
      [] OTHER -> faceUp

\* authored: 004_98e2a323b9d3ac3e.txt, action_contract
\* The request is well-formed and can be carried out on these piles.
\* @type: (Str -> Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Bool;
DealEnabled(before, d) ==
    /\ DealParamsValid(d)
    /\ d.source \in DOMAIN before
    /\ \A j \in 1..Len(d.piles) : d.piles[j] \in DOMAIN before /\ d.piles[j] # d.source
    /\ DealFeasible(before[d.source], d)

\* authored: 004_98e2a323b9d3ac3e.txt, post_state.effects
\* The piles after the deal, constructed card by card (a function of before).
\* @type: (Str -> Seq(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Str -> Seq(Int);
DealPiles(before, d) ==
    LET dep == DealDepartures(before[d.source], d)
        P == Len(d.piles)
        \* The new contents of each receiving pile, by its place j in d.piles (built
        \* once, not once for each zone: a model checker builds every branch).
        \* @type: Seq(Seq(Int));
        gained == [j \in 1..Len(d.piles) |->
                      LET got == DealReceived(dep, P, j, d.distribution)
                      IN  IF d.pilePosition = "top" THEN DealReverse(got) \o before[d.piles[j]]
                          ELSE before[d.piles[j]] \o got]
        remaining == DealRemaining(before[d.source], d)
        \* @type: (Str) => Int;
        slot(z) == CHOOSE j \in 1..Len(d.piles) : d.piles[j] = z
    IN  [z \in DOMAIN before |->
            IF z = d.source THEN remaining
            ELSE IF \E j \in 1..Len(d.piles) : d.piles[j] = z THEN gained[slot(z)]
                 ELSE before[z]]

\* authored: 004_98e2a323b9d3ac3e.txt, post_state_invariant
\* The published invariant as a relation between the piles before and after:
\* cards leave the source from source_position; each receiving pile gains its
\* cards on top in reverse departure order (pile_position top) or at the bottom
\* in departure order (bottom); nothing else changes; no identity changes.
\* @type: (Str -> Seq(Int), Str -> Seq(Int), Set(Int), Set(Int), {count: Int, countAll: Bool, distribution: Str, face: Str, pilePosition: Str, piles: Seq(Str), source: Str, sourceIndex: Int, sourcePosition: Str, a}) => Bool;
DealPostState(before, after, faceUpBefore, faceUpAfter, d) ==
    LET src == before[d.source]
        dep == DealDepartures(src, d)
        P == Len(d.piles)
    IN  /\ DealEnabled(before, d)
        /\ DOMAIN after = DOMAIN before
        /\ after[d.source] = DealRemaining(src, d)
        /\ \A j \in 1..Len(d.piles) :
              LET pile == d.piles[j]
                  got == DealReceived(dep, P, j, d.distribution)
                  old == before[pile]
                  new == after[pile]
              IN  /\ Len(new) = Len(old) + Len(got)
                  /\ IF d.pilePosition = "top"
                     THEN /\ SubSeq(new, 1, Len(got)) = DealReverse(got)
                          /\ SubSeq(new, Len(got) + 1, Len(new)) = old
                     ELSE /\ SubSeq(new, 1, Len(old)) = old
                          /\ SubSeq(new, Len(old) + 1, Len(new)) = got
        /\ \A z \in DOMAIN before :
              (z # d.source /\ \A j \in 1..Len(d.piles) : d.piles[j] # z) => after[z] = before[z]
        /\ faceUpAfter = DealFaces(faceUpBefore, {dep[i] : i \in 1..Len(dep)}, d.face)

=============================================================================
