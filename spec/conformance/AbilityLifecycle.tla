-------------------------- MODULE AbilityLifecycle --------------------------
(***************************************************************************)
(* Conformance module: started ability instances finish their instructions *)
(* with matching receipts, advance between instructions after the          *)
(* checkpoint and chains, and return (ReturnAbility9).                     *)
(* instances: instance id -> instance record with at least caller,         *)
(* complete and returned (the contract: a trace whose records have just    *)
(* these three fields is checkable).  Finish and Advance also read the     *)
(* record's id, phase, instructions, cursor and imminent (the full record  *)
(* and its invariants are AbilityResolution's); the invariants here read   *)
(* only caller, complete and returned.                                     *)
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

ReturnedOnlyWhenComplete ==
    \A i \in DOMAIN instances : instances[i].returned => instances[i].complete

=============================================================================
