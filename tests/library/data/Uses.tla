-------------------------------- MODULE Uses --------------------------------
EXTENDS Naturals, Sequences, TLC, Json, IOUtils, VectorClocks, SequencesExt,
        FiniteSetsExt, Functions, BagsExt
Dropped == RemoveAt(<<1, 2, 3>>, 2)
=============================================================================
