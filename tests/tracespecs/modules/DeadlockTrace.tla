---- MODULE DeadlockTrace ----
(* Deadlock as the end of the log: no step follows the last line (the deadlock check *)
(* left on), so TLC's verdict on a log it matches is "Deadlock reached" at depth     *)
(* Len(Log) + 1, and on a log it cannot match a deadlock earlier; the log is one JSON *)
(* array, read by JsonDeserialize.                                                    *)
EXTENDS Naturals, Sequences, Json, TLC
CONSTANT LogFile
Log == JsonDeserialize(LogFile)
VARIABLES i, pos
Init == i = 1 /\ pos = 0
Next == /\ i <= Len(Log)
        /\ pos' = pos + Log[i].move
        /\ pos' \in 0..3
        /\ i' = i + 1
====
