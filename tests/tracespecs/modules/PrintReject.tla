----------------------------- MODULE PrintReject -----------------------------
\* A trace spec in the etcd style (a progress PrintT in the step) whose log it
\* rejects: TLC prints once per step evaluated by its search, and tlaconf's diagnosis
\* of the rejection (which evaluates the last steps again) prints nothing.
EXTENDS Naturals, Sequences, TLC
Log == <<1, 2, 5>>
VARIABLES x, l
Init == x = 0 /\ l = 1
Next == /\ l <= Len(Log)
        /\ x' = x + 1
        /\ l' = l + 1
        /\ PrintT(<<"step", l>>)
Match == x' = Log[l]
Post == TLCGet("stats").diameter - 1 = Len(Log)
=============================================================================
