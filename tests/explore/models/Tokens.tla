---- MODULE Tokens ----
\* Processes pass tokens around; symmetric in the processes, bounded by a constraint.
EXTENDS Naturals, FiniteSets, TLC
CONSTANTS Procs, MaxSent
VARIABLES holder, sent, log
vars == <<holder, sent, log>>
Init == /\ holder \in Procs
        /\ sent = 0
        /\ log = {}
Pass(p, q) == /\ holder = p
              /\ p # q
              /\ holder' = q
              /\ sent' = sent + 1
              /\ log' = log \cup {<<p, q>>}
Drop == /\ sent > 0
        /\ sent' = sent - 1
        /\ UNCHANGED <<holder, log>>
Next == \/ \E p, q \in Procs : Pass(p, q)
        \/ Drop
Spec == Init /\ [][Next]_vars /\ WF_vars(Next)
TypeOK == /\ holder \in Procs
          /\ sent \in Nat
          /\ log \subseteq Procs \X Procs
Bounded == sent <= MaxSent
Sym == Permutations(Procs)
NoSelfLoop == \A e \in log : e[1] # e[2]
====
