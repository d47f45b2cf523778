-------------------------- MODULE ResponseWindow ---------------------------
(***************************************************************************)
(* Conformance module: response windows.                                  *)
(*   SeatOrder      the priority rotation (a sequence of seats)            *)
(*   NestedWindows  the product's choice: a response opens a nested window *)
(*   frames   open windows, innermost last: [priority, passes, responses]  *)
(*   unwound  every response resolved so far, in unwind order             *)
(* Open(p):    p.seat (the first to hold priority; no window open)         *)
(* Respond(p): p.seat, p.response ([id, seat])                             *)
(* Pass(p):    p.seat, p.kind ("pass" | "timeout" | "wait")                *)
(***************************************************************************)
EXTENDS ResponseWindows

CONSTANTS
    \* @type: Seq(Str);
    SeatOrder,
    \* @type: Bool;
    NestedWindows

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

\* @type: ({response: $response, seat: Str}) => Bool;
Respond(p) ==
    /\ Holds(p.seat)
    /\ p.response.seat = p.seat
    /\ p.response.id \notin Made
    /\ frames' = AfterResponse(SeatOrder, NestedWindows, frames, p.seat, p.response)
    /\ UNCHANGED unwound

\* @type: ({kind: Str, seat: Str}) => Bool;
Pass(p) ==
    /\ Holds(p.seat)
    /\ p.kind \in PassKinds
    /\ frames' = AfterPass(SeatOrder, frames, p.seat)
    /\ unwound' = unwound \o UnwoundByPass(SeatOrder, frames)

PassesBelowSeats == \A i \in 1..Len(frames) : frames[i].passes \in 0..(Len(SeatOrder) - 1)

PriorityHeldBySeats == \A i \in 1..Len(frames) : frames[i].priority \in Seats

\* Without nesting one window at most; with it, an outer window has a response.
NestingAsChosen ==
    IF NestedWindows THEN \A i \in 1..(Len(frames) - 1) : frames[i].responses # <<>>
    ELSE Len(frames) <= 1
=============================================================================
