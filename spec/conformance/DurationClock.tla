--------------------------- MODULE DurationClock ---------------------------
(***************************************************************************)
(* Conformance module: durations and their boundaries.                    *)
(*   active  the active durations, [id, unit, remaining, order, created]   *)
(*   added   how many durations were ever added (the last one's created)   *)
(* Add(p):      p.duration ([id, unit, remaining, order]: created is the   *)
(*              helper's, the next number)                                 *)
(* Event(p):    p.name (any event that is not a boundary)                  *)
(* Boundary(p): p.unit, p.expired (the expired ids the helper returned)    *)
(***************************************************************************)
EXTENDS Durations

VARIABLES
    \* @type: Set($duration);
    active,
    \* @type: Int;
    added

\* @type: ({duration: {id: Int, order: Int, remaining: Int, unit: Str}}) => Bool;
Add(p) ==
    /\ p.duration.unit \in DurationUnits
    /\ p.duration.remaining >= 1
    /\ \A d \in active : d.id # p.duration.id
    /\ active' = active \cup {[id |-> p.duration.id, unit |-> p.duration.unit,
                                remaining |-> p.duration.remaining, order |-> p.duration.order,
                                created |-> added + 1]}
    /\ added' = added + 1

\* @type: ({name: Str}) => Bool;
Event(p) ==
    /\ p.name \notin DurationUnits
    /\ UNCHANGED <<active, added>>

\* @type: ({expired: Seq(Int), unit: Str}) => Bool;
Boundary(p) ==
    /\ p.unit \in DurationUnits
    /\ ExpiriesInAuthoredOrder(p.expired, active, p.unit)
    /\ active' = AfterBoundary(active, p.unit)
    /\ UNCHANGED added

OneDurationPerId == \A d, e \in active : d.id = e.id => d = e

CreatedOnce == \A d, e \in active : d.created = e.created => d = e

CreatedSoFar == \A d \in active : d.created \in 1..added

NothingExpiredActive == \A d \in active : d.remaining >= 1 /\ d.unit \in DurationUnits

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the helper reports (expired) are replaced by its answer; their sets here only
\* classify a request as allowed or not.
Params_Add ==
    [duration |-> [id : 1..4, unit : DurationUnits \cup {"segment"}, remaining : 0..2,
                   order : 1..2]]

Params_Event == [name |-> {"action", "draw", "priority", "phase", "turn"}]

Params_Boundary == [unit |-> DurationUnits \cup {"segment"}, expired |-> {<<>>}]

=============================================================================
