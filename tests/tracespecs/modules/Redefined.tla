------------------------------ MODULE Redefined ------------------------------
\* The smallest module of the etcd raft divergence: the .cfg's InitX <- TraceInitX
\* redefines a definition of the module this one EXTENDS.  TLC starts from x = 10 (the
\* base's Init sees the new InitX); an INSTANCE of the base keeps its own InitX.
EXTENDS RedefinedBase, TLC
TraceInitX == x = 10
I == INSTANCE RedefinedBase
J(y) == INSTANCE RedefinedBase WITH x <- y
Inv == PrintT(<<x, I!InitX, J(10)!InitX, J(0)!InitX>>)
=============================================================================
