-------------------------- MODULE AbilityActivity --------------------------
(***************************************************************************)
(* Conformance module: presence, activity and permission to choose.       *)
(* abilities: ability id -> definition record; context: the activity       *)
(* context record (present, permittedRules, objects, facedownRestricted,   *)
(* departureHolds, persistentMembership); active: the ids the              *)
(* implementation reports active; chosen: set of [ability, chooser].       *)
(* View(p): what p.viewer is shown of an ability: activity grants no right *)
(* to hidden metadata, so an ability whose source object is face down      *)
(* shows its id alone to everyone but the object's controller.             *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES
    \* @type: Str -> $abilityDefinition;
    abilities,
    \* @type: $activityContext;
    context,
    \* @type: Set(Str);
    active,
    \* @type: Set({ability: Str, chooser: Str});
    chosen

\* @type: ($activityContext) => Set(Str);
ActiveIn(ctx) == {a \in DOMAIN abilities : AbilityActive9(abilities[a], ctx)}

\* p: [context]  (a new observation of the game state)
\* @type: ({context: $activityContext}) => Bool;
Observe(p) ==
    /\ context' = p.context
    /\ active' = ActiveIn(p.context)
    /\ UNCHANGED <<abilities, chosen>>

\* p: [ability, chooser, timingOk, targetsOk, affordable]
\* @type: ({ability: Str, affordable: Bool, chooser: Str, targetsOk: Bool, timingOk: Bool}) => Bool;
Choose(p) ==
    /\ p.ability \in DOMAIN abilities
    /\ AbilityChoosable9(abilities[p.ability], context, p.chooser, p.timingOk,
                         p.targetsOk, p.affordable)
    /\ chosen' = chosen \cup {[ability |-> p.ability, chooser |-> p.chooser]}
    /\ UNCHANGED <<abilities, context, active>>

\* authored: 003_7b1b71f6f7c559b7.txt, presence, activity and choice are separate
\* @type: ($abilityDefinition, Str) => Bool;
HiddenFrom(d, viewer) ==
    /\ d.source.kind = "Object"
    /\ d.source.object \in DOMAIN context.objects
    /\ ~context.objects[d.source.object].faceUp
    /\ viewer # context.objects[d.source.object].controller

ViewOf(d, viewer) ==
    IF HiddenFrom(d, viewer) THEN [id |-> d.id]
    ELSE [id |-> d.id, kind |-> d.kind, metadata |-> d.metadata]

\* p: [viewer, ability, view]  (what the implementation showed the viewer)
View(p) ==
    /\ p.ability \in DOMAIN abilities
    /\ p.view = ViewOf(abilities[p.ability], p.viewer)
    /\ UNCHANGED <<abilities, context, active, chosen>>

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
