"""Response windows: rotation, pass reset, timeout/wait as passes, closing, LIFO, nesting."""

from __future__ import annotations

import pytest

from harness.composition.errors import CompositionError
from harness.composition.responses import Response, ResponseWindows, next_seat, unwind
from tests.harness.composition_helpers import load

SEATS = ("N", "E", "S")


def r(rid: str, seat: str) -> Response:
    return Response(rid, seat)


def test_priority_rotates_and_a_response_resets_the_passes() -> None:
    w = ResponseWindows(SEATS).open("N").pass_("N", "pass").pass_("E", "pass")
    assert (w.frames[-1].priority, w.frames[-1].passes) == ("S", 2)
    w = w.respond("S", r("x", "S"))
    assert (w.frames[-1].priority, w.frames[-1].passes) == ("N", 0)
    assert next_seat(SEATS, "S") == "N"


def test_timeout_and_wait_are_explicit_passes_and_all_passing_closes() -> None:
    w = ResponseWindows(SEATS).open("E").respond("E", r("x", "E"))
    w = w.pass_("S", "timeout").pass_("N", "wait")
    assert len(w.frames) == 1 and w.frames[-1].passes == 2
    w = w.pass_("E", "pass")
    assert w.frames == () and w.unwound == (r("x", "E"),)
    with pytest.raises(CompositionError) as err:
        ResponseWindows(SEATS).open("N").pass_("N", "skip")  # type: ignore[arg-type]
    assert err.value.code == "unknown_pass"


def test_passes_must_be_consecutive() -> None:
    w = ResponseWindows(SEATS).open("N").pass_("N", "pass").pass_("E", "pass")
    w = w.respond("S", r("x", "S")).pass_("N", "pass").pass_("E", "pass")
    assert w.frames != ()                       # S's response restarted the count
    assert w.pass_("S", "pass").frames == ()


def test_unwind_is_last_in_first_out() -> None:
    assert unwind((r("a", "N"), r("b", "E"), r("c", "S"))) == (r("c", "S"), r("b", "E"),
                                                                 r("a", "N"))
    w = ResponseWindows(SEATS).open("N").respond("N", r("a", "N")).respond("E", r("b", "E"))
    for seat in ("S", "N", "E"):
        w = w.pass_(seat, "pass")
    assert w.unwound == (r("b", "E"), r("a", "N"))


def test_nesting_is_the_products_decision_for_each_response() -> None:
    flat = ResponseWindows(SEATS).open("N").respond("N", r("a", "N"))
    assert len(flat.frames) == 1
    nested = ResponseWindows(SEATS).open("N").respond("N", r("a", "N"), nested=True)
    assert len(nested.frames) == 2 and nested.frames[-1].priority == "E"
    nested = nested.respond("E", r("b", "E"), nested=True)  # b's own window opens, priority S
    assert len(nested.frames) == 3
    once = nested.respond("S", r("c", "S"))     # c does not nest: the same window goes on
    assert len(once.frames) == 3 and once.frames[-1].responses == (r("c", "S"),)
    for seat in ("S", "N", "E"):                # nobody responds to b: its window closes
        nested = nested.pass_(seat, "pass")
    assert nested.unwound == () and len(nested.frames) == 2
    for seat in ("S", "N", "E"):                # the window b was made in closes: b resolves
        nested = nested.pass_(seat, "timeout")
    assert nested.unwound == (r("b", "E"),) and len(nested.frames) == 1
    for seat in ("E", "S", "N"):                # the outer window: a resolves
        nested = nested.pass_(seat, "wait")
    assert nested.frames == () and nested.unwound == (r("b", "E"), r("a", "N"))


def test_an_arrival_opens_a_window_only_when_the_product_decides_so() -> None:
    w = ResponseWindows(SEATS).open("N")
    assert w.arrive(False, "S") == w
    opened = w.arrive(True, "S")
    assert len(opened.frames) == 2 and opened.frames[-1].priority == "S"
    assert ResponseWindows(SEATS).arrive(True, "E").frames[-1].priority == "E"
    with pytest.raises(CompositionError) as err:
        w.arrive(True, "W")
    assert err.value.code == "unknown_seat"


@pytest.mark.parametrize(("make", "code"), [
    (lambda: ResponseWindows(SEATS).respond("N", r("a", "N")), "no_window"),
    (lambda: ResponseWindows(SEATS).open("N").pass_("E", "pass"), "no_priority"),
    (lambda: ResponseWindows(SEATS).open("N").open("E"), "window_open"),
    (lambda: ResponseWindows(SEATS).open("W"), "unknown_seat"),
    (lambda: ResponseWindows(SEATS).open("N").respond("N", r("a", "E")), "wrong_seat"),
    (lambda: ResponseWindows(SEATS).open("N").respond("N", r("a", "N")).respond(
        "E", r("a", "E")), "duplicate_response"),
])
def test_refused_requests(make: object, code: str) -> None:
    with pytest.raises(CompositionError) as err:
        make()  # type: ignore[operator]
    assert err.value.code == code


def test_the_reading_rotates_closes_and_unwinds() -> None:
    ctx = load("ResponseWindows")
    seats = '<<"N", "E", "S">>'
    assert ctx.evaluate(f'NextSeat({seats}, "S")') == "N"
    assert ctx.evaluate("Unwind(<<1, 2, 3>>) = <<3, 2, 1>>") is True
    assert ctx.evaluate("Unwind(<<1, 2, 3>>) = <<1, 2, 3>>") is False
    frame = '[priority |-> "S", passes |-> 2, responses |-> <<"a", "b">>]'
    assert ctx.evaluate(f'AfterPass({seats}, <<{frame}>>, "S") = <<>>') is True
    assert ctx.evaluate(f"UnwoundByPass({seats}, <<{frame}>>) = <<\"b\", \"a\">>") is True
    one = '[priority |-> "S", passes |-> 1, responses |-> <<>>]'
    assert ctx.evaluate(f'AfterPass({seats}, <<{one}>>, "S")[1].priority = "N"') is True
    assert ctx.evaluate(f'AfterResponse({seats}, TRUE, <<{one}>>, "S", "c")[2] '
                        '= NewWindow("N")') is True
    assert ctx.evaluate(f'Len(AfterResponse({seats}, FALSE, <<{one}>>, "S", "c"))') == 1
