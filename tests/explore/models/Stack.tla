---- MODULE Stack ----
\* A bounded stack that deadlocks once every push is spent; VIEW forgets the push count.
EXTENDS Naturals, Sequences
CONSTANTS Items, Depth, MaxPushes
VARIABLES stack, pushes
Init == stack = <<>> /\ pushes = 0
Push == /\ Len(stack) < Depth
        /\ pushes < MaxPushes
        /\ \E i \in Items : stack' = Append(stack, i)
        /\ pushes' = pushes + 1
Pop == /\ Len(stack) > 1
       /\ stack' = Tail(stack)
       /\ UNCHANGED pushes
Next == Push \/ Pop
OnlyStack == stack
NotTooMany == pushes' <= MaxPushes
MCDepth == 3
====
