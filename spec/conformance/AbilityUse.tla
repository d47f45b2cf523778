----------------------------- MODULE AbilityUse -----------------------------
(***************************************************************************)
(* Conformance module: use records and once-per-turn history.             *)
(* turn: the current turn number; uses: set of use records                 *)
(* [definition, source, turn, instance, oncePerTurn].  A use is recorded   *)
(* exactly at the boundary AbilityUseDue9 names; selection of a            *)
(* once-per-turn ability reads the turn/source history.                    *)
(***************************************************************************)
EXTENDS Abilities9

VARIABLES
    \* @type: Int;
    turn,
    \* @type: Set($useRecord);
    uses

\* @type: ({definition: $abilityDefinition, event: $useEvent, instance: Int}) => $useRecord;
UseRecord(p) ==
    [definition |-> p.definition.id, source |-> p.definition.source, turn |-> turn,
     instance |-> p.instance, oncePerTurn |-> p.definition.oncePerTurn]

\* p: [definition]  (the definition record being selected)
\* @type: ({definition: $abilityDefinition}) => Bool;
Select(p) ==
    /\ p.definition.oncePerTurn =>
           OncePerTurnOpen9(p.definition.id, p.definition.source, turn, uses)
    /\ UNCHANGED <<turn, uses>>

\* p: [definition, instance, event |-> [boundary, actual]]
\* A due use of a once-per-turn ability needs the history to allow it.
\* @type: ({definition: $abilityDefinition, event: $useEvent, instance: Int}) => Bool;
Boundary(p) ==
    /\ (AbilityUseDue9(p.definition, p.event) /\ p.definition.oncePerTurn) =>
           OncePerTurnOpen9(p.definition.id, p.definition.source, turn, uses)
    /\ uses' = IF AbilityUseDue9(p.definition, p.event)
               THEN uses \cup {UseRecord(p)}
               ELSE uses
    /\ UNCHANGED turn

\* p: [next]  (the number of the turn that starts)
\* @type: ({next: Int}) => Bool;
EndTurn(p) ==
    /\ p.next = turn + 1
    /\ turn' = p.next
    /\ UNCHANGED uses

UsesNotInFuture == \A u \in uses : u.turn \in 1..turn

OncePerTurnHonoured ==
    \A u, v \in uses :
        (/\ u.oncePerTurn
         /\ u.definition = v.definition
         /\ u.source = v.source
         /\ u.turn = v.turn) => u = v

=============================================================================
