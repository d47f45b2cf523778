------------------------------- MODULE Piles4 -------------------------------
(***************************************************************************)
(* The profile's ordered piles (decks, hands, discard piles, play,         *)
(* removed) and their agreement with zone membership.                      *)
(***************************************************************************)
EXTENDS Zones4, DeckOrder4

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
DeckZones4 == {s \o ".Deck" : s \in Seats4}

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* Objective rows hold slots, the bank is a bag, set-aside is custody: the
\* other zone instances keep a top-first order.
PileZones4 == ZoneInstances4 \ ({"Bank", "SetAside"} \cup {s \o ".Objective" : s \in Seats4})

\* authored: 000_06548165aa2c0842.txt, Describe membership before moving anything
\* "A set of deck occupants cannot identify the next card to draw": every pile
\* is a valid sequence whose identifiers are exactly the zone's occupants.
\* @type: (Str -> Seq(Int), Str -> Set(Int)) => Bool;
PilesAgree4(piles, occupants) ==
    /\ DOMAIN piles = PileZones4
    /\ \A z \in PileZones4 : DeckSequenceValid4(piles[z])
    /\ \A z \in PileZones4 : SeqRange4(piles[z]) = occupants[z]

=============================================================================
