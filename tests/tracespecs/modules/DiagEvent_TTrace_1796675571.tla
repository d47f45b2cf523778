---- MODULE DiagEvent_TTrace_1796675571 ----
EXTENDS Sequences, TLCExt, DiagEvent, Toolbox, Naturals, TLC

_expression ==
    LET DiagEvent_TEExpression == INSTANCE DiagEvent_TEExpression
    IN DiagEvent_TEExpression!expression
----

_trace ==
    LET DiagEvent_TETrace == INSTANCE DiagEvent_TETrace
    IN DiagEvent_TETrace!trace
----

_prop ==
    ~<>[](
        leader = ("none")
        /\
        term = ([a |-> 1, b |-> 0])
        /\
        l = (2)
    )
----

_init ==
    /\ term = _TETrace[1].term
    /\ l = _TETrace[1].l
    /\ leader = _TETrace[1].leader
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ term  = _TETrace[i].term
        /\ term' = _TETrace[j].term
        /\ l  = _TETrace[i].l
        /\ l' = _TETrace[j].l
        /\ leader  = _TETrace[i].leader
        /\ leader' = _TETrace[j].leader

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("DiagEvent_TTrace_1796675571.json", _TETrace)

=============================================================================

 Note that you can extract this module `DiagEvent_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `DiagEvent_TEExpression.tla` file takes precedence 
  over the module `DiagEvent_TEExpression` below).

---- MODULE DiagEvent_TEExpression ----
EXTENDS Sequences, TLCExt, DiagEvent, Toolbox, Naturals, TLC

expression == 
    [
        \* To hide variables of the `DiagEvent` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        term |-> term
        ,l |-> l
        ,leader |-> leader
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_termUnchanged |-> term = term'
        
        \* Format the `term` variable as Json value.
        \* ,_termJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(term)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_termModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].term # _TETrace[s-1].term
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE DiagEvent_TETrace ----
\*EXTENDS IOUtils, DiagEvent, TLC
\*
\*trace == IODeserialize("DiagEvent_TTrace_1796675571.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE DiagEvent_TETrace ----
EXTENDS DiagEvent, TLC

trace == 
    <<
    ([leader |-> "none",term |-> [a |-> 0, b |-> 0],l |-> 1]),
    ([leader |-> "none",term |-> [a |-> 1, b |-> 0],l |-> 2])
    >>
----


=============================================================================

---- CONFIG DiagEvent_TTrace_1796675571 ----

PROPERTY
    _prop

CHECK_DEADLOCK
    \* CHECK_DEADLOCK off because of PROPERTY or INVARIANT above.
    FALSE

INIT
    _init

NEXT
    _next

CONSTANT
    _TETrace <- _trace

ALIAS
    _expression
=============================================================================
\* Generated on Mon Dec 07 20:32:54 UTC 2026