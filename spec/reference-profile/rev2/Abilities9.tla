----------------------------- MODULE Abilities9 -----------------------------
(***************************************************************************)
(* Ability definitions, instances and returns: reference profile, input   *)
(* revision 2, seed 003_7b1b71f6f7c559b7.txt.  AbilityShape9,              *)
(* AbilitySource9 and ReturnAbility9 are the published text (CC0 1.0),     *)
(* copied verbatim with their layout restored.  Every other definition is  *)
(* authored from the page's prose and marked so.                          *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: objectId = {id: Int, life: Int};
\* @typeAlias: abilitySource = {kind: Str, object: $objectId, rule: Str};
\* @typeAlias: provenance = {effectCreator: $objectId, printedObject: $objectId, recipient: $objectId, rule: Str};
\* @typeAlias: abilityDefinition = {activeFacedown: Bool, activeZones: Set(Str), condition: Str, controller: Str, id: Str, instructions: Seq(Int), interrupt: Bool, kind: Str, metadata: Str -> Str, oncePerTurn: Bool, origin: Str, provenance: $provenance, source: $abilitySource, useBasis: Str};
\* @typeAlias: abilityInstance = {caller: Str, checkpoint: Int, complete: Bool, cursor: Int, definition: $abilityDefinition, epoch: Int, id: Int, imminent: Bool, instructions: Seq(Int), occurrence: Str, phase: Str, returned: Bool, sourceZone: Str};
\* @typeAlias: membership = {ability: Str, object: $objectId};
\* @typeAlias: activityContext = {departureHolds: Set($membership), facedownRestricted: Set(Str), objects: $objectId -> {controller: Str, faceUp: Bool, zone: Str}, permittedRules: Set(Str), persistentMembership: Set($membership), present: Set(Str)};
\* @typeAlias: conditionResult = {checkpoint: Int, definition: Str, occurrence: Str, patternMatched: Bool, primaryHolds: Bool, siblingPending: Bool, stipulationMet: Bool, throttled: Bool};
\* @typeAlias: candidate = {branch: Str, checkpoint: Int, definition: Str, occurrence: Str};
\* @typeAlias: receipt = {complete: Bool, instance: Int, instruction: Int};
\* @typeAlias: useEvent = {actual: Bool, boundary: Str};
\* @typeAlias: useRecord = {definition: Str, instance: Int, oncePerTurn: Bool, source: $abilitySource, turn: Int};
AbilityTypes9 == TRUE

\* authored: 003_7b1b71f6f7c559b7.txt, Establish the definition's shape and context
\* The admitted categories: a static ability has no executing instruction
\* sequence; activated and conditional abilities have one.  Interrupt handling
\* is a flag of the definition, not a category.
AbilityKinds9 == {"Static", "Activated", "Conditional"}

\* authored: 003_7b1b71f6f7c559b7.txt, A source is a relationship, not a physical-name lookup
\* An object source names the object's identity (id and lifetime), never a bare
\* physical name.
\* @type: ($objectId) => $abilitySource;
ObjectAbilitySource9(object) == [kind |-> "Object", object |-> object, rule |-> ""]

\* authored: 003_7b1b71f6f7c559b7.txt, A source is a relationship, not a physical-name lookup
\* A rule source is a different relationship from an object source: its kind
\* tells them apart (both have one record shape, with no object -- id 0 -- for
\* a rule and no rule -- "" -- for an object, so a model checker can type them).
\* @type: (Str) => $abilitySource;
RuleAbilitySource9(rule) == [kind |-> "Rule", object |-> [id |-> 0, life |-> 0], rule |-> rule]

\* @type: (Str, Seq(Int)) => Bool;
\* verbatim: 003_7b1b71f6f7c559b7.txt, reference-profile · input revision 2 · CC0 1.0
AbilityShape9(kind,instructions) ==
    kind \in AbilityKinds9 /\ IF kind = "Static" THEN Len(instructions) = 0 ELSE Len(instructions) > 0

\* @type: (Str, $objectId, $objectId, $objectId, Str) => $abilitySource;
\* verbatim: 003_7b1b71f6f7c559b7.txt, reference-profile · input revision 2 · CC0 1.0
AbilitySource9(origin,printedObject,recipient,effectCreator,rule) ==
    CASE origin = "Printed" -> ObjectAbilitySource9(printedObject)
      [] origin = "Granted" -> ObjectAbilitySource9(recipient)
      [] origin = "Lingering" -> ObjectAbilitySource9(effectCreator)
      [] origin = "Rule" -> RuleAbilitySource9(rule)

\* authored: 003_7b1b71f6f7c559b7.txt, Distinguish presence, activity and permission to choose
\* Object sources use current object data: the object (this lifetime) is in a
\* zone where the ability functions and is face up, or face down with an
\* ability that functions face down and a controller outside the face-down
\* restriction (SideB by default).  A departure hold or a persistent/lingering
\* membership record counts only for the exact ability and object it names.
\* @type: ($abilityDefinition, $activityContext) => Bool;
ObjectSourceActive9(ability, ctx) ==
    LET o == ability.source.object
        record == [ability |-> ability.id, object |-> o]
    IN  \/ /\ o \in DOMAIN ctx.objects
           /\ ctx.objects[o].zone \in ability.activeZones
           /\ \/ ctx.objects[o].faceUp
              \/ /\ ability.activeFacedown
                 /\ ctx.objects[o].controller \notin ctx.facedownRestricted
        \/ record \in ctx.departureHolds
        \/ /\ ability.origin = "Lingering"
           /\ record \in ctx.persistentMembership

\* authored: 003_7b1b71f6f7c559b7.txt, Distinguish presence, activity and permission to choose
\* Effective presence first, then the provider/source branch: a rule source
\* relies on current rule permission, an object source on ObjectSourceActive9.
\* @type: ($abilityDefinition, $activityContext) => Bool;
AbilityActive9(ability, ctx) ==
    /\ ability.id \in ctx.present
    /\ CASE ability.source.kind = "Rule" -> ability.source.rule \in ctx.permittedRules
         [] ability.source.kind = "Object" -> ObjectSourceActive9(ability, ctx)

\* authored: 003_7b1b71f6f7c559b7.txt, Distinguish presence, activity and permission to choose
\* Activity is necessary but not sufficient: choosing also needs timing, the
\* controller, targets and affordability.
\* @type: ($abilityDefinition, $activityContext, Str, Bool, Bool, Bool) => Bool;
AbilityChoosable9(ability, ctx, chooser, timingOk, targetsOk, affordable) ==
    /\ AbilityActive9(ability, ctx)
    /\ timingOk
    /\ chooser = ability.controller
    /\ targetsOk
    /\ affordable

\* authored: 003_7b1b71f6f7c559b7.txt, Recognize conditional occurrences at a specific observation
\* defs maps definition ids to definitions; results are supplied condition
\* results, each tied to a definition and a checkpoint.  The trigger-pattern
\* and stipulation branch is separate from the state-based primary branch with
\* its sibling and throttle conditions.  A result for another checkpoint or an
\* unknown definition is never a candidate.
\* @type: (Str -> $abilityDefinition, Int, Set($conditionResult)) => Set($candidate);
CheckpointCandidates96(defs, checkpoint, results) ==
    LET
        \* @type: ($conditionResult) => Bool;
        Known(r) == r.definition \in DOMAIN defs /\ r.checkpoint = checkpoint
        \* @type: ($conditionResult) => Bool;
        TriggerHit(r) == /\ defs[r.definition].condition = "Trigger"
                         /\ r.patternMatched
                         /\ r.stipulationMet
        \* @type: ($conditionResult) => Bool;
        StateHit(r) == /\ defs[r.definition].condition = "State"
                       /\ r.primaryHolds
                       /\ ~r.siblingPending
                       /\ ~r.throttled
        \* @type: ($conditionResult, Str) => $candidate;
        Candidate(r, branch) == [definition |-> r.definition, occurrence |-> r.occurrence,
                                 checkpoint |-> checkpoint, branch |-> branch]
    IN  {Candidate(r, "Trigger") : r \in {t \in results : Known(t) /\ TriggerHit(t)}}
          \cup {Candidate(r, "State") : r \in {s \in results : Known(s) /\ StateHit(s)}}

\* authored: 003_7b1b71f6f7c559b7.txt, Use the cursor and matching instruction receipt
\* The frame after the instruction at the cursor finished: the cursor moves on
\* (or the instance is complete); the next instruction is not yet imminent.
\* @type: ({cursor: Int, instructions: Seq(Int), imminent: Bool, complete: Bool, a}) => {cursor: Int, instructions: Seq(Int), imminent: Bool, complete: Bool, a};
FinishedFrame9(frame) ==
    IF frame.cursor = Len(frame.instructions)
    THEN [frame EXCEPT !.imminent = FALSE, !.complete = TRUE]
    ELSE [frame EXCEPT !.imminent = FALSE, !.cursor = @ + 1]

\* authored: 003_7b1b71f6f7c559b7.txt, Use the cursor and matching instruction receipt
\* A complete receipt for this instance (identity, not a stage name) and for
\* the instruction at the current cursor.
\* @type: ({phase: Str, imminent: Bool, complete: Bool, id: Int, cursor: Int, instructions: Seq(Int), a}, {phase: Str, imminent: Bool, complete: Bool, id: Int, cursor: Int, instructions: Seq(Int), a}, $receipt) => Bool;
FinishAbilityInstruction9(before, after, receipt) ==
    /\ before.phase \in {"Resolving", "Detached"}
    /\ before.imminent
    /\ ~before.complete
    /\ receipt.complete
    /\ receipt.instance = before.id
    /\ before.cursor \in 1..Len(before.instructions)
    /\ receipt.instruction = before.instructions[before.cursor]
    /\ after = FinishedFrame9(before)

\* authored: 003_7b1b71f6f7c559b7.txt, Use the cursor and matching instruction receipt
\* Between instructions the next one becomes imminent only after the
\* appropriate checkpoint and newer chains.
\* @type: ({phase: Str, imminent: Bool, complete: Bool, a}, {phase: Str, imminent: Bool, complete: Bool, a}, Bool) => Bool;
AdvanceAbilityInstruction9(before, after, checkpointAndChainsComplete) ==
    /\ before.phase \in {"Resolving", "Detached"}
    /\ ~before.imminent
    /\ ~before.complete
    /\ checkpointAndChainsComplete
    /\ after = [before EXCEPT !.imminent = TRUE]

\* authored: 003_7b1b71f6f7c559b7.txt, Record use and return at their separate boundaries
\* Paid use is due at an actual payment; an optional effect at its actual
\* execution; a choice at its actual selection.  Recognition alone is never a use.
\* @type: ($abilityDefinition, $useEvent) => Bool;
AbilityUseDue9(definition, event) ==
    CASE definition.useBasis = "Payment" ->
             event.boundary = "Payment" /\ event.actual
      [] definition.useBasis = "OptionalEffect" ->
             event.boundary = "OptionalExecution" /\ event.actual
      [] definition.useBasis = "Choice" ->
             event.boundary = "Selection" /\ event.actual

\* authored: 003_7b1b71f6f7c559b7.txt, Record use and return at their separate boundaries
\* Once per turn reads the turn/source history of recorded uses.
\* @type: (Str, $abilitySource, Int, Set($useRecord)) => Bool;
OncePerTurnOpen9(definitionId, source, turn, history) ==
    ~\E u \in history : u.definition = definitionId /\ u.source = source /\ u.turn = turn

\* @type: ({caller: Str, complete: Bool, returned: Bool, a}, {caller: Str, complete: Bool, returned: Bool, a}, Bool, Str) => Bool;
\* verbatim: 003_7b1b71f6f7c559b7.txt, reference-profile · input revision 2 · CC0 1.0
ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller) ==
    /\ before.complete /\ ~before.returned /\ actualFinalCheckpointAndChainsComplete /\ caller = before.caller
    /\ after = [before EXCEPT !.returned = TRUE]

=============================================================================
