-------------------------- MODULE AbilityActivity --------------------------
(***************************************************************************)
(* Conformance module: presence, activity and permission to choose.       *)
(* abilities: ability id -> definition record; context: the activity       *)
(* context record (present, permittedRules, objects, facedownRestricted,   *)
(* departureHolds, persistentMembership); active: the ids the              *)
(* implementation reports active; chosen: set of [ability, chooser].       *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES abilities, context, active, chosen

ActiveIn(ctx) == {a \in DOMAIN abilities : AbilityActive9(abilities[a], ctx)}

\* p: [context]  (a new observation of the game state)
Observe(p) ==
    /\ context' = p.context
    /\ active' = ActiveIn(p.context)
    /\ UNCHANGED <<abilities, chosen>>

\* p: [ability, chooser, timingOk, targetsOk, affordable]
Choose(p) ==
    /\ p.ability \in DOMAIN abilities
    /\ AbilityChoosable9(abilities[p.ability], context, p.chooser, p.timingOk,
                         p.targetsOk, p.affordable)
    /\ chosen' = chosen \cup {[ability |-> p.ability, chooser |-> p.chooser]}
    /\ UNCHANGED <<abilities, context, active>>

ActiveIsComputed == active = ActiveIn(context)

SourcesFollowOrigins ==
    \A a \in DOMAIN abilities :
        /\ abilities[a].id = a
        /\ AbilityShape9(abilities[a].kind, abilities[a].instructions)
        /\ abilities[a].source = AbilitySource9(abilities[a].origin,
                                                abilities[a].provenance.printedObject,
                                                abilities[a].provenance.recipient,
                                                abilities[a].provenance.effectCreator,
                                                abilities[a].provenance.rule)

=============================================================================
