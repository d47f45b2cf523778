-------------------------------- MODULE Bank --------------------------------
(***************************************************************************)
(* A bank of accounts: deposits, withdrawals and transfers; no overdraft.  *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS Accounts, Limit

VARIABLES balance

Deposit(p) ==
    /\ p.account \in Accounts
    /\ p.amount \in 1..Limit
    /\ balance' = [balance EXCEPT ![p.account] = @ + p.amount]

Withdraw(p) ==
    /\ p.account \in Accounts
    /\ p.amount \in 1..balance[p.account]
    /\ balance' = [balance EXCEPT ![p.account] = @ - p.amount]

Transfer(p) ==
    /\ p.from \in Accounts
    /\ p.to \in Accounts \ {p.from}
    /\ p.amount \in 1..balance[p.from]
    /\ balance' = [balance EXCEPT ![p.from] = @ - p.amount, ![p.to] = @ + p.amount]

NoOverdraft == \A a \in Accounts : balance[a] >= 0

\* What tlaconf mbt requests: each field drawn from its own set.
Params_Deposit == [account |-> Accounts \cup {"mallory"}, amount |-> 0..Limit + 1]
Params_Withdraw == [account |-> Accounts, amount |-> 0..Limit + 1]
Params_Transfer == [from |-> Accounts, to |-> Accounts, amount |-> 0..Limit + 1]

=============================================================================
