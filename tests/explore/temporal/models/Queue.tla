---- MODULE Queue ----
\* TLCGet("queue") and TLCGet("level") read in properties.  TLC's single worker checks
\* a state predicate of a property (P, []P) and an action property ([][A]_v) on each
\* successor before enqueueing it (an initial state once it is enqueued), and decides
\* the state predicates of a liveness formula once all the successors are enqueued.
EXTENDS Naturals, TLC
VARIABLE x
Init == x \in {0, 1}
Next == x' \in {(x + 1) % 12, (x + 5) % 12, (x + 7) % 12}
Spec == Init /\ [][Next]_x
InitQueue == TLCGet("queue") = 1
QueueBelow3 == [](TLCGet("queue") < 3)
QueueBelow4 == [](TLCGet("queue") < 4)
QueueBelow5 == [](TLCGet("queue") < 5)
StepQueue == [][TLCGet("queue") < 4]_x
LiveQueue == <>[](TLCGet("queue") < 5)
LevelBelow4 == [](TLCGet("level") < 4)
StepLevel == [][TLCGet("level") < 3]_x
LiveLevel == <>[](TLCGet("level") < 4)
====
