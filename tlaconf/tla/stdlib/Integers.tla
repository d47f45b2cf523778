------------------------------- MODULE Integers -------------------------------
(* The integers: Int is provided by the evaluator (see Naturals).           *)
EXTENDS Naturals
CONSTANT Int

-. a == 0 - a
===============================================================================
