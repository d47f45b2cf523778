---- MODULE __apalache_internal ----
\* The part of Apalache's internal module the fake explorer server needs (for tests only):
\* Apalache binds the capacity to the static bound of a sequence's length; its length is
\* the least such bound.
EXTENDS Sequences

__ApalacheSeqCapacity(s) == Len(s)
====
