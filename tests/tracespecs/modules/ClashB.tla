---- MODULE ClashB ----
F == "B"
G(x) == <<"B", x>>
Contains(s, e) == "B's Contains"
====
