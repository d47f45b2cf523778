---------------------------- MODULE Combinatorics ----------------------------
EXTENDS Naturals
\* A function, as in the community module: TLC overrides the operator choose only.
factorial[n \in Nat] == IF n = 0 THEN 1 ELSE n * factorial[n - 1]
choose(n, k) == CHOOSE c : TRUE
=============================================================================
