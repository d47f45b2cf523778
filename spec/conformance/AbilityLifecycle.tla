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
(* Next: some step (a step without an action label is checked against it) *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES
    \* @type: Int -> {caller: Str, complete: Bool, returned: Bool, a};
    instances

\* p: [instance, receipt |-> [instance, instruction, complete]]
\* @type: ({instance: Int, receipt: $receipt}) => Bool;
Finish(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance] = FinishedFrame9(@)]
    /\ FinishAbilityInstruction9(instances[p.instance], instances'[p.instance], p.receipt)

\* p: [instance, checkpointAndChainsComplete]
\* @type: ({checkpointAndChainsComplete: Bool, instance: Int}) => Bool;
Advance(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].imminent = TRUE]
    /\ AdvanceAbilityInstruction9(instances[p.instance], instances'[p.instance],
                                  p.checkpointAndChainsComplete)

\* p: [instance, actualFinalCheckpointAndChainsComplete, caller]
\* @type: ({actualFinalCheckpointAndChainsComplete: Bool, caller: Str, instance: Int}) => Bool;
Return(p) ==
    /\ p.instance \in DOMAIN instances
    /\ instances' = [instances EXCEPT ![p.instance].returned = TRUE]
    /\ ReturnAbility9(instances[p.instance], instances'[p.instance],
                      p.actualFinalCheckpointAndChainsComplete, p.caller)

\* Some step of some instance.  Each param that is not a flag is the one value
\* the action can accept (the receipt of the instruction at the cursor, the
\* instance's caller); flags that must be TRUE are TRUE.  Return comes first
\* and Finish/Advance need the fields they read, so a trace of records with
\* just caller, complete and returned stays checkable.
FrameFields == {"id", "phase", "instructions", "cursor", "imminent", "complete"}

Next ==
    \E i \in DOMAIN instances :
        \/ Return([instance |-> i, actualFinalCheckpointAndChainsComplete |-> TRUE,
                   caller |-> instances[i].caller])
        \/ /\ FrameFields \subseteq DOMAIN instances[i]
           /\ \/ Advance([instance |-> i, checkpointAndChainsComplete |-> TRUE])
              \/ /\ instances[i].cursor \in 1..Len(instances[i].instructions)
                 /\ Finish([instance |-> i,
                            receipt |-> [instance |-> i, complete |-> TRUE,
                                         instruction |-> instances[i].instructions[instances[i].cursor]]])

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Instructions == UNION {{instances[i].instructions[k] : k \in DOMAIN instances[i].instructions} :
                       i \in {j \in DOMAIN instances : "instructions" \in DOMAIN instances[j]}}

Params_Finish ==
    [instance |-> DOMAIN instances \cup {99},
     receipt |-> [instance : DOMAIN instances, complete : BOOLEAN, instruction : Instructions]]

Params_Advance == [instance |-> DOMAIN instances \cup {99}, checkpointAndChainsComplete |-> BOOLEAN]

Params_Return ==
    [instance |-> DOMAIN instances \cup {99}, actualFinalCheckpointAndChainsComplete |-> BOOLEAN,
     caller |-> {instances[i].caller : i \in DOMAIN instances} \cup {"nobody"}]

ReturnedOnlyWhenComplete ==
    \A i \in DOMAIN instances : instances[i].returned => instances[i].complete

=============================================================================
