------------------------------- MODULE Same --------------------------------
(* Values TLC finds equal however they are written, and values it keeps    *)
(* apart although Python finds them equal: Distinct counts them.            *)
EXTENDS Naturals, Sequences, TLC
VARIABLES x

Init == \/ x = <<1, 2>>
        \/ x = [i \in 1..2 |-> i]
        \/ x = [a |-> 1]
        \/ x = [s \in {"a"} |-> 1]
        \/ x = <<>>
        \/ x = [s \in {} |-> 1]
        \/ x = {1}
        \/ x = {TRUE}
        \/ x = <<TRUE>>
        \/ x = <<1>>
        \/ x = [a |-> TRUE]
        \/ x = {<<0>>}
        \/ x = {<<FALSE>>}
        \/ x = "a"
Next == UNCHANGED x
=============================================================================
