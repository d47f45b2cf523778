------------------------------- MODULE Level -------------------------------
(* TLCGet("level") where TLC 1.8.0 gives it: 0 in ASSUME, the initial        *)
(* predicate and POSTCONDITION; the level of the state in an invariant; in a *)
(* step from level L, L unprimed and L + 1 primed (the next state's level).  *)
(* Each PrintT shows what the expression is; the invariants, the action      *)
(* constraint and the postcondition hold only under TLC's semantics.         *)
EXTENDS Naturals, TLC
VARIABLES x, nxt, cur
ASSUME PrintT(<<"assume", TLCGet("level")>>)

Init == x = TLCGet("level") /\ nxt = 0 /\ cur = 0
Next == /\ x < 3
        /\ x' = x + 1
        /\ nxt' = TLCGet("level")'
        /\ cur' = TLCGet("level")

Shown == PrintT(<<"state", TLCGet("level"), x, nxt, cur>>)
StateLevel == TLCGet("level") = x + 1
StepLevels == x > 0 => (nxt = x + 1 /\ cur = x)
Wrong == x > 0 => nxt = cur
Step == /\ PrintT(<<"step", TLCGet("level"), TLCGet("level")'>>)
        /\ TLCGet("level")' = TLCGet("level") + 1
Done == PrintT(<<"post", TLCGet("level")>>) /\ TLCGet("level") = 0
        /\ TLCGet("stats").diameter = 4
=============================================================================
