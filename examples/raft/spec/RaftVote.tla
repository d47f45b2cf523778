------------------------------- MODULE RaftVote -------------------------------
(* Raft's leader election, as far as a server's term and vote go: the part of  *)
(* Ongaro's raft.tla (Timeout, UpdateTerm, HandleRequestVoteRequest) that a    *)
(* Raft implementation can log cheaply, restated for events.  Messages are not *)
(* modelled: a request's term and the two logs' last entries are the event's   *)
(* params, as the receiving server saw them.                                   *)
EXTENDS Naturals
CONSTANT Server
VARIABLES currentTerm, votedFor
vars == <<currentTerm, votedFor>>
Nil == "none"

Init == /\ currentTerm = [s \in Server |-> 0]
        /\ votedFor = [s \in Server |-> Nil]

\* Server p.node times out and starts an election: a new term, a vote for itself.
Timeout(p) == LET i == p.node IN
    /\ currentTerm' = [currentTerm EXCEPT ![i] = @ + 1]
    /\ votedFor' = [votedFor EXCEPT ![i] = i]

\* A message of a newer term (any type) makes the server adopt that term, unvoted.
UpdateTerm(p) == LET i == p.node IN
    /\ p.term > currentTerm[i]
    /\ currentTerm' = [currentTerm EXCEPT ![i] = p.term]
    /\ votedFor' = [votedFor EXCEPT ![i] = Nil]

\* The candidate's log is at least as up to date as the receiver's (raft.tla's logOk).
LogOk(m) == \/ m.lastLogTerm > m.ownLastLogTerm
            \/ /\ m.lastLogTerm = m.ownLastLogTerm
               /\ m.lastLogIndex >= m.ownLastLogIndex

\* Server m.dest handles m.source's RequestVote of term m.term (UpdateTerm first
\* when the term is newer): it grants its vote when the terms match, it has not
\* voted in this term and the candidate's log is up to date.
HandleRequestVote(m) ==
    LET i == m.dest
        term == IF m.term > currentTerm[i] THEN m.term ELSE currentTerm[i]
        voted == IF m.term > currentTerm[i] THEN Nil ELSE votedFor[i]
    IN /\ currentTerm' = [currentTerm EXCEPT ![i] = term]
       /\ IF m.term = term /\ voted = Nil /\ LogOk(m)
             THEN votedFor' = [votedFor EXCEPT ![i] = m.source]
             ELSE votedFor' = [votedFor EXCEPT ![i] = voted]

\* At most one vote per server and term is what makes two leaders impossible.
VotedForAServer == \A s \in Server : votedFor[s] \in Server \cup {Nil}
===============================================================================
