---- MODULE AbilityLifecycle ----
VARIABLES instances
ReturnAbility9(before,after,actualFinalCheckpointAndChainsComplete,caller) ==
/\ before.complete /\ ~before.returned /\ actualFinalCheckpointAndChainsComplete /\ caller = before.caller
/\ after = [before EXCEPT !.returned = TRUE]
Return(p) ==
  /\ instances' = [instances EXCEPT ![p.instance].returned = TRUE]
  /\ ReturnAbility9(instances[p.instance], instances'[p.instance],
                    p.actualFinalCheckpointAndChainsComplete, p.caller)
====
