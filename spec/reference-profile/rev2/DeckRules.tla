----------------------------- MODULE DeckRules -----------------------------
(***************************************************************************)
(* validateDeck: reference profile, input revision 2, read from seed       *)
(* 002_7346ff58e0b15244.txt (prose only: every definition is authored).    *)
(*   cards    a sequence of card ids     catalog  id -> [tags, faction]    *)
(*   rules    [minSize, maxSize, maxCopies, copyExempt, requiredTags       *)
(*             (tag -> minimum), forbiddenTags, factions, maxFactions]     *)
(*   a violation: [code, subject, limit, actual]                           *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: violation = {actual: Int, code: Str, limit: Int, subject: Str};
\* @typeAlias: catalog = Str -> {faction: Str, tags: Set(Str)};
\* @typeAlias: deckRules = {copyExempt: Set(Str), factions: Set(Str), forbiddenTags: Set(Str), maxCopies: Int, maxFactions: Int, maxSize: Int, minSize: Int, requiredTags: Str -> Int};
DeckRuleTypes == TRUE

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), Str) => Int;
Copies(cards, c) == Cardinality({i \in 1..Len(cards) : cards[i] = c})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str)) => Set(Str);
Listed(cards) == {cards[i] : i \in 1..Len(cards)}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Str, Str, Int, Int) => $violation;
Violation(code, subject, limit, actual) ==
    [code |-> code, subject |-> subject, limit |-> limit, actual |-> actual]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), $catalog) => Set($violation);
UnknownCards(cards, catalog) ==
    {Violation("unknown_card", c, 0, Copies(cards, c)) : c \in Listed(cards) \ DOMAIN catalog}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Size constraints.
\* @type: (Seq(Str), $deckRules) => Set($violation);
SizeViolations(cards, rules) ==
    (IF Len(cards) < rules.minSize
     THEN {Violation("too_few", "", rules.minSize, Len(cards))} ELSE {})
    \cup (IF Len(cards) > rules.maxSize
          THEN {Violation("too_many", "", rules.maxSize, Len(cards))} ELSE {})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Copies constraints (cards with an exempt tag are unlimited).
\* @type: (Seq(Str), $catalog, $deckRules) => Set($violation);
CopyViolations(cards, catalog, rules) ==
    {Violation("copies", c, rules.maxCopies, Copies(cards, c))
     : c \in {c \in Listed(cards) \cap DOMAIN catalog :
                 catalog[c].tags \cap rules.copyExempt = {}
                 /\ Copies(cards, c) > rules.maxCopies}}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), $catalog, Str) => Int;
TagCount(cards, catalog, t) ==
    Cardinality({i \in 1..Len(cards) : cards[i] \in DOMAIN catalog
                                       /\ t \in catalog[cards[i]].tags})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Tag constraints: minimum counts and forbidden tags.
\* @type: (Seq(Str), $catalog, $deckRules) => Set($violation);
TagViolations(cards, catalog, rules) ==
    {Violation("tag_minimum", t, rules.requiredTags[t], TagCount(cards, catalog, t))
     : t \in {t \in DOMAIN rules.requiredTags :
                 TagCount(cards, catalog, t) < rules.requiredTags[t]}}
    \cup {Violation("tag_forbidden", t, 0, TagCount(cards, catalog, t))
          : t \in {t \in rules.forbiddenTags : TagCount(cards, catalog, t) > 0}}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), $catalog) => Set(Str);
FactionsOf(cards, catalog) == {catalog[c].faction : c \in Listed(cards) \cap DOMAIN catalog}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), $catalog, Str) => Int;
FactionCount(cards, catalog, f) ==
    Cardinality({i \in 1..Len(cards) : cards[i] \in DOMAIN catalog
                                       /\ catalog[cards[i]].faction = f})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Faction constraints: allowed factions and how many a list may mix.
\* @type: (Seq(Str), $catalog, $deckRules) => Set($violation);
FactionViolations(cards, catalog, rules) ==
    {Violation("faction", f, 0, FactionCount(cards, catalog, f))
     : f \in FactionsOf(cards, catalog) \ rules.factions}
    \cup (IF Cardinality(FactionsOf(cards, catalog)) > rules.maxFactions
          THEN {Violation("faction_count", "", rules.maxFactions,
                          Cardinality(FactionsOf(cards, catalog)))}
          ELSE {})

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), $catalog, $deckRules) => Set($violation);
DeckViolations(cards, catalog, rules) ==
    UnknownCards(cards, catalog) \cup SizeViolations(cards, rules)
    \cup CopyViolations(cards, catalog, rules) \cup TagViolations(cards, catalog, rules)
    \cup FactionViolations(cards, catalog, rules)

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* validateDeck returns exactly the structured violations, rule by rule.
\* @type: (Set($violation), Seq(Str), $catalog, $deckRules) => Bool;
ValidateDeckOK(violations, cards, catalog, rules) ==
    LET coded(codes) == {v \in violations : v.code \in codes}
    IN /\ coded({"unknown_card"}) = UnknownCards(cards, catalog)
       /\ coded({"too_few", "too_many"}) = SizeViolations(cards, rules)
       /\ coded({"copies"}) = CopyViolations(cards, catalog, rules)
       /\ coded({"tag_minimum", "tag_forbidden"}) = TagViolations(cards, catalog, rules)
       /\ coded({"faction", "faction_count"}) = FactionViolations(cards, catalog, rules)
       /\ violations = DeckViolations(cards, catalog, rules)
=============================================================================
