-------------------------------- MODULE TLCExt --------------------------------
(* The operators of TLC's TLCExt module that tlaconf evaluates (the others,  *)
(* such as Trace or PickSuccessor, only make sense inside the model checker). *)
LOCAL INSTANCE TLC

AssertEq(a, b) == a = b

TLCModelValue(str) == str

TLCCache(expression, closure) == expression

\* The other operators of TLC's TLCExt: resolved only (they only make sense inside
\* the model checker, the evaluator does not compute them).
CONSTANTS AssertError(_, _), TLCGetOrDefault(_, _), TLCGetAndSet(_, _, _, _), Trace,
          CounterExample, ToTrace(_), TLCDefer(_), TLCNoOp(_), PickSuccessor(_),
          TLCFP(_), TLCEvalDefinition(_)
===============================================================================
