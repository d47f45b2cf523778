-------------------------- MODULE ResponseWindows --------------------------
(***************************************************************************)
(* Response windows: reference profile, input revision 2, read from seed  *)
(* 002_7346ff58e0b15244.txt (prose only: every definition is authored).    *)
(*   seats   the priority rotation, a sequence of seats                    *)
(*   frames  open windows, innermost last:                                 *)
(*           [priority |-> seat, passes |-> n, responses |-> <<[id, seat]>>] *)
(***************************************************************************)
EXTENDS Naturals, Sequences

\* The Apalache type aliases of this module's records (a model checker's type
\* checker reads them; the value is of no use).
\* @typeAlias: response = {id: Str, seat: Str};
\* @typeAlias: window = {passes: Int, priority: Str, responses: Seq($response)};
ResponseWindowTypes == TRUE

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Seat priority rotates in the seat order.
\* @type: (Seq(Str), Str) => Str;
NextSeat(seats, s) == seats[((CHOOSE i \in 1..Len(seats) : seats[i] = s) % Len(seats)) + 1]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Str) => $window;
NewWindow(seat) == [priority |-> seat, passes |-> 0, responses |-> <<>>]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* Timeout and wait are explicit passes.
PassKinds == {"pass", "timeout", "wait"}

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The LIFO unwind: the last response resolves first.
\* @type: (Seq($response)) => Seq($response);
Unwind(responses) == [i \in 1..Len(responses) |-> responses[Len(responses) + 1 - i]]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* A response resets the consecutive passes and rotates priority; when the
\* product decides that this response nests (nested), it opens a window of its own.
\* @type: (Seq(Str), Bool, Seq($window), Str, $response) => Seq($window);
AfterResponse(seats, nested, frames, seat, response) ==
    LET top == frames[Len(frames)]
        next == NextSeat(seats, seat)
        base == [frames EXCEPT ![Len(frames)] =
                    [priority |-> next, passes |-> 0,
                     responses |-> Append(top.responses, response)]]
    IN IF nested THEN Append(base, NewWindow(next)) ELSE base

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* The window closes after all seats pass consecutively.
\* @type: (Seq(Str), Seq($window)) => Bool;
Closes(seats, frames) == frames[Len(frames)].passes + 1 = Len(seats)

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* @type: (Seq(Str), Seq($window), Str) => Seq($window);
AfterPass(seats, frames, seat) ==
    IF Closes(seats, frames)
    THEN SubSeq(frames, 1, Len(frames) - 1)
    ELSE [frames EXCEPT ![Len(frames)] =
             [@ EXCEPT !.passes = @ + 1, !.priority = NextSeat(seats, seat)]]

\* authored: 002_7346ff58e0b15244.txt, Card composition helpers
\* What a pass unwinds: the closing window's responses, last in first out.
\* @type: (Seq(Str), Seq($window)) => Seq($response);
UnwoundByPass(seats, frames) ==
    IF Closes(seats, frames) THEN Unwind(frames[Len(frames)].responses) ELSE <<>>
=============================================================================
