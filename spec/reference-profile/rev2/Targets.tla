------------------------------ MODULE Targets ------------------------------
(***************************************************************************)
(* Target choices and generic action enumeration: reference profile, input *)
(* revision 2, read from seed 002_7346ff58e0b15244.txt (prose only: every  *)
(* definition is authored).                                                *)
(*   board   zone -> set of entries (integers)                             *)
(*   spec    [id, zones, count, distinct, cap]  (a TargetSpec)             *)
(*   view    [choices |-> <<tuple, ...>>, truncated |-> BOOLEAN]           *)
(*   def     [id, params ("none" | "targets"), targetSpecId]               *)
(* TargetSpecs (id -> spec) are the product's specs; every spec given to   *)
(* these operators is one of them.                                         *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: targetSpec = {cap: Int, count: Int, distinct: Bool, id: Str, zones: Set(Str)};
\* @typeAlias: actionDefinition = {id: Str, params: Str, targetSpecId: Str};
\* @typeAlias: choiceView = {choices: Seq(Seq(Int)), truncated: Bool};
\* @typeAlias: concreteAction = {action: Str, targets: Seq(Int)};
TargetTypes == TRUE

CONSTANT
    \* @type: Str -> $targetSpec;
    TargetSpecs

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The greatest of a set of naturals (0 for none).
\* @type: (Set(Int)) => Int;
MaxOf(S) == IF S = {} THEN 0 ELSE CHOOSE m \in S : \A c \in S : c <= m

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The most targets a spec of the product names: a constant, so that a model
\* checker can bound the tuples (no spec's tuples are longer).
MaxTargetCount == MaxOf({TargetSpecs[s].count : s \in DOMAIN TargetSpecs})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The fields of a target choice view: the choices and the truncation flag, and no
\* other (an extra field could carry what the cap or the seat's policies withhold).
ChoiceViewFields == {"choices", "truncated"}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
ConcreteActionFields == {"action", "targets"}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: ($targetSpec, Str -> Set(Int)) => Set(Int);
Candidates(spec, board) == UNION {board[z] : z \in spec.zones}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The sequences of n elements of S, for n <= MaxTargetCount: the first n of a
\* sequence of MaxTargetCount (a length a model checker can bound).
\* @type: (Set(Int), Int) => Set(Seq(Int));
SeqsOfLength(S, n) ==
    IF n = 0 THEN {<<>>} ELSE {SubSeq(t, 1, n) : t \in [1..MaxTargetCount -> S]}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The concrete target tuples a spec admits (bounded: count targets from the board).
\* @type: ($targetSpec, Str -> Set(Int)) => Set(Seq(Int));
TargetTuples(spec, board) ==
    {t \in SeqsOfLength(Candidates(spec, board), spec.count) :
        spec.distinct => \A i, j \in DOMAIN t : i # j => t[i] # t[j]}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The number of k-tuples of n candidates: n^k, or n * (n - 1) * ... * (n - k + 1)
\* when the targets are distinct (0 when k > n); 1 when k = 0.  At most
\* MaxTargetCount factors (k <= MaxTargetCount), so that a model checker needs no
\* recursion to unroll.
\* @type: (Int, Int, Bool) => Int;
Arrangements(n, k, distinct) ==
    LET \* @type: (Int) => Int;
        Factor(i) == IF i > k THEN 1 ELSE IF ~distinct THEN n ELSE IF i > n THEN 0 ELSE n - (i - 1)
        Product[i \in 0..MaxTargetCount] == IF i = 0 THEN 1 ELSE Product[i - 1] * Factor(i)
    IN Product[MaxTargetCount]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* A bound on the counts that matter: one more than the greatest cap and the
\* greatest count of the product's specs.
CountBound == 1 + MaxOf({TargetSpecs[s].cap : s \in DOMAIN TargetSpecs} \cup {MaxTargetCount})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Arrangements(n, k, distinct) for n <= CountBound, k <= MaxTargetCount, at most
\* CountBound: a constant table, so that a model checker multiplies nothing.
\* @type: Bool -> (Int -> (Int -> Int));
CountTable ==
    [d \in BOOLEAN |-> [k \in 0..MaxTargetCount |-> [n \in 0..CountBound |->
        LET a == Arrangements(n, k, d) IN IF a > CountBound THEN CountBound ELSE a]]]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* How many target tuples a spec admits, counted up to spec.cap + 1 (the cap is all
\* that a view's count is compared with): Cardinality(TargetTuples(spec, board)),
\* or spec.cap + 1 when there are more.  Counted rather than enumerated, and looked
\* up rather than multiplied: n^k and n * (n - 1) * ... grow with n, so for n above
\* CountBound there are more than spec.cap.
\* @type: ($targetSpec, Str -> Set(Int)) => Int;
CappedCount(spec, board) ==
    LET n == Cardinality(Candidates(spec, board))
        c == CountTable[spec.distinct][spec.count][IF n > CountBound THEN CountBound ELSE n]
    IN IF c > spec.cap THEN spec.cap + 1 ELSE c

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Whether t is one of TargetTuples(spec, board), without building them: count
\* targets from the board, distinct when the spec says so.
\* @type: (Seq(Int), $targetSpec, Str -> Set(Int)) => Bool;
IsTargetTuple(t, spec, board) ==
    /\ Len(t) = spec.count
    /\ \A i \in 1..Len(t) : t[i] \in Candidates(spec, board)
    /\ spec.distinct => \A i, j \in 1..Len(t) : i # j => t[i] # t[j]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The canonical order of target tuples: lexicographic.
\* @type: (Seq(Int), Seq(Int)) => Bool;
LexBefore(a, b) == \E i \in 1..Len(a) : a[i] < b[i] /\ \A j \in 1..(i - 1) : a[j] = b[j]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* enumerateTargetChoices: the first cap tuples in canonical order, and whether
\* the cap truncated them (reported explicitly).  The tuples are counted, and each
\* choice tested, without building them (CappedCount, IsTargetTuple).
\* @type: ($choiceView, $targetSpec, Str -> Set(Int)) => Bool;
TargetChoicesOK(view, spec, board) ==
    LET all == TargetTuples(spec, board)
        listed == {view.choices[i] : i \in 1..Len(view.choices)}
    IN /\ view.truncated <=> CappedCount(spec, board) > spec.cap
       /\ \A i \in 1..Len(view.choices) : IsTargetTuple(view.choices[i], spec, board)
       /\ Len(view.choices) = IF CappedCount(spec, board) > spec.cap THEN spec.cap
                              ELSE CappedCount(spec, board)
       /\ \A i \in 1..(Len(view.choices) - 1) : LexBefore(view.choices[i], view.choices[i + 1])
       /\ \A t \in all \ listed, u \in listed : LexBefore(u, t)

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The complete legal surface: one concrete action per definition without
\* targets, one per target choice of a definition taking targets.
\* @type: (Set($actionDefinition), Str -> $targetSpec, Str -> Set(Int)) => Set($concreteAction);
ActionSurface(defs, specs, board) ==
    UNION {IF d.params = "targets"
           THEN {[action |-> d.id, targets |-> t] : t \in TargetTuples(specs[d.targetSpecId], board)}
           ELSE {[action |-> d.id, targets |-> <<>>]} : d \in defs}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Set($actionDefinition), Str -> $targetSpec, Str -> Set(Int)) => Set($actionDefinition);
TruncatedFor(defs, specs, board) ==
    {d \in defs : d.params = "targets"
                  /\ CappedCount(specs[d.targetSpecId], board) > specs[d.targetSpecId].cap}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Generic action enumeration refuses truncated sets: a partial legal surface
\* is never given for the complete one.
\* @type: ({actions: Set($concreteAction), refused: Bool, a}, Set($actionDefinition), Str -> $targetSpec, Str -> Set(Int)) => Bool;
ActionEnumerationOK(result, defs, specs, board) ==
    /\ result.refused <=> TruncatedFor(defs, specs, board) # {}
    /\ result.refused => result.actions = {}
    /\ ~result.refused => result.actions = ActionSurface(defs, specs, board)
=============================================================================
