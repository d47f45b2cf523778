-------------------------------- MODULE Vote ---------------------------------
(* RequestVote handling as Raft does it: a server grants its vote when it has *)
(* not voted in the term and the candidate's log is up to date; otherwise     *)
(* the request is refused and votedFor stays as it was.                      *)
EXTENDS Naturals
CONSTANTS Server, Nil
VARIABLES currentTerm, votedFor, lastTerm
vars == <<currentTerm, votedFor, lastTerm>>
Init == /\ currentTerm = [s \in Server |-> 1]
        /\ votedFor = [s \in Server |-> Nil]
        /\ lastTerm = [s \in Server |-> 0]
LogOk(i, m) == m.lastTerm >= lastTerm[i]
HandleRequestVote(m) ==
    LET i == m.dest
        j == m.source
    IN /\ m.term = currentTerm[i]
       /\ IF votedFor[i] = Nil /\ LogOk(i, m)
             THEN votedFor' = [votedFor EXCEPT ![i] = j]
             ELSE UNCHANGED votedFor
       /\ UNCHANGED <<currentTerm, lastTerm>>
AppendEntry(m) == /\ lastTerm' = [lastTerm EXCEPT ![m.dest] = currentTerm[m.dest]]
                  /\ UNCHANGED <<currentTerm, votedFor>>
Next == \E i, j \in Server : HandleRequestVote([source |-> j, dest |-> i, term |-> 1,
                                                lastTerm |-> 0])
=============================================================================
