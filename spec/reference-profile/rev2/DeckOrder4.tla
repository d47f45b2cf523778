----------------------------- MODULE DeckOrder4 -----------------------------
(***************************************************************************)
(* Deck sequences (top first), their reordering and the hand projection.  *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* The identifiers a sequence holds.
\* @type: (Seq(Int)) => Set(Int);
SeqRange4(seq) == {seq[i] : i \in DOMAIN seq}

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* A deck is a sequence of identifiers (integers), no identifier twice (a deck
\* is a sequence by its type; `\in Seq(Nat)` is not for model checkers).
\* @type: (Seq(Int)) => Bool;
DeckSequenceValid4(deck) ==
    /\ \A i \in DOMAIN deck : deck[i] \in Nat
    /\ Cardinality(SeqRange4(deck)) = Len(deck)

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* Reordering preserves the contents; changing the order needs a direction or
\* search context (keeping it is always allowed); a search-completion contract
\* additionally requires the supplied shuffle to have occurred.
\* @type: (Seq(Int), Seq(Int), Bool, Bool, Bool) => Bool;
DeckReorder4(before, after, orderContext, searchCompletion, shuffleOccurred) ==
    /\ DeckSequenceValid4(before)
    /\ DeckSequenceValid4(after)
    /\ Len(after) = Len(before)
    /\ SeqRange4(after) = SeqRange4(before)
    /\ (after # before) => orderContext
    /\ searchCompletion => shuffleOccurred

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* A hand set projects a dealt sequence: positions dropped, membership and
\* cardinality kept.
\* @type: (Seq(Int), Set(Int)) => Bool;
HandSetupProjection4(dealt, hand) ==
    /\ DeckSequenceValid4(dealt)
    /\ \A id \in hand : id \in Nat
    /\ hand = SeqRange4(dealt)
    /\ Cardinality(hand) = Len(dealt)

=============================================================================
