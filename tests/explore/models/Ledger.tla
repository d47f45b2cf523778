---- MODULE Ledger ----
\* A conformance-style module: one action taking a params record, a planted bug
\* (Withdraw does not check the balance), an invariant that catches it.
EXTENDS Integers
CONSTANTS Accounts, Amounts
VARIABLES balance
Init == balance = [a \in Accounts |-> 2]
Deposit(p) == /\ p.amount \in Amounts
              /\ balance[p.account] < 4
              /\ balance' = [balance EXCEPT ![p.account] = @ + p.amount]
Withdraw(p) == /\ p.amount \in Amounts
               /\ balance' = [balance EXCEPT ![p.account] = @ - p.amount]
Next == \E a \in Accounts, n \in Amounts :
          \/ Deposit([account |-> a, amount |-> n])
          \/ Withdraw([account |-> a, amount |-> n])
NonNegative == \A a \in Accounts : balance[a] >= 0
====
