---------------------------- MODULE PhaseRunner -----------------------------
(***************************************************************************)
(* Conformance module: the optional phase runner.                         *)
(*   Phases  the cycle (a sequence of phase names)                        *)
(*   phase   the current phase ("" before the start); cycle (0 before)     *)
(* Start(p):   p.events (what the runner emitted)                          *)
(* Advance(p): p.to, p.events                                              *)
(***************************************************************************)
EXTENDS PhaseCycle

CONSTANT
    \* @type: Seq(Str);
    Phases

VARIABLES
    \* @type: Str;
    phase,
    \* @type: Int;
    cycle

\* @type: ({events: Seq({cycle: Int, kind: Str, phase: Str})}) => Bool;
Start(p) ==
    /\ phase = ""
    /\ p.events = <<PhaseEvent("enter", Phases[1], 1)>>
    /\ phase' = Phases[1]
    /\ cycle' = 1

\* @type: ({events: Seq({cycle: Int, kind: Str, phase: Str}), to: Str}) => Bool;
Advance(p) ==
    /\ phase # ""
    /\ \E i \in 1..Len(Phases) : Phases[i] = p.to
    /\ TransitionEvents(Phases, phase, cycle, p.to, p.events)
    /\ phase' = p.to
    /\ cycle' = IF Wraps(Phases, phase, p.to) THEN cycle + 1 ELSE cycle

StartedConsistently == (phase = "") = (cycle = 0)

PhaseOfTheCycle == phase = "" \/ \E i \in 1..Len(Phases) : Phases[i] = phase

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the helper reports (events) are replaced by its answer; their sets here only
\* classify a request as allowed or not.
Params_Start == [events |-> {<<PhaseEvent("enter", Phases[1], 1)>>}]

\* to = "": the next phase (the helper names it).
Params_Advance == [to |-> {Phases[i] : i \in 1..Len(Phases)} \cup {"Combat", ""}, events |-> {<<>>}]

=============================================================================
