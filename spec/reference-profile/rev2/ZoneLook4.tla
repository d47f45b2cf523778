------------------------------ MODULE ZoneLook4 ------------------------------
(***************************************************************************)
(* The default look rule: zone classes and who may see an object in them. *)
(***************************************************************************)
EXTENDS Zones4

\* authored: 000_06548165aa2c0842.txt, Determine the observer's view explicitly
\* Decks grant no content view (Hidden), a hand is visible to its controller
\* (Secret), every other admitted zone uses its face/controller condition.
\* @type: (Str) => Str;
ZoneClass4(zone) ==
    CASE zone \in {SeatZone4[s]["Deck"] : s \in Seats4} -> "Hidden"
      [] zone \in {SeatZone4[s]["Hand"] : s \in Seats4} -> "Secret"
      [] zone \in ZoneInstances4 -> "SchemaAtom128"
      [] OTHER -> "Unadmitted"

\* authored: 000_06548165aa2c0842.txt, Determine the observer's view explicitly
\* Seat zone -> its seat, as a table (constant-level: a model checker receives a literal).
SeatOfZone4 == [z \in UNION {SeatZones4(s) : s \in Seats4} |->
                   CHOOSE s \in Seats4 : z \in SeatZones4(s)]

\* authored: 000_06548165aa2c0842.txt, Determine the observer's view explicitly
\* The seat a seat-specific zone is associated with (its controller for looks).
\* @type: (Str) => Str;
ZoneSeat4(zone) == SeatOfZone4[zone]

\* @type: (Str, Str, Str, Str) => Bool;
\* verbatim: 000_06548165aa2c0842.txt, reference-profile · input revision 2 · CC0 1.0
DefaultZoneLook4(zone, face, viewer, controller) ==
    CASE ZoneClass4(zone) = "Hidden" -> FALSE
      [] ZoneClass4(zone) = "Secret" -> viewer = controller
      [] ZoneClass4(zone) = "SchemaAtom128" -> face = "Up" \/ viewer = controller
      [] OTHER -> FALSE

=============================================================================
