------------------------------ MODULE Redefined ------------------------------
\* The smallest module of the etcd raft divergence: the .cfg's InitX <- TraceInitX
\* redefines a definition of the module this one EXTENDS.  TLC starts from x = 10 (the
\* base's Init sees the new InitX), and so does an INSTANCE's Init (I!Init): only
\* I!InitX, named through the instance, is the instance's own copy.
EXTENDS RedefinedBase, TLC
TraceInitX == x = 10
I == INSTANCE RedefinedBase
Inv == PrintT(<<x, I!InitX, I!Init>>)
=============================================================================
