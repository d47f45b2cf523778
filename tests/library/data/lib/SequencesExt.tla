----------------------------- MODULE SequencesExt -----------------------------
EXTENDS Naturals, Sequences
IsPrefix(s, t) == CHOOSE b : TRUE
SetToSeq(S) == CHOOSE f : TRUE
Contains(s, e) == CHOOSE b : TRUE
FoldLeft(op(_, _), base, s) == CHOOSE v : TRUE
FoldRight(op(_, _), s, base) == CHOOSE v : TRUE
FoldSeq(op(_, _), base, s) == CHOOSE v : TRUE
FoldLeftDomain(op(_, _), base, s) == CHOOSE v : TRUE
FoldRightDomain(op(_, _), s, base) == CHOOSE v : TRUE
SelectInSeq(s, Test(_)) == CHOOSE i : TRUE
SelectLastInSeq(s, Test(_)) == CHOOSE i : TRUE
SelectInSubSeq(s, from, to, Test(_)) == CHOOSE i : TRUE
SelectLastInSubSeq(s, from, to, Test(_)) == CHOOSE i : TRUE
RemoveFirst(s, e) == CHOOSE t : TRUE
RemoveFirstMatch(s, Test(_)) == CHOOSE t : TRUE
Suffixes(s) == CHOOSE S : TRUE
AllSubSeqs(s) == CHOOSE S : TRUE
SetToSeqs(S) == CHOOSE T : TRUE
LongestCommonPrefix(S) == CHOOSE p : TRUE
\* Not overridden by TLC: evaluated from this definition.
RemoveAt(s, i) == SubSeq(s, 1, i-1) \o SubSeq(s, i+1, Len(s))
\* The override has two parameters: a definition with three is the user's own.
Contains3(s, e, f) == TRUE
=============================================================================
