----------------------------- MODULE PhaseCycle -----------------------------
(***************************************************************************)
(* The phase runner's events: reference profile, input revision 2, read    *)
(* from seed 002_7346ff58e0b15244.txt (prose only: every definition is     *)
(* authored).  An event: [kind, phase, cycle], kind "exit" |               *)
(* "cycleComplete" (phase "") | "enter".                                   *)
(***************************************************************************)
EXTENDS Naturals, Sequences

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), Str) => Int;
PhaseIndex(phases, ph) == CHOOSE i \in 1..Len(phases) : phases[i] = ph

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* A move to a phase not after the current one completes the cycle.
\* @type: (Seq(Str), Str, Str) => Bool;
Wraps(phases, from, to) == PhaseIndex(phases, to) <= PhaseIndex(phases, from)

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Str, Str, Int) => {cycle: Int, kind: Str, phase: Str};
PhaseEvent(kind, ph, cycle) == [kind |-> kind, phase |-> ph, cycle |-> cycle]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The runner emits exit, cycle-complete and enter, in this order.
\* @type: (Seq(Str), Str, Int, Str, Seq({cycle: Int, kind: Str, phase: Str})) => Bool;
TransitionEvents(phases, from, cycle, to, events) ==
    LET wraps == Wraps(phases, from, to)
    IN /\ Len(events) = IF wraps THEN 3 ELSE 2
       /\ events[1] = PhaseEvent("exit", from, cycle)
       /\ wraps => events[2] = PhaseEvent("cycleComplete", "", cycle)
       /\ events[Len(events)] = PhaseEvent("enter", to, IF wraps THEN cycle + 1 ELSE cycle)
=============================================================================
