--------------------------- MODULE DeckValidation ---------------------------
(***************************************************************************)
(* Conformance module: validateDeck on decks, squads and loadouts.        *)
(*   Catalog     card id -> [tags, faction]                                *)
(*   registered  the lists accepted, [owner, format, cards]                *)
(* Validate(p): p.kind (deck, squad or loadout: the same constraints for   *)
(*              each), p.cards, p.rules, p.violations (what it returned)   *)
(* Submit(p):   p.owner, p.format, p.cards, p.rules (a legal list, the     *)
(*              owner's first in that format)                              *)
(***************************************************************************)
EXTENDS DeckRules

CONSTANT
    \* @type: $catalog;
    Catalog

VARIABLES
    \* @type: Set({cards: Seq(Str), format: Str, owner: Str});
    registered

\* The kinds of list validateDeck takes, all under the same constraints.
ListKinds == {"deck", "squad", "loadout"}

\* @type: ({cards: Seq(Str), kind: Str, rules: $deckRules, violations: Set($violation)}) => Bool;
Validate(p) ==
    /\ p.kind \in ListKinds
    /\ ValidateDeckOK(p.violations, p.cards, Catalog, p.rules)
    /\ UNCHANGED registered

\* @type: ({cards: Seq(Str), format: Str, owner: Str, rules: $deckRules}) => Bool;
Submit(p) ==
    /\ DeckViolations(p.cards, Catalog, p.rules) = {}
    /\ \A r \in registered : ~(r.owner = p.owner /\ r.format = p.format)
    /\ registered' = registered \cup {[owner |-> p.owner, format |-> p.format, cards |-> p.cards]}

OneListPerOwnerAndFormat ==
    \A a, b \in registered : (a.owner = b.owner /\ a.format = b.format) => a = b
=============================================================================
