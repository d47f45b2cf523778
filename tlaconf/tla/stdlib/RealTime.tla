------------------------------ MODULE RealTime --------------------------------
(* TLA+'s real-time module: resolved only (the evaluator does not compute    *)
(* with reals).                                                              *)
EXTENDS Reals
VARIABLE now
CONSTANTS RTBound(_, _, _, _), RTnow(_)
===============================================================================
