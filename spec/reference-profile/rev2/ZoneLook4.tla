------------------------------ MODULE ZoneLook4 ------------------------------
(***************************************************************************)
(* The default look rule: zone classes and who may see an object in them. *)
(***************************************************************************)
EXTENDS Zones4

\* authored: 000_06548165aa2c0842.txt, Determine the observer's view explicitly
\* Decks grant no content view (Hidden), a hand is visible to its controller
\* (Secret), every other admitted zone uses its face/controller condition.
ZoneClass4(zone) ==
    CASE zone \in {s \o ".Deck" : s \in Seats4} -> "Hidden"
      [] zone \in {s \o ".Hand" : s \in Seats4} -> "Secret"
      [] zone \in ZoneInstances4 -> "SchemaAtom128"
      [] OTHER -> "Unadmitted"

\* authored: 000_06548165aa2c0842.txt, Determine the observer's view explicitly
\* The seat a seat-specific zone is associated with (its controller for looks).
ZoneSeat4(zone) == CHOOSE s \in Seats4 : zone \in SeatZones4(s)

\* verbatim: 000_06548165aa2c0842.txt, reference-profile · input revision 2 · CC0 1.0
DefaultZoneLook4(zone, face, viewer, controller) ==
    CASE ZoneClass4(zone) = "Hidden" -> FALSE
      [] ZoneClass4(zone) = "Secret" -> viewer = controller
      [] ZoneClass4(zone) = "SchemaAtom128" -> face = "Up" \/ viewer = controller
      [] OTHER -> FALSE

=============================================================================
