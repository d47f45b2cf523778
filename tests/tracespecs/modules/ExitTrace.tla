------------------------------ MODULE ExitTrace ------------------------------
\* TLCSet("exit", TRUE) in a CONSTRAINT, as the 2024 paper's trace specs end their
\* search: TLC stops once the state being explored has its successors, and the
\* POSTCONDITION sees the diameter reached then.
EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x' = x + 1 \/ x' = x + 2
Stop == x >= 3 => TLCSet("exit", TRUE)
Post == PrintT(<<"diameter", TLCGet("stats").diameter>>)
=============================================================================
