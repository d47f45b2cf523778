-------------------------------- MODULE TLCExt --------------------------------
(* The operators of TLC's TLCExt module that tlaconf evaluates (the others,  *)
(* such as Trace or PickSuccessor, only make sense inside the model checker). *)
LOCAL INSTANCE TLC

AssertEq(a, b) == a = b

TLCModelValue(str) == str
===============================================================================
