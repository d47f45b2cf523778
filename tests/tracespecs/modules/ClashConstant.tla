---- MODULE ClashConstant ----
CONSTANT F
====
