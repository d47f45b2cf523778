----------------------------- MODULE KindsTrace -----------------------------
(* The trace-spec form of tests/explore/models/kinds/Kinds.tla: TRUE and 1  *)
(* are different values, so <<1, 0>> is a state of its own and the log's    *)
(* step from it reaches <<1, 1>>, where Inv is FALSE (TLC: Inv violated).   *)
EXTENDS Naturals, Sequences, TLC, Json, IOUtils
VARIABLES x, y
vars == <<x, y>>

Log == ndJsonDeserialize(IOEnv.JSON)

Init == (x = TRUE \/ x = 1) /\ y = 0
Next == y < Len(Log) /\ y' = y + 1 /\ x' = x
TraceSpec == Init /\ [][Next]_vars

StepIsLogged == Log[TLCGet("level")].y = y'
TraceView == <<vars, TLCGet("level")>>
TraceAccepted == TLCGet("stats").diameter - 1 = Len(Log)

Inv == ToString(x) # "1" \/ y = 0
=============================================================================
