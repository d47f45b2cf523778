---- MODULE CounterOps ----
\* A tiny "profile" module for replay's own tests: found through reference-profile/rev1/.
EXTENDS Naturals

Add(n, k) == n + k
====
