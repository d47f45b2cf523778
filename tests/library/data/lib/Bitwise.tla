------------------------------- MODULE Bitwise -------------------------------
\* The infix operators apply the LOCAL four-argument ones, as in the community module.
LOCAL And(x, y, n, m) == CHOOSE v : TRUE
LOCAL Or(x, y, n, m) == CHOOSE v : TRUE
LOCAL Xor(x, y, n, m) == CHOOSE v : TRUE
x & y == And(x, y, 0, x)
x | y == Or(x, y, 0, x)
x ^^ y == Xor(x, y, 0, x)
Not(a) == CHOOSE v : TRUE
shiftR(n, pos) == CHOOSE v : TRUE
=============================================================================
