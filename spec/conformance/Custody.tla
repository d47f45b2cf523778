------------------------------ MODULE Custody ------------------------------
(***************************************************************************)
(* Conformance module: set-aside custody and transit records.              *)
(*   inGameIds, occupants  as in ZoneMembership                            *)
(*   transit    set-aside identifier -> [origin, effectInstance,           *)
(*              owningAbility, cleanup]                                    *)
(* SetAside(p): p.id, p.source, p.effectInstance, p.owningAbility,         *)
(*              p.cleanup, p.movementAuthorized                            *)
(* Exit(p):     p.id, p.destination, p.observerQualifies, p.reported (the  *)
(*              exit view the implementation reported), p.movementAuthorized *)
(* Next: some step (a step without an action label is checked against it) *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANT
    \* @type: Set(Str);
    Seats4

VARIABLES
    \* @type: Set(Int);
    inGameIds,
    \* @type: Str -> Set(Int);
    occupants,
    \* @type: Int -> {cleanup: Str, effectInstance: Str, origin: Str, owningAbility: Str};
    transit

INSTANCE SetAside4

\* @type: ({cleanup: Str, effectInstance: Str, id: Int, movementAuthorized: Bool, owningAbility: Str, source: Str}) => Bool;
SetAside(p) ==
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source, "SetAside",
                       p.movementAuthorized, FALSE, FALSE)
    /\ transit' = [i \in DOMAIN transit \cup {p.id} |->
                     IF i = p.id
                     THEN [origin |-> p.source, effectInstance |-> p.effectInstance,
                           owningAbility |-> p.owningAbility, cleanup |-> p.cleanup]
                     ELSE transit[i]]
    /\ UNCHANGED inGameIds

\* @type: ({destination: Str, id: Int, movementAuthorized: Bool, observerQualifies: Bool, reported: Str}) => Bool;
Exit(p) ==
    /\ p.id \in DOMAIN transit
    /\ p.reported = SetAsideExitView4(p.id, transit, p.observerQualifies)
    /\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, "SetAside", p.destination,
                       p.movementAuthorized, FALSE, FALSE)
    /\ transit' = [i \in DOMAIN transit \ {p.id} |-> transit[i]]
    /\ UNCHANGED inGameIds

\* Some step of the module.  A set-aside's transit record is the one the next
\* state shows, an exit's reported view the one it can report.
Next ==
    \/ \E id \in inGameIds, source \in ZoneInstances4 :
           /\ id \in occupants[source]
           /\ id \in DOMAIN transit'
           /\ SetAside([id |-> id, source |-> source, movementAuthorized |-> TRUE,
                        effectInstance |-> transit'[id].effectInstance,
                        owningAbility |-> transit'[id].owningAbility,
                        cleanup |-> transit'[id].cleanup])
    \/ \E id \in DOMAIN transit, destination \in ZoneInstances4, qualifies \in BOOLEAN :
           Exit([id |-> id, destination |-> destination, observerQualifies |-> qualifies,
                 reported |-> SetAsideExitView4(id, transit, qualifies),
                 movementAuthorized |-> TRUE])

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Params_SetAside ==
    [id |-> inGameIds \cup {99}, source |-> ZoneInstances4, movementAuthorized |-> BOOLEAN,
     effectInstance |-> {"effect-0", "effect-1"}, owningAbility |-> {"ability-0"},
     cleanup |-> {"none", "return"}]

\* reported is the implementation's (the exit view it reports); candidates are drawn.
Params_Exit ==
    [id |-> DOMAIN transit \cup {99}, destination |-> ZoneInstances4,
     observerQualifies |-> BOOLEAN, movementAuthorized |-> BOOLEAN,
     reported |-> {"SetAside"} \cup {transit[i].origin : i \in DOMAIN transit}]

Partition == ZonePartition4(inGameIds, occupants)

TrackingValid ==
    /\ "SetAside" \in DOMAIN occupants
    /\ SetAsideTrackingValid4(occupants["SetAside"], transit)

=============================================================================
