---- MODULE Vault ----
\* A vault whose withdrawals need the code and a checksum: the params domain of Withdraw
\* (ten thousand codes times a thousand amounts) is too large to enumerate, and only three
\* of its ten million requests are allowed from the initial state.  Sweep's second guard
\* is dead: no amount of Params_Sweep exceeds the balance by 999.
EXTENDS Integers
CONSTANTS Code
VARIABLES balance

Deposit(p) ==
    /\ p.amount \in 1..100
    /\ balance + p.amount <= 999
    /\ balance' = balance + p.amount

\* @type: ({pin: Int, amount: Int}) => Bool;
Withdraw(p) ==
    /\ p.pin = Code
    /\ (p.pin + p.amount) % 97 = 13
    /\ p.amount \in 1..balance
    /\ balance' = balance - p.amount

\* @type: ({pin: Int, amount: Int}) => Bool;
Sweep(p) ==
    /\ p.pin = Code
    /\ p.amount > balance + 999
    /\ balance' = 0

Init == balance = 300
Next == \E a \in 0..200 : Deposit([amount |-> a])

NonNegative == balance >= 0

Params_Deposit == [amount |-> 0..200]
Params_Withdraw == [pin |-> 0..9999, amount |-> 0..999]
Params_Sweep == [pin |-> 0..9999, amount |-> 0..999]
====
