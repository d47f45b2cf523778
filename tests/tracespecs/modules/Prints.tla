-------------------------------- MODULE Prints --------------------------------
\* When TLC prints: every constant definition without parameters once at startup
\* (used or not, the EXTENDed modules' first), then the ASSUMEs, then each expression
\* each time it is evaluated (never a branch that is not taken).
EXTENDS PrintBase
VARIABLE x
Unused == PrintT("unused")
WithArg(a) == PrintT(<<"witharg", a>>)
K == PrintT("K")
Val == Print("val", 7)
ASSUME PrintT("assume")
Init == x = 0 /\ PrintT("init")
Next == /\ x < 2
        /\ x' = x + 1
        /\ K
        /\ (x' > 1 => PrintT(<<"done", 100>>))
        /\ WithArg(1)
        /\ LET c == PrintT("let") IN c
        /\ (FALSE => PrintT("never"))
        /\ Val = 7
        /\ BaseConst
Inv == x >= 0 /\ PrintT(<<"inv", x>>)
=============================================================================
