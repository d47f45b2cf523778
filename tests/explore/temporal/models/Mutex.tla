---- MODULE Mutex ----
\* Processes take a lock in turn; fairness per process, quantified.
EXTENDS Naturals, FiniteSets
CONSTANT Procs
VARIABLES pc, lock
vars == <<pc, lock>>
Init == pc = [p \in Procs |-> "idle"] /\ lock = FALSE
Want(p) == pc[p] = "idle" /\ pc' = [pc EXCEPT ![p] = "wait"] /\ UNCHANGED lock
Enter(p) == pc[p] = "wait" /\ ~lock /\ lock' = TRUE /\ pc' = [pc EXCEPT ![p] = "cs"]
Leave(p) == pc[p] = "cs" /\ lock' = FALSE /\ pc' = [pc EXCEPT ![p] = "idle"]
Next == \E p \in Procs : Want(p) \/ Enter(p) \/ Leave(p)
Spec == Init /\ [][Next]_vars
WeakSpec == Spec /\ \A p \in Procs : WF_vars(Leave(p)) /\ WF_vars(Enter(p))
StrongSpec == Spec /\ \A p \in Procs : WF_vars(Leave(p)) /\ SF_vars(Enter(p))
MutualExclusion == [](Cardinality({p \in Procs : pc[p] = "cs"}) <= 1)
NoTwoWaiting == [](Cardinality({p \in Procs : pc[p] = "wait"}) <= 1)
Starvation == \A p \in Procs : (pc[p] = "wait") ~> (pc[p] = "cs")
====
