---------------------------- MODULE Randomization -----------------------------
(* TLC's Randomization module: resolved only (its operators choose at random  *)
(* inside the model checker; the evaluator does not compute them).           *)
CONSTANTS RandomSubset(_, _), RandomSetOfSubsets(_, _, _),
          TestRandomSetOfSubsets(_, _, _)
===============================================================================
