---- MODULE Registers ----
\* For the determinism test: TLCSet registers must not carry over from one trace to
\* the next, and error messages must not depend on PYTHONHASHSEED.
EXTENDS Naturals, TLC
VARIABLE n

Tick(p) == /\ n' = n + 1
           /\ TLCSet(1, n + 1)

Check(p) == /\ TLCGet(1) = n
            /\ UNCHANGED n

Mix(p) == /\ p.pairs \cup {<<"a", TRUE>>, <<"b", TRUE>>, <<"c", TRUE>>, <<"d", TRUE>>} /= {}
          /\ UNCHANGED n
====
