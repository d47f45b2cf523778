------------------------------ MODULE PrintBase ------------------------------
EXTENDS TLC, Naturals
CONSTANT N
BaseUnused == PrintT(<<"base-unused">>)
BaseConst == PrintT(<<"base-const", N>>)
=============================================================================
