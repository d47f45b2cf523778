"""Response windows: seat priority rotates, passes count, the window closes, a LIFO unwind.

A window gives priority to one seat at a time, in the product's seat order.  The
seat holding priority responds or passes; a timeout and a wait are passes too
(explicit, never a silent skip).  A response resets the consecutive passes and
moves priority on; when every seat has passed in a row the window closes and its
responses unwind last in, first out.  Whether a response or an arrival opens a
nested window (whose own responses unwind before it) is the product's decision, made
each time: ``respond(..., nested=...)`` and ``arrive(..., opens=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.composition.errors import CompositionError

PassKind = Literal["pass", "timeout", "wait"]
PASS_KINDS: tuple[PassKind, ...] = ("pass", "timeout", "wait")


@dataclass(frozen=True)
class Response:
    """A response made in a window (its id is the product's)."""

    id: str
    seat: str

    def value(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat}


@dataclass(frozen=True)
class Frame:
    """One open window: who holds priority, consecutive passes, responses made in it."""

    priority: str
    passes: int = 0
    responses: tuple[Response, ...] = ()

    def value(self) -> dict[str, Any]:
        return {"priority": self.priority, "passes": self.passes,
                "responses": [r.value() for r in self.responses]}


def unwind(responses: tuple[Response, ...]) -> tuple[Response, ...]:
    """The LIFO unwind of a window's responses: the last response resolves first."""
    return tuple(reversed(responses))


def next_seat(seats: tuple[str, ...], seat: str) -> str:
    """The seat after ``seat`` in the rotation."""
    return seats[(seats.index(seat) + 1) % len(seats)]


@dataclass(frozen=True)
class ResponseWindows:
    """Open windows (innermost last) and every response unwound so far (immutable)."""

    seats: tuple[str, ...]
    frames: tuple[Frame, ...] = ()
    unwound: tuple[Response, ...] = ()

    def _holder(self, seat: str) -> Frame:
        if not self.frames:
            raise CompositionError("no_window", "no response window is open")
        top = self.frames[-1]
        if seat != top.priority:
            raise CompositionError("no_priority", f"{seat} does not hold priority",
                                   seat=seat, priority=top.priority)
        return top

    def open(self, seat: str) -> ResponseWindows:
        """Open a window with ``seat`` holding priority (nested ones open only by responses)."""
        if self.frames:
            raise CompositionError("window_open", "a response window is already open")
        if seat not in self.seats:
            raise CompositionError("unknown_seat", f"{seat!r} is not a seat", seat=seat)
        return replace(self, frames=(Frame(seat),))

    def respond(self, seat: str, response: Response, nested: bool = False) -> ResponseWindows:
        """``seat`` responds: passes reset, priority rotates; a nested window opens when the
        product decides this response nests (``nested``)."""
        top = self._holder(seat)
        if response.seat != seat:
            raise CompositionError("wrong_seat", "a response is made by the seat responding")
        known = {r.id for f in self.frames for r in f.responses} | {r.id for r in self.unwound}
        if response.id in known:
            raise CompositionError("duplicate_response", f"{response.id!r} was already made",
                                   response=response.id)
        after = next_seat(self.seats, seat)
        frames = (*self.frames[:-1], Frame(after, 0, (*top.responses, response)))
        if nested:
            frames = (*frames, Frame(after))
        return replace(self, frames=frames)

    def arrive(self, opens: bool, seat: str) -> ResponseWindows:
        """An entry arrived (a zone transfer's arrival callback): when the product decides it
        opens a priority window (``opens``), one opens, nested in any open window, with
        ``seat`` holding priority first; otherwise nothing changes."""
        if not opens:
            return self
        if seat not in self.seats:
            raise CompositionError("unknown_seat", f"{seat!r} is not a seat", seat=seat)
        return replace(self, frames=(*self.frames, Frame(seat)))

    def pass_(self, seat: str, kind: PassKind) -> ResponseWindows:
        """``seat`` passes (a timeout or a wait is a pass); all seats in a row close it."""
        top = self._holder(seat)
        if kind not in PASS_KINDS:
            raise CompositionError("unknown_pass", f"{kind!r} is not a pass", kind=kind)
        passes = top.passes + 1
        if passes == len(self.seats):
            return replace(self, frames=self.frames[:-1],
                           unwound=self.unwound + unwind(top.responses))
        return replace(self, frames=(*self.frames[:-1],
                                     replace(top, passes=passes,
                                             priority=next_seat(self.seats, seat))))
