------------------------------ MODULE Functions ------------------------------
FoldFunction(op(_, _), base, fun) == CHOOSE v : TRUE
FoldFunctionOnSet(op(_, _), base, fun, indices) == CHOOSE v : TRUE
IsInjective(f) == CHOOSE b : TRUE
AntiFunction(f) == CHOOSE g : TRUE
=============================================================================
