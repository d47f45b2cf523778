-------------------------- MODULE AbilityLifecycle --------------------------
(***************************************************************************)
(* Conformance module: started ability instances finish their instructions *)
(* with matching receipts, advance between instructions after the          *)
(* checkpoint and chains, and return (ReturnAbility9).                     *)
(* instances: instance id -> instance record (id, definition, occurrence,  *)
(* checkpoint, epoch, instructions, cursor, sourceZone, caller, phase,     *)
(* imminent, complete, returned).                                          *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES instances

\* p: [instance, receipt |-> [instance, instruction, complete]]
Finish(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance] = FinishedFrame9(@)]
    /\ FinishAbilityInstruction9(instances[p.instance], instances'[p.instance], p.receipt)

\* p: [instance, checkpointAndChainsComplete]
Advance(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].imminent = TRUE]
    /\ AdvanceAbilityInstruction9(instances[p.instance], instances'[p.instance],
                                  p.checkpointAndChainsComplete)

\* p: [instance, actualFinalCheckpointAndChainsComplete, caller]
Return(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].returned = TRUE]
    /\ ReturnAbility9(instances[p.instance], instances'[p.instance],
                      p.actualFinalCheckpointAndChainsComplete, p.caller)

InstanceIdentity == \A i \in DOMAIN instances : instances[i].id = i

CursorInRange ==
    \A i \in DOMAIN instances : instances[i].cursor \in 1..Len(instances[i].instructions)

ReturnedOnlyWhenComplete ==
    \A i \in DOMAIN instances : instances[i].returned => instances[i].complete

=============================================================================
