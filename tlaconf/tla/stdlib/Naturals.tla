------------------------------- MODULE Naturals -------------------------------
(***************************************************************************)
(* The natural numbers.  Specifying Systems defines Nat and the primitive  *)
(* operators from the module ProtoReals; here they are declared as        *)
(* constant operators that the evaluator provides as builtins.  The        *)
(* others are the standard definitions.                                    *)
(***************************************************************************)
CONSTANTS Nat, _ + _, _ - _, _ * _, _ ^ _, _ < _, _ \div _, _ .. _

a > b == b < a
a \leq b == (a < b) \/ (a = b)
a \geq b == b \leq a
a % b == a - b * (a \div b)
===============================================================================
