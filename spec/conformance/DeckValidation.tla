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

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the helper reports (rules, violations) are replaced by its answer; their sets here only
\* classify a request as allowed or not.
\* Lists: every one or two catalog cards, and lists that are legal or one change away.
\* @type: Set(Seq(Str));
Lists ==
    {<<a>> : a \in DOMAIN Catalog} \cup {<<a, b>> : a, b \in DOMAIN Catalog}
    \cup {<<"c2", "c2", "c3", "c1", "c1", "c1">>, <<"c2", "c2", "c3", "c1", "c1">>,
          <<"c2", "c2", "c2", "c3", "c1", "c1", "c1">>, <<"c2", "c3", "c1", "c1", "c1", "c4">>,
          <<"c3", "c2", "c6">>, <<"c3", "c2", "c7">>, <<"c3", "c3", "c2">>, <<"c4", "c7">>,
          <<"c4", "c7", "x9">>, <<"c1", "c1", "c1", "c1", "c1", "c1", "c1", "c1", "c1", "c1",
                                 "c1">>}

\* The rules of the three formats the helper's scenarios validate against (requiredTags
\* as functions, so that a type checker finds one record type).
Formats ==
    {[copyExempt |-> {"basic"}, factions |-> {"blue", "neutral", "red"},
      forbiddenTags |-> {"banned"}, maxCopies |-> 2, maxFactions |-> 2, maxSize |-> 10,
      minSize |-> 6, requiredTags |-> [t \in {"unit"} |-> 2]],
     [copyExempt |-> {}, factions |-> {"green", "red"}, forbiddenTags |-> {}, maxCopies |-> 1,
      maxFactions |-> 1, maxSize |-> 4, minSize |-> 3, requiredTags |-> [t \in {"elite"} |-> 1]],
     [copyExempt |-> {}, factions |-> {"blue", "green", "neutral", "red"},
      forbiddenTags |-> {"unit"}, maxCopies |-> 1, maxFactions |-> 4, maxSize |-> 3,
      minSize |-> 1, requiredTags |-> [t \in {} |-> 0]]}

Params_Validate ==
    [kind |-> ListKinds \cup {"", "sideboard"}, format |-> {"deck", "squad", "loadout"},
     cards |-> Lists, rules |-> Formats, violations |-> {{}}]

Params_Submit ==
    [owner |-> {"SideA", "SideB"}, format |-> {"deck", "squad", "loadout"}, cards |-> Lists,
     rules |-> Formats]

=============================================================================
