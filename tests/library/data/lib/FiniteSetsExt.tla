---------------------------- MODULE FiniteSetsExt ----------------------------
FoldSet(op(_, _), base, set) == CHOOSE v : TRUE
Quantify(S, P(_)) == CHOOSE n : TRUE
kSubset(k, S) == CHOOSE T : TRUE
=============================================================================
