---------------------------- MODULE RaftElection ----------------------------
(***************************************************************************)
(* Raft's leader election (Ongaro and Ousterhout, "In Search of an         *)
(* Understandable Consensus Algorithm", section 5.2), on its own: terms,   *)
(* votes and the servers' roles.  Log replication is left out, and so is   *)
(* the election restriction on logs (section 5.4.1), which needs the logs. *)
(*                                                                         *)
(* The network is a set of messages: a message once sent may be delivered *)
(* any number of times, in any order, or never.  Each action is one step   *)
(* of one server, as in the paper: a server that times out becomes a       *)
(* candidate and votes for itself; it then requests votes one server at a  *)
(* time; a message of a newer term makes its receiver a follower of that   *)
(* term before the message itself is handled.                              *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS Server, \* the servers' ids
          Nil     \* no vote

VARIABLES currentTerm,  \* the latest term each server has seen
          state,        \* Follower, Candidate or Leader
          votedFor,     \* whom each server voted for in its current term, or Nil
          votesGranted, \* the servers that granted each candidate its vote
          messages      \* every message sent so far

vars == <<currentTerm, state, votedFor, votesGranted, messages>>

Follower == "Follower"
Candidate == "Candidate"
Leader == "Leader"

RequestVoteRequest == "RequestVoteRequest"
RequestVoteResponse == "RequestVoteResponse"
AppendEntriesRequest == "AppendEntriesRequest"

Quorum == {q \in SUBSET Server : 2 * Cardinality(q) > Cardinality(Server)}

Send(m) == messages' = messages \cup {m}

Init == /\ currentTerm = [i \in Server |-> 0]
        /\ state = [i \in Server |-> Follower]
        /\ votedFor = [i \in Server |-> Nil]
        /\ votesGranted = [i \in Server |-> {}]
        /\ messages = {}

-----------------------------------------------------------------------------
(* Steps a server takes on its own.                                        *)

\* Server i's election timer fires: it starts an election in a new term and
\* votes for itself.
Timeout(i) ==
    /\ state[i] \in {Follower, Candidate}
    /\ currentTerm' = [currentTerm EXCEPT ![i] = @ + 1]
    /\ state' = [state EXCEPT ![i] = Candidate]
    /\ votedFor' = [votedFor EXCEPT ![i] = i]
    /\ votesGranted' = [votesGranted EXCEPT ![i] = {i}]
    /\ UNCHANGED messages

\* Candidate i asks server j for its vote.
RequestVote(i, j) ==
    /\ state[i] = Candidate
    /\ i /= j
    /\ Send([mtype |-> RequestVoteRequest, mterm |-> currentTerm[i],
             msource |-> i, mdest |-> j])
    /\ UNCHANGED <<currentTerm, state, votedFor, votesGranted>>

\* Candidate i has the votes of a quorum: it leads its term.
BecomeLeader(i) ==
    /\ state[i] = Candidate
    /\ votesGranted[i] \in Quorum
    /\ state' = [state EXCEPT ![i] = Leader]
    /\ UNCHANGED <<currentTerm, votedFor, votesGranted, messages>>

\* Leader i tells server j that it leads its term (an empty AppendEntries).
AppendEntries(i, j) ==
    /\ state[i] = Leader
    /\ i /= j
    /\ Send([mtype |-> AppendEntriesRequest, mterm |-> currentTerm[i],
             msource |-> i, mdest |-> j])
    /\ UNCHANGED <<currentTerm, state, votedFor, votesGranted>>

-----------------------------------------------------------------------------
(* Server i receives message m from server j.                              *)

\* Any message of a newer term: i adopts the term, as a follower without a
\* vote.  The message itself is handled by a later step.
UpdateTerm(i, j, m) ==
    /\ m.mterm > currentTerm[i]
    /\ currentTerm' = [currentTerm EXCEPT ![i] = m.mterm]
    /\ state' = [state EXCEPT ![i] = Follower]
    /\ votedFor' = [votedFor EXCEPT ![i] = Nil]
    /\ UNCHANGED <<votesGranted, messages>>

\* A request for i's vote: i grants it when the request is of its term and it
\* has not voted for another server in that term, and answers either way.
HandleRequestVoteRequest(i, j, m) ==
    LET grant == /\ m.mterm = currentTerm[i]
                 /\ votedFor[i] \in {Nil, j}
    IN /\ m.mterm <= currentTerm[i]
       /\ votedFor' = [votedFor EXCEPT ![i] = IF grant THEN j ELSE @]
       /\ Send([mtype |-> RequestVoteResponse, mterm |-> currentTerm[i],
                mvoteGranted |-> grant, msource |-> i, mdest |-> j])
       /\ UNCHANGED <<currentTerm, state, votesGranted>>

\* An answer to a request of i's current term: a granted vote is counted.
HandleRequestVoteResponse(i, j, m) ==
    /\ m.mterm = currentTerm[i]
    /\ votesGranted' = [votesGranted EXCEPT ![i] =
                           IF m.mvoteGranted THEN @ \cup {j} ELSE @]
    /\ UNCHANGED <<currentTerm, state, votedFor, messages>>

\* An answer to a request of an earlier term is ignored.
DropStaleResponse(i, j, m) ==
    /\ m.mterm < currentTerm[i]
    /\ UNCHANGED vars

\* A leader's message of i's term: a candidate learns it lost and follows.
\* One of an earlier term is ignored.
HandleAppendEntriesRequest(i, j, m) ==
    /\ m.mterm <= currentTerm[i]
    /\ state' = [state EXCEPT ![i] =
                    IF m.mterm = currentTerm[i] /\ @ = Candidate THEN Follower ELSE @]
    /\ UNCHANGED <<currentTerm, votedFor, votesGranted, messages>>

Receive(m) ==
    LET i == m.mdest
        j == m.msource
    IN \/ UpdateTerm(i, j, m)
       \/ /\ m.mtype = RequestVoteRequest
          /\ HandleRequestVoteRequest(i, j, m)
       \/ /\ m.mtype = RequestVoteResponse
          /\ \/ HandleRequestVoteResponse(i, j, m)
             \/ DropStaleResponse(i, j, m)
       \/ /\ m.mtype = AppendEntriesRequest
          /\ HandleAppendEntriesRequest(i, j, m)

Next == \/ \E i \in Server : Timeout(i) \/ BecomeLeader(i)
        \/ \E i, j \in Server : RequestVote(i, j) \/ AppendEntries(i, j)
        \/ \E m \in messages : Receive(m)

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
TypeOK ==
    /\ currentTerm \in [Server -> Nat]
    /\ state \in [Server -> {Follower, Candidate, Leader}]
    /\ votedFor \in [Server -> Server \cup {Nil}]
    /\ votesGranted \in [Server -> SUBSET Server]

\* At most one leader per term (the paper's Election Safety).
ElectionSafety ==
    \A i, j \in Server :
        (state[i] = Leader /\ state[j] = Leader /\ currentTerm[i] = currentTerm[j])
            => i = j

\* For model checking: a bound on terms.
TermBound == \A i \in Server : currentTerm[i] <= 1
=============================================================================
