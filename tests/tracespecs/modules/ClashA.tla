---- MODULE ClashA ----
F == "A"
G(x) == <<"A", x>>
====
