---- MODULE Level_TTrace_1796171705 ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Level

_expression ==
    LET Level_TEExpression == INSTANCE Level_TEExpression
    IN Level_TEExpression!expression
----

_trace ==
    LET Level_TETrace == INSTANCE Level_TETrace
    IN Level_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        cur = (1)
        /\
        x = (1)
        /\
        nxt = (2)
    )
----

_init ==
    /\ nxt = _TETrace[1].nxt
    /\ x = _TETrace[1].x
    /\ cur = _TETrace[1].cur
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ nxt  = _TETrace[i].nxt
        /\ nxt' = _TETrace[j].nxt
        /\ x  = _TETrace[i].x
        /\ x' = _TETrace[j].x
        /\ cur  = _TETrace[i].cur
        /\ cur' = _TETrace[j].cur

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("Level_TTrace_1796171705.json", _TETrace)

=============================================================================

 Note that you can extract this module `Level_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `Level_TEExpression.tla` file takes precedence 
  over the module `Level_TEExpression` below).

---- MODULE Level_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, Naturals, TLC, Level

expression == 
    [
        \* To hide variables of the `Level` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        nxt |-> nxt
        ,x |-> x
        ,cur |-> cur
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_nxtUnchanged |-> nxt = nxt'
        
        \* Format the `nxt` variable as Json value.
        \* ,_nxtJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(nxt)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_nxtModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].nxt # _TETrace[s-1].nxt
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE Level_TETrace ----
\*EXTENDS IOUtils, TLC, Level
\*
\*trace == IODeserialize("Level_TTrace_1796171705.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE Level_TETrace ----
EXTENDS TLC, Level

trace == 
    <<
    ([cur |-> 0,x |-> 0,nxt |-> 0]),
    ([cur |-> 1,x |-> 1,nxt |-> 2])
    >>
----


=============================================================================

---- CONFIG Level_TTrace_1796171705 ----

INVARIANT
    _inv

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
\* Generated on Wed Dec 02 00:35:08 UTC 2026