---- MODULE TallyOps ----
EXTENDS Naturals
Plus(a, b) == a + b
====
