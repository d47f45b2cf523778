--------------------------- MODULE TargetChoice ----------------------------
(***************************************************************************)
(* Conformance module: TargetSpec, enumerateTargetChoices, action          *)
(* enumeration over TurnView.targetChoices, and choosing targets.          *)
(*   TargetSpecs        id -> [id, zones, count, distinct, cap]            *)
(*   ActionDefinitions  set of [id, params, targetSpecId]                  *)
(*   board   zone -> set of entries      chosen  the accepted choices      *)
(* Move(p):      p.entry, p.source, p.destination (a zone transfer)        *)
(* View(p):      p.targetChoices (id -> [choices, truncated])              *)
(* Enumerate(p): p.refused, p.actions (set of [action, targets])           *)
(* Choose(p):    p.action, p.targets                                       *)
(***************************************************************************)
EXTENDS Targets

CONSTANTS
    \* @type: Set($actionDefinition);
    ActionDefinitions

VARIABLES
    \* @type: Str -> Set(Int);
    board,
    \* @type: Seq($concreteAction);
    chosen

\* @type: ({destination: Str, entry: Int, source: Str}) => Bool;
Move(p) ==
    /\ p.source \in DOMAIN board /\ p.destination \in DOMAIN board
    /\ p.source # p.destination
    /\ p.entry \in board[p.source]
    /\ board' = [board EXCEPT ![p.source] = @ \ {p.entry}, ![p.destination] = @ \cup {p.entry}]
    /\ UNCHANGED chosen

\* @type: ({targetChoices: Str -> $choiceView}) => Bool;
View(p) ==
    /\ DOMAIN p.targetChoices = DOMAIN TargetSpecs
    /\ \A s \in DOMAIN TargetSpecs : TargetChoicesOK(p.targetChoices[s], TargetSpecs[s], board)
    /\ UNCHANGED <<board, chosen>>

\* @type: ({actions: Set($concreteAction), refused: Bool}) => Bool;
Enumerate(p) ==
    /\ ActionEnumerationOK(p, ActionDefinitions, TargetSpecs, board)
    /\ UNCHANGED <<board, chosen>>

\* @type: (Str) => $actionDefinition;
Definition(id) == CHOOSE d \in ActionDefinitions : d.id = id

\* Any legal target tuple may be chosen, listed under the cap or not.
\* @type: ($concreteAction) => Bool;
Choose(p) ==
    /\ \E d \in ActionDefinitions : d.id = p.action
    /\ IF Definition(p.action).params = "targets"
       THEN p.targets \in TargetTuples(TargetSpecs[Definition(p.action).targetSpecId], board)
       ELSE p.targets = <<>>
    /\ chosen' = Append(chosen, [action |-> p.action, targets |-> p.targets])
    /\ UNCHANGED board

BoardPartitioned ==
    \A y, z \in DOMAIN board : y # z => board[y] \cap board[z] = {}

SpecsNameTheirZones ==
    \A s \in DOMAIN TargetSpecs : TargetSpecs[s].zones \subseteq DOMAIN board

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.  The
\* fields the library reports (targetChoices, refused, actions) are replaced by its
\* answer; their sets here only classify a request as allowed or not.
Params_Move ==
    [entry |-> 1..9, source |-> DOMAIN board \cup {"Limbo"},
     destination |-> DOMAIN board \cup {"Limbo"}]

Params_View == [targetChoices |-> {<<>>}]

Params_Enumerate == [refused |-> BOOLEAN, actions |-> {{}}]

Params_Choose ==
    [action |-> {d.id : d \in ActionDefinitions} \cup {"unknown"},
     targets |-> {<<>>} \cup {<<a>> : a \in 1..8} \cup {<<a, b>> : a, b \in 1..8}]

=============================================================================
