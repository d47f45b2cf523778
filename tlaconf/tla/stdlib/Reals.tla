-------------------------------- MODULE Reals ---------------------------------
(* The reals: parsed and resolved only; the evaluator does not compute with *)
(* them.  Real, Infinity and division are provided as constants.            *)
EXTENDS Integers
CONSTANTS Real, Infinity, _ / _
===============================================================================
