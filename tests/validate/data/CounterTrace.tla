---------------------------- MODULE CounterTrace ----------------------------
(* A TLC trace-validation spec in the style of EWD998ChanTrace: the log is   *)
(* read with ndJsonDeserialize(IOEnv.JSON) and sorted with CausalOrder; step *)
(* i of a behaviour must explain log entry TLCGet("level").                  *)
EXTENDS Counter, Json, IOUtils, VectorClocks, Sequences, TLC
ASSUME TLCGet("config").mode = "bfs"

Log == CausalOrder(ndJsonDeserialize(IOEnv.JSON), LAMBDA l : l.vc, LAMBDA l : l.node,
                   LAMBDA vc : DOMAIN vc)

TraceSpec == Init /\ [][Next \/ UNCHANGED vars]_vars

IsX(l) == /\ l.op = "x"
          /\ IncX
          /\ x' = l.value
IsY(l) == /\ l.op = "y"
          /\ IncY
          /\ y' = l.value
IsReset(l) == l.op = "reset" /\ Reset
IsNote(l) == l.op = "note" /\ UNCHANGED vars

TraceNextConstraint ==
    LET i == TLCGet("level")
    IN /\ i <= Len(Log)
       /\ \/ IsX(Log[i])
          \/ IsY(Log[i])
          \/ IsReset(Log[i])
          \/ IsNote(Log[i])

TraceView == <<vars, TLCGet("level")>>

TraceAccepted == TLCGet("stats").diameter - 1 = Len(Log)

XSmall == x < 5
=============================================================================
