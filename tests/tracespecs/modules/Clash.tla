---- MODULE Clash ----
(* The smallest module of the KeyValueStore divergence: two modules this one EXTENDS *)
(* define F and G, and SequencesExt and ClashB define Contains. SANY warns ("the       *)
(* definition of 'F' conflicts with its definition at ...") and keeps the definition *)
(* of the module EXTENDed first, which TLC then evaluates (tlaconf used to refuse the *)
(* spec, exit 2).                                                                    *)
EXTENDS ClashA, SequencesExt, ClashB, TLC
ASSUME PrintT(<<F, G(1), Contains(<<1, 2>>, 2)>>)
VARIABLE x
Init == x = F
Next == UNCHANGED x
====
