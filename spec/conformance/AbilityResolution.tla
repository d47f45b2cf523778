------------------------- MODULE AbilityResolution -------------------------
(***************************************************************************)
(* Conformance module: the whole life of conditional ability instances.   *)
(* definitions: definition id -> [definition, present, epoch];             *)
(* instances: instance id -> instance record (as in AbilityLifecycle).     *)
(* Recognition (CheckpointCandidates96) creates pending offers capturing a *)
(* definition copy, the occurrence and the activity epoch; Begin starts    *)
(* one only while it is current; Withdraw/Depart lose pending offers and   *)
(* detach started procedures; Restore never revives a lost offer.          *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES
    \* @type: Str -> {definition: $abilityDefinition, epoch: Int, present: Bool};
    definitions,
    \* @type: Int -> $abilityInstance;
    instances

DefinitionCopies == [d \in DOMAIN definitions |-> definitions[d].definition]

\* @type: $objectId;
NoObject == [id |-> 0, life |-> 0]

\* @type: ({caller: Str, checkpoint: Int, instance: Int, result: $conditionResult, sourceZone: Str}) => $abilityInstance;
NewInstance(p) ==
    LET reg == definitions[p.result.definition]
    IN  [id |-> p.instance, definition |-> reg.definition,
         occurrence |-> p.result.occurrence, checkpoint |-> p.checkpoint,
         epoch |-> reg.epoch, instructions |-> reg.definition.instructions,
         cursor |-> 1, sourceZone |-> p.sourceZone, caller |-> p.caller,
         phase |-> "Pending", imminent |-> FALSE, complete |-> FALSE,
         returned |-> FALSE]

\* @type: ($conditionResult) => Bool;
AlreadyRecognized(r) ==
    \E i \in DOMAIN instances : /\ instances[i].definition.id = r.definition
                                /\ instances[i].occurrence = r.occurrence

\* p: [instance, checkpoint, result, caller, sourceZone]
\* @type: ({caller: Str, checkpoint: Int, instance: Int, result: $conditionResult, sourceZone: Str}) => Bool;
Recognize(p) ==
    /\ p.instance \notin DOMAIN instances
    /\ p.result.definition \in DOMAIN definitions
    /\ definitions[p.result.definition].present
    /\ \E c \in CheckpointCandidates96(DefinitionCopies, p.checkpoint, {p.result}) :
           c.occurrence = p.result.occurrence
    /\ ~AlreadyRecognized(p.result)
    /\ instances' = [i \in DOMAIN instances \cup {p.instance} |->
                        IF i = p.instance THEN NewInstance(p) ELSE instances[i]]
    /\ UNCHANGED definitions

\* The source guard: an object source must be the very same identity (id and
\* lifetime) in the instance's source zone; equal ids of a renewed object fail.
\* @type: ($abilityInstance, {instance: Int, interruptBoundaryPassed: Bool, schedulingOk: Bool, sourceNow: $objectId, sourceZoneNow: Str, window: Int}) => Bool;
SourceGuard(inst, p) ==
    inst.definition.source.kind = "Object" =>
        /\ p.sourceNow = inst.definition.source.object
        /\ p.sourceZoneNow = inst.sourceZone

\* p: [instance, window, sourceNow, sourceZoneNow, schedulingOk, interruptBoundaryPassed]
\* @type: ({instance: Int, interruptBoundaryPassed: Bool, schedulingOk: Bool, sourceNow: $objectId, sourceZoneNow: Str, window: Int}) => Bool;
Begin(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances[p.instance].phase = "Pending"
    /\ definitions[instances[p.instance].definition.id].present
    /\ definitions[instances[p.instance].definition.id].epoch = instances[p.instance].epoch
    /\ p.window = instances[p.instance].checkpoint
    /\ p.schedulingOk
    /\ instances[p.instance].definition.interrupt => p.interruptBoundaryPassed
    /\ SourceGuard(instances[p.instance], p)
    /\ instances' = [instances EXCEPT ![p.instance].phase = "Resolving",
                                      ![p.instance].imminent = TRUE]
    /\ UNCHANGED definitions

\* p: [instance, receipt |-> [instance, instruction, complete]]
\* @type: ({instance: Int, receipt: $receipt}) => Bool;
Finish(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance] = FinishedFrame9(@)]
    /\ FinishAbilityInstruction9(instances[p.instance], instances'[p.instance], p.receipt)
    /\ UNCHANGED definitions

\* p: [instance, checkpointAndChainsComplete]
\* @type: ({checkpointAndChainsComplete: Bool, instance: Int}) => Bool;
Advance(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].imminent = TRUE]
    /\ AdvanceAbilityInstruction9(instances[p.instance], instances'[p.instance],
                                  p.checkpointAndChainsComplete)
    /\ UNCHANGED definitions

\* p: [instance, actualFinalCheckpointAndChainsComplete, caller]
\* @type: ({actualFinalCheckpointAndChainsComplete: Bool, caller: Str, instance: Int}) => Bool;
Return(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].returned = TRUE]
    /\ ReturnAbility9(instances[p.instance], instances'[p.instance],
                      p.actualFinalCheckpointAndChainsComplete, p.caller)
    /\ UNCHANGED definitions

\* p: [definition]
\* @type: ({definition: Str}) => Bool;
Withdraw(p) ==
    /\ p.definition \in DOMAIN definitions
    /\ definitions[p.definition].present
    /\ definitions' = [definitions EXCEPT ![p.definition].present = FALSE]
    /\ instances' = [i \in DOMAIN instances |->
                        IF /\ instances[i].definition.id = p.definition
                           /\ instances[i].phase = "Pending"
                        THEN [instances[i] EXCEPT !.phase = "Lost"]
                        ELSE instances[i]]

\* p: [definition]
\* @type: ({definition: Str}) => Bool;
Restore(p) ==
    /\ p.definition \in DOMAIN definitions
    /\ ~definitions[p.definition].present
    /\ definitions' = [definitions EXCEPT ![p.definition].present = TRUE,
                                          ![p.definition].epoch = @ + 1]
    /\ UNCHANGED instances

\* @type: ($abilityInstance, $objectId) => Bool;
SourcedBy(inst, object) ==
    inst.definition.source.kind = "Object" /\ inst.definition.source.object = object

\* @type: ($abilityInstance) => $abilityInstance;
Departed(inst) ==
    CASE inst.phase = "Pending" -> [inst EXCEPT !.phase = "Lost"]
      [] inst.phase = "Resolving" -> [inst EXCEPT !.phase = "Detached"]
      [] OTHER -> inst

\* p: [object]  (the source object, by identity, leaves)
\* @type: ({object: $objectId}) => Bool;
Depart(p) ==
    /\ instances' = [i \in DOMAIN instances |->
                        IF SourcedBy(instances[i], p.object)
                        THEN Departed(instances[i])
                        ELSE instances[i]]
    /\ UNCHANGED definitions

DefinitionsWellShaped ==
    \A d \in DOMAIN definitions :
        LET dfn == definitions[d].definition
        IN  /\ dfn.id = d
            /\ AbilityShape9(dfn.kind, dfn.instructions)
            /\ dfn.source = AbilitySource9(dfn.origin, dfn.provenance.printedObject,
                                           dfn.provenance.recipient,
                                           dfn.provenance.effectCreator,
                                           dfn.provenance.rule)

InstancesBelongToDefinitions ==
    \A i \in DOMAIN instances :
        /\ instances[i].id = i
        /\ instances[i].definition.id \in DOMAIN definitions
        /\ instances[i].epoch <= definitions[instances[i].definition.id].epoch

\* A pending offer is always current: restoring a definition never revives one.
PendingOffersCurrent ==
    \A i \in DOMAIN instances :
        instances[i].phase = "Pending" =>
            /\ definitions[instances[i].definition.id].present
            /\ definitions[instances[i].definition.id].epoch = instances[i].epoch

CursorInRange ==
    \A i \in DOMAIN instances : instances[i].cursor \in 1..Len(instances[i].instructions)

ReturnedOnlyWhenComplete ==
    \A i \in DOMAIN instances : instances[i].returned => instances[i].complete

=============================================================================
