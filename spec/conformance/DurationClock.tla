--------------------------- MODULE DurationClock ---------------------------
(***************************************************************************)
(* Conformance module: durations and their boundaries.                    *)
(*   active  the active durations, [id, unit, remaining, order]            *)
(* Add(p):      p.duration                                                 *)
(* Event(p):    p.name (any event that is not a boundary)                  *)
(* Boundary(p): p.unit, p.expired (the expired ids the helper returned)    *)
(***************************************************************************)
EXTENDS Durations

VARIABLES
    \* @type: Set($duration);
    active

\* @type: ({duration: $duration}) => Bool;
Add(p) ==
    /\ p.duration.unit \in DurationUnits
    /\ p.duration.remaining >= 1
    /\ \A d \in active : d.id # p.duration.id
    /\ active' = active \cup {p.duration}

\* @type: ({name: Str}) => Bool;
Event(p) ==
    /\ p.name \notin DurationUnits
    /\ UNCHANGED active

\* @type: ({expired: Seq(Int), unit: Str}) => Bool;
Boundary(p) ==
    /\ p.unit \in DurationUnits
    /\ ExpiriesInAuthoredOrder(p.expired, active, p.unit)
    /\ active' = AfterBoundary(active, p.unit)

OneDurationPerId == \A d, e \in active : d.id = e.id => d = e

NothingExpiredActive == \A d \in active : d.remaining >= 1 /\ d.unit \in DurationUnits
=============================================================================
