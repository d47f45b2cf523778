--------------------------- MODULE KeywordLayers ---------------------------
(***************************************************************************)
(* Keyword layers: reference profile, input revision 2, read from seed    *)
(* 002_7346ff58e0b15244.txt, which states the rule in prose only, so every *)
(* definition here is authored and marked so.                             *)
(*   registry  keyword -> [registration |-> n, effects |-> <<[name, layer]>>] *)
(*   grants    set of [keyword, source, acquired]                          *)
(*   a layered effect: [keyword, effect, layer, registration, acquired,    *)
(*                      source, activeOrder]                               *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: keywordEntry = {effects: Seq({layer: Int, name: Str}), registration: Int};
\* @typeAlias: grant = {acquired: Int, keyword: Str, source: Int};
\* @typeAlias: layeredEffect = {acquired: Int, activeOrder: Int, effect: Str, keyword: Str, layer: Int, registration: Int, source: Int};
KeywordLayerTypes == TRUE

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Every effect the grants put in play: each authored effect of each granted
\* keyword, with its authored active order (its position in the keyword).
\* @type: (Str -> $keywordEntry, Set($grant)) => Set($layeredEffect);
GrantedEffects(registry, grants) ==
    UNION {{[keyword |-> g.keyword, effect |-> registry[g.keyword].effects[i].name,
             layer |-> registry[g.keyword].effects[i].layer,
             registration |-> registry[g.keyword].registration,
             acquired |-> g.acquired, source |-> g.source, activeOrder |-> i]
            : i \in 1..Len(registry[g.keyword].effects)} : g \in grants}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* a may come right before b: ordered by layer, then registration order, then
\* acquisition time, then source id, then authored active order (field by field,
\* not as tuples: Apalache's type checker cannot tell a tuple from a sequence there).
\* @type: ($layeredEffect, $layeredEffect) => Bool;
LayerOrdered(a, b) ==
    /\ a.layer <= b.layer
    /\ a.layer = b.layer => a.registration <= b.registration
    /\ (a.layer = b.layer /\ a.registration = b.registration)
           => a.acquired <= b.acquired
    /\ (a.layer = b.layer /\ a.registration = b.registration /\ a.acquired = b.acquired)
           => a.source <= b.source
    /\ (a.layer = b.layer /\ a.registration = b.registration /\ a.acquired = b.acquired
        /\ a.source = b.source)
           => a.activeOrder < b.activeOrder

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* resolveKeywordLayers: order lists every granted effect exactly once, in layer order.
\* @type: (Seq($layeredEffect), Str -> $keywordEntry, Set($grant)) => Bool;
ResolvedKeywordLayers(order, registry, grants) ==
    /\ Len(order) = Cardinality(GrantedEffects(registry, grants))
    /\ {order[i] : i \in 1..Len(order)} = GrantedEffects(registry, grants)
    /\ \A i \in 1..(Len(order) - 1) : LayerOrdered(order[i], order[i + 1])
=============================================================================
