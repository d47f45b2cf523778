-------------------------- MODULE ResponseWindow ---------------------------
(***************************************************************************)
(* Conformance module: response windows.                                  *)
(*   SeatOrder  the priority rotation (a sequence of seats)                *)
(*   frames   open windows, innermost last: [priority, passes, responses]  *)
(*   unwound  every response resolved so far, in unwind order             *)
(* Open(p):    p.seat (the first to hold priority; no window open)         *)
(* Respond(p): p.seat, p.response ([id, seat]), p.nested (the product's    *)
(*             decision for this response: it opens a nested window)       *)
(* Pass(p):    p.seat, p.kind ("pass" | "timeout" | "wait")                *)
(* Arrive(p):  p.entry arrived in p.zone; p.opens (the product's decision: *)
(*             the arrival opens a priority window, nested in any open     *)
(*             one), p.seat (who holds its priority first)                 *)
(***************************************************************************)
EXTENDS ResponseWindows

CONSTANT
    \* @type: Seq(Str);
    SeatOrder

VARIABLES
    \* @type: Seq($window);
    frames,
    \* @type: Seq($response);
    unwound

Seats == {SeatOrder[i] : i \in 1..Len(SeatOrder)}

\* @type: (Str) => Bool;
Holds(seat) == frames # <<>> /\ frames[Len(frames)].priority = seat

Made == UNION {{frames[i].responses[j].id : j \in 1..Len(frames[i].responses)}
               : i \in 1..Len(frames)}
        \cup {unwound[i].id : i \in 1..Len(unwound)}

\* @type: ({seat: Str}) => Bool;
Open(p) ==
    /\ frames = <<>>
    /\ p.seat \in Seats
    /\ frames' = <<NewWindow(p.seat)>>
    /\ UNCHANGED unwound

\* @type: ({nested: Bool, response: $response, seat: Str}) => Bool;
Respond(p) ==
    /\ Holds(p.seat)
    /\ p.response.seat = p.seat
    /\ p.response.id \notin Made
    /\ frames' = AfterResponse(SeatOrder, p.nested, frames, p.seat, p.response)
    /\ UNCHANGED unwound

\* @type: ({kind: Str, seat: Str}) => Bool;
Pass(p) ==
    /\ Holds(p.seat)
    /\ p.kind \in PassKinds
    /\ frames' = AfterPass(SeatOrder, frames, p.seat)
    /\ unwound' = unwound \o UnwoundByPass(SeatOrder, frames)

\* An arrival opens a window only when the product decides it does; then its first
\* priority goes to a seat and nothing has been passed or responded in it yet.
\* @type: ({entry: Int, opens: Bool, seat: Str, zone: Str}) => Bool;
Arrive(p) ==
    /\ p.opens => p.seat \in Seats
    /\ frames' = IF p.opens THEN Append(frames, NewWindow(p.seat)) ELSE frames
    /\ UNCHANGED unwound

PassesBelowSeats == \A i \in 1..Len(frames) : frames[i].passes \in 0..(Len(SeatOrder) - 1)

PriorityHeldBySeats == \A i \in 1..Len(frames) : frames[i].priority \in Seats

\* Params domains for spec-driven tests (tlaconf mbt): a record of sets, each field
\* drawn from its own set; values outside the guards make forbidden requests.
Params_Open == [seat |-> Seats \cup {"SideZ"}]

Params_Respond ==
    [seat |-> Seats, response |-> [id : {"r1", "r2", "r3", "r4"}, seat : Seats],
     nested |-> BOOLEAN]

Params_Pass == [seat |-> Seats, kind |-> PassKinds \cup {"skip"}]

Params_Arrive ==
    [entry |-> {1, 2}, zone |-> {"Play", "SideA.Hand"}, opens |-> BOOLEAN,
     seat |-> Seats \cup {"SideZ"}]

=============================================================================
