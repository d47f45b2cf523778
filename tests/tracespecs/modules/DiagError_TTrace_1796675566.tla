---- MODULE DiagError_TTrace_1796675566 ----
EXTENDS Sequences, TLCExt, Toolbox, DiagError, Naturals, TLC

_expression ==
    LET DiagError_TEExpression == INSTANCE DiagError_TEExpression
    IN DiagError_TEExpression!expression
----

_trace ==
    LET DiagError_TETrace == INSTANCE DiagError_TETrace
    IN DiagError_TETrace!trace
----

_inv ==
    ~(
        TLCGet("level") = Len(_TETrace)
        /\
        up = ({"a"})
        /\
        l = (2)
    )
----

_init ==
    /\ l = _TETrace[1].l
    /\ up = _TETrace[1].up
----

_next ==
    /\ \E i,j \in DOMAIN _TETrace:
        /\ \/ /\ j = i + 1
              /\ i = TLCGet("level")
        /\ l  = _TETrace[i].l
        /\ l' = _TETrace[j].l
        /\ up  = _TETrace[i].up
        /\ up' = _TETrace[j].up

\* Uncomment the ASSUME below to write the states of the error trace
\* to the given file in Json format. Note that you can pass any tuple
\* to `JsonSerialize`. For example, a sub-sequence of _TETrace.
    \* ASSUME
    \*     LET J == INSTANCE Json
    \*         IN J!JsonSerialize("DiagError_TTrace_1796675566.json", _TETrace)

=============================================================================

 Note that you can extract this module `DiagError_TEExpression`
  to a dedicated file to reuse `expression` (the module in the 
  dedicated `DiagError_TEExpression.tla` file takes precedence 
  over the module `DiagError_TEExpression` below).

---- MODULE DiagError_TEExpression ----
EXTENDS Sequences, TLCExt, Toolbox, DiagError, Naturals, TLC

expression == 
    [
        \* To hide variables of the `DiagError` spec from the error trace,
        \* remove the variables below.  The trace will be written in the order
        \* of the fields of this record.
        l |-> l
        ,up |-> up
        
        \* Put additional constant-, state-, and action-level expressions here:
        \* ,_stateNumber |-> _TEPosition
        \* ,_lUnchanged |-> l = l'
        
        \* Format the `l` variable as Json value.
        \* ,_lJson |->
        \*     LET J == INSTANCE Json
        \*     IN J!ToJson(l)
        
        \* Lastly, you may build expressions over arbitrary sets of states by
        \* leveraging the _TETrace operator.  For example, this is how to
        \* count the number of times a spec variable changed up to the current
        \* state in the trace.
        \* ,_lModCount |->
        \*     LET F[s \in DOMAIN _TETrace] ==
        \*         IF s = 1 THEN 0
        \*         ELSE IF _TETrace[s].l # _TETrace[s-1].l
        \*             THEN 1 + F[s-1] ELSE F[s-1]
        \*     IN F[_TEPosition - 1]
    ]

=============================================================================



Parsing and semantic processing can take forever if the trace below is long.
 In this case, it is advised to uncomment the module below to deserialize the
 trace from a generated binary file.

\*
\*---- MODULE DiagError_TETrace ----
\*EXTENDS IOUtils, DiagError, TLC
\*
\*trace == IODeserialize("DiagError_TTrace_1796675566.bin", TRUE)
\*
\*=============================================================================
\*

---- MODULE DiagError_TETrace ----
EXTENDS DiagError, TLC

trace == 
    <<
    ([up |-> {},l |-> 1]),
    ([up |-> {"a"},l |-> 2])
    >>
----


=============================================================================

---- CONFIG DiagError_TTrace_1796675566 ----

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
\* Generated on Mon Dec 07 20:32:49 UTC 2026