-------------------------- MODULE KeywordLayering --------------------------
(***************************************************************************)
(* Conformance module: KeywordRegistry and resolveKeywordLayers.           *)
(*   registry  keyword -> [registration, effects]  (registration order)    *)
(*   grants    set of [keyword, source, acquired]                          *)
(*   clock     the last acquisition time                                   *)
(* Register(p): p.keyword, p.effects (<<[name, layer]>>, authored order)    *)
(* Acquire(p):  p.keyword, p.sources (objects acquiring it together)       *)
(* Lose(p):     p.keyword, p.source                                        *)
(* Resolve(p):  p.order (the layered effects the implementation resolved)  *)
(***************************************************************************)
EXTENDS KeywordLayers

VARIABLES
    \* @type: Str -> $keywordEntry;
    registry,
    \* @type: Set($grant);
    grants,
    \* @type: Int;
    clock

vars == <<registry, grants, clock>>

\* @type: (Str, Int) => Bool;
Held(k, s) == \E g \in grants : g.keyword = k /\ g.source = s

\* @type: ({effects: Seq({layer: Int, name: Str}), keyword: Str}) => Bool;
Register(p) ==
    /\ p.keyword \notin DOMAIN registry
    /\ registry' = [k \in DOMAIN registry \cup {p.keyword} |->
                       IF k = p.keyword
                       THEN [registration |-> Cardinality(DOMAIN registry) + 1,
                             effects |-> p.effects]
                       ELSE registry[k]]
    /\ UNCHANGED <<grants, clock>>

\* @type: ({keyword: Str, sources: Set(Int)}) => Bool;
Acquire(p) ==
    /\ p.keyword \in DOMAIN registry
    /\ p.sources # {}
    /\ \A s \in p.sources : ~Held(p.keyword, s)
    /\ clock' = clock + 1
    /\ grants' = grants \cup {[keyword |-> p.keyword, source |-> s, acquired |-> clock + 1]
                              : s \in p.sources}
    /\ UNCHANGED registry

\* @type: ({keyword: Str, source: Int}) => Bool;
Lose(p) ==
    /\ Held(p.keyword, p.source)
    /\ grants' = {g \in grants : ~(g.keyword = p.keyword /\ g.source = p.source)}
    /\ UNCHANGED <<registry, clock>>

\* @type: ({order: Seq($layeredEffect)}) => Bool;
Resolve(p) ==
    /\ ResolvedKeywordLayers(p.order, registry, grants)
    /\ UNCHANGED vars

GrantsRegistered == \A g \in grants : g.keyword \in DOMAIN registry

OneGrantPerSource ==
    \A g, h \in grants : (g.keyword = h.keyword /\ g.source = h.source) => g = h

AcquiredInThePast == \A g \in grants : g.acquired \in 1..clock

\* The registrations are 1..n for n keywords: each in 1..n, no two alike (bounds
\* rather than a range: Apalache needs a range's bounds to be constants).
RegistrationOrder ==
    \A k \in DOMAIN registry :
        /\ 1 <= registry[k].registration
        /\ registry[k].registration <= Cardinality(DOMAIN registry)
        /\ \A l \in DOMAIN registry : registry[l].registration = registry[k].registration => l = k

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the helper reports (effects, order) are replaced by its answer; their sets here only
\* classify a request as allowed or not.
KeywordNames == {"ward", "haste", "aura", "echo", "flight"}

Params_Register == [keyword |-> KeywordNames, effects |-> {<<>>}]

Params_Acquire == [keyword |-> KeywordNames, sources |-> SUBSET {11, 12, 13, 14}]

Params_Lose == [keyword |-> KeywordNames, source |-> {11, 12, 13, 14}]

Params_Resolve == [order |-> {<<>>}]

=============================================================================
