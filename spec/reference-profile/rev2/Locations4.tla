----------------------------- MODULE Locations4 -----------------------------
(***************************************************************************)
(* Where an object is: a host first, then a deck position, then a zone.    *)
(***************************************************************************)
EXTENDS Naturals, Sequences

\* authored: 000_06548165aa2c0842.txt, Keep order where it carries information
\* hostOf: hosted object -> host object; deckOrder: deck zone -> sequence (top
\* first); occupants: zone -> set.  Every answer is a record with the same
\* fields so that answers compare without mixing kinds.
\* @type: (Int, Int -> Int, Str -> Seq(Int), Str -> Set(Int)) => {host: Int, kind: Str, position: Int, zone: Str};
ObjectLocation4(id, hostOf, deckOrder, occupants) ==
    IF id \in DOMAIN hostOf
    THEN [kind |-> "hosted", host |-> hostOf[id], zone |-> "", position |-> 0]
    ELSE IF \E z \in DOMAIN deckOrder : \E i \in DOMAIN deckOrder[z] : deckOrder[z][i] = id
    THEN LET dz == CHOOSE y \in DOMAIN deckOrder :
                       \E i \in DOMAIN deckOrder[y] : deckOrder[y][i] = id
         IN  [kind |-> "deck", host |-> 0, zone |-> dz,
              position |-> CHOOSE i \in DOMAIN deckOrder[dz] : deckOrder[dz][i] = id]
    ELSE IF \E z \in DOMAIN occupants : id \in occupants[z]
    THEN [kind |-> "zone", host |-> 0,
          zone |-> CHOOSE z \in DOMAIN occupants : id \in occupants[z], position |-> 0]
    ELSE [kind |-> "nowhere", host |-> 0, zone |-> "", position |-> 0]

=============================================================================
