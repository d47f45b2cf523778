------------------------------ MODULE TallyView ------------------------------
(* Tally seen through a mapping: the log gives a total and a note.           *)
EXTENDS Tally
Observe(s, logged) == s.count.a + s.count.b = logged.total
=============================================================================
