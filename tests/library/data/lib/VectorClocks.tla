----------------------------- MODULE VectorClocks -----------------------------
EXTENDS Naturals, Sequences
CausalOrder(log, clock(_), node(_), domain(_)) == CHOOSE newlog : TRUE
=============================================================================
