---------------------------- MODULE PySyncObjRaft ----------------------------
(***************************************************************************)
(* pysyncobj's leader election, checked against RaftElection unchanged.    *)
(* This module says only what pysyncobj's events are in RaftElection's     *)
(* terms, and what pysyncobj does differently:                             *)
(*                                                                         *)
(*  - each logged event is one action whose parameter p is the event's     *)
(*    params: the server it happened on, the peer, the message's term.  A  *)
(*    received message is found in the spec's messages by those fields,   *)
(*    so a message must have been sent before it is received;              *)
(*  - pysyncobj also refuses a candidate whose log is behind its own (the  *)
(*    election restriction RaftElection leaves out): ReceiveRequestVote    *)
(*    adds that guard, with the log positions the event carries;           *)
(*  - pysyncobj answers only the votes it grants, so a vote received is a  *)
(*    granted one (RaftElection's refusals are sent, and never received);  *)
(*  - a pysyncobj handler that makes two of RaftElection's steps (a newer  *)
(*    term, then the message; a vote, then leadership) logs two events.    *)
(*                                                                         *)
(* The events log each server's currentTerm, state and votedFor; the spec  *)
(* fills in votesGranted, messages and every other server.                 *)
(***************************************************************************)
EXTENDS RaftElection

\* The messages of type t from p.source to p.dest in term p.term.
Sent(t, p) ==
    {m \in messages : /\ m.mtype = t
                      /\ m.msource = p.source
                      /\ m.mdest = p.dest
                      /\ m.mterm = p.term}

ElectionTimeout(p) == Timeout(p.node)

SendRequestVote(p) == RequestVote(p.source, p.dest)

SendAppendEntries(p) == AppendEntries(p.source, p.dest)

WinElection(p) == BecomeLeader(p.node)

\* A request or a leader's message of a newer term (either type).
SeeNewerTerm(p) ==
    \E m \in Sent(RequestVoteRequest, p) \cup Sent(AppendEntriesRequest, p) :
        UpdateTerm(p.dest, p.source, m)

\* Raft's log comparison, on the positions the event logged: the candidate's
\* last entry (lastLogTerm, lastLogIndex) and the receiver's (own...).
LogOk(p) == \/ p.lastLogTerm > p.ownLastLogTerm
            \/ /\ p.lastLogTerm = p.ownLastLogTerm
               /\ p.lastLogIndex >= p.ownLastLogIndex

\* A refused log is answered with nothing.
ReceiveRequestVote(p) ==
    \E m \in Sent(RequestVoteRequest, p) :
        IF LogOk(p) THEN HandleRequestVoteRequest(p.dest, p.source, m)
                    ELSE UNCHANGED vars

ReceiveVote(p) ==
    \E m \in Sent(RequestVoteResponse, p) :
        /\ m.mvoteGranted
        /\ \/ HandleRequestVoteResponse(p.dest, p.source, m)
           \/ DropStaleResponse(p.dest, p.source, m)

ReceiveAppendEntries(p) ==
    \E m \in Sent(AppendEntriesRequest, p) :
        HandleAppendEntriesRequest(p.dest, p.source, m)
=============================================================================
