---------------------------- MODULE DiagPaperBase ----------------------------
\* The system DiagPaper's trace spec checks: resource managers prepare, a transaction
\* manager commits once all have prepared.
EXTENDS Naturals
CONSTANT RM
VARIABLES rmState, tmState
vars == <<rmState, tmState>>
Init == rmState = [r \in RM |-> "working"] /\ tmState = "init"
Prepare(r) == /\ rmState[r] = "working"
              /\ rmState' = [rmState EXCEPT ![r] = "prepared"]
              /\ UNCHANGED tmState
Commit == /\ tmState = "init"
          /\ \A r \in RM : rmState[r] = "prepared"
          /\ tmState' = "committed"
          /\ UNCHANGED rmState
Next == Commit \/ \E r \in RM : Prepare(r)
=============================================================================
