---- MODULE Counter ----
\* A counter that climbs to Max and is reset to 0: safety and liveness properties.
EXTENDS Naturals
CONSTANT Max
VARIABLE x
vars == <<x>>
Init == x = 0
Inc == x < Max /\ x' = x + 1
Reset == x = Max /\ x' = 0
Next == Inc \/ Reset
Spec == Init /\ [][Next]_vars
FairSpec == Spec /\ WF_vars(Next)

Bounded == [](x <= Max)
TooLow == [](x < Max)
StartsAtZero == x = 0
Climbs == [][x' > x]_x
ClimbsOrResets == [][x' > x \/ x' = 0]_x
Safety == StartsAtZero /\ Bounded /\ ClimbsOrResets
ReachesMax == <>(x = Max)
BackToZero == []<>(x = 0)
ResetsInfinitely == []<><<Reset>>_vars
StaysAtMax == <>[](x = Max)
LeadsToMax == (x = 1) ~> (x = Max)
EachValue == \A i \in 0..Max : <>(x = i)
Everything == Safety /\ BackToZero /\ LeadsToMax
NotForever == ~[](x < Max)
Implication == [](x = Max => <>(x = 0))
====
