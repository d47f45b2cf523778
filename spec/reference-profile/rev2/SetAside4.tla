------------------------------ MODULE SetAside4 ------------------------------
(***************************************************************************)
(* Temporary custody: transit records of set-aside objects and the view of *)
(* their exit.                                                             *)
(***************************************************************************)
EXTENDS Zones4

\* authored: 000_06548165aa2c0842.txt, Track temporary custody by the responsible procedure
TransitFields4 == {"origin", "effectInstance", "owningAbility", "cleanup"}

\* authored: 000_06548165aa2c0842.txt, Track temporary custody by the responsible procedure
\* Every current set-aside object has a transit record naming its origin (an
\* admitted zone other than set-aside), effect instance, owning ability and
\* cleanup obligation ("none" when there is none).
\* @type: (Set(Int), Int -> {cleanup: Str, effectInstance: Str, origin: Str, owningAbility: Str}) => Bool;
SetAsideTrackingValid4(setAsideIds, transit) ==
    /\ setAsideIds \subseteq DOMAIN transit
    /\ \A id \in setAsideIds :
          /\ DOMAIN transit[id] = TransitFields4
          /\ transit[id].origin \in ZoneInstances4 \ {"SetAside"}

\* authored: 000_06548165aa2c0842.txt, Track temporary custody by the responsible procedure
\* A qualifying observer sees the exit from the temporary zone, any other
\* observer the recorded origin.
\* @type: (Int, Int -> {cleanup: Str, effectInstance: Str, origin: Str, owningAbility: Str}, Bool) => Str;
SetAsideExitView4(id, transit, observerQualifies) ==
    IF observerQualifies THEN "SetAside" ELSE transit[id].origin

=============================================================================
