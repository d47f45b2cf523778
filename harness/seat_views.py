"""What each seat of the reference profile sees, with order, and the information-leak check.

``ordered_view`` is a seat's observation in the ``SeatViews`` module's shape:
every zone's count, the identities it may see (canonical order), and the
zone's layout where it may see the order (0 for an entry it may not identify,
-1 for an empty slot).  A :class:`LeakCheck` request runs
:func:`~harness.zones.assert_no_information_leak` for a seat and answers with
every world it compared, so that a trace shows the worlds, the views in each
and the verdict.  ``views_vars`` is the module's refinement mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from harness.profile import (
    Answer,
    ProfileState,
    Request,
    apply,
    legal_actions,
    observation_vars,
    revelations,
)
from harness.zones import (
    InformationLeak,
    Order,
    Revelation,
    ZoneCollection,
    assert_no_information_leak,
    observe,
)
from tlaconf.values.itf import from_python

ViewOf = Callable[[ProfileState, str], Mapping[str, Any]]
"""A product's projection of a seat's view (the library's: :func:`ordered_view`)."""
ActionsOf = Callable[[ZoneCollection, str], Iterable[Hashable]]


def ordered_view(state: ProfileState, seat: str) -> dict[str, dict[str, Any]]:
    """``seat``'s view of every zone: count, ids, listed (canonical), shown, layout."""
    out: dict[str, dict[str, Any]] = {}
    for name, v in observe(state.zones, seat, revelations(state)).items():
        layout: list[Any] = []
        if v.order is not None:
            layout = [0 if e is None else e for e in v.order]
        elif v.slots is not None:
            layout = [-1 if not full else 0 if e is None else e for _, full, e in v.slots]
        shown = v.order is not None or v.slots is not None
        out[name] = {"count": v.count, "ids": set(v.identities), "listed": list(v.identities),
                     "shown": shown, "layout": layout}
    return out


def world_vars(zones: ZoneCollection) -> dict[str, Any]:
    """A world's zones: occupants, internal lists (top first), slot rows, faces, controllers."""
    z = zones.zones
    return {
        "occupants": {n: set(s.members) for n, s in z.items()},
        "lists": {n: list(s.top_first) for n, s in z.items() if s.spec.order is not Order.SPARSE},
        "slots": {n: [0 if e is None else e for _, e in s.slots]
                  for n, s in z.items() if s.spec.order is Order.SPARSE},
        "faceUp": {i for i in zones.entry_ids if zones.face(i) == "up"},
        "controller": {i: zones.controllers[i] for i in zones.entry_ids},
    }


def views_vars(state: ProfileState) -> dict[str, Any]:
    """``SeatViews``: membership, every zone's internal list or slot row, faces, controllers,
    revelations per seat."""
    return {**observation_vars(state), **world_vars(state.zones)}


def _record(action: Hashable) -> dict[str, Any]:
    match action:
        case ("Draw", seat):
            return {"kind": "Draw", "id": 0, "source": f"{seat}.Deck",
                    "destination": f"{seat}.Hand"}
        case ("Move", entry, source, destination):
            return {"kind": "Move", "id": entry, "source": source, "destination": destination}
    return {"kind": repr(action), "id": 0, "source": "", "destination": ""}


def action_set(actions: Iterable[Hashable]) -> frozenset[Any]:
    """Legal actions as a set of ``[kind, id, source, destination]`` records."""
    return frozenset(from_python(_record(a)) for a in actions)


@dataclass(frozen=True)
class LeakCheck:
    """Run the information-leak check for ``seat`` (``SeatViews.LeakCheck``); ``view`` and
    ``actions`` are a product's own projections (None: the library's)."""

    seat: str
    seed: int = 0
    view: ViewOf | None = field(default=None, compare=False)
    actions: ActionsOf | None = field(default=None, compare=False)

    action = "LeakCheck"

    def params(self) -> dict[str, Any]:
        mine = self.view is None and self.actions is None
        return {"seat": self.seat, "observer": "library" if mine else "projection"}


def leak_check(state: ProfileState, r: LeakCheck) -> Answer:
    """The check's answer: the base view and actions, every world compared, the verdict."""
    if r.seat not in state.seats:
        return Answer(False, {**r.params(), "view": {}, "actions": frozenset(), "worlds": [],
                               "verdict": "none"}, f"{r.seat!r} is not a seat")
    view_of = r.view or ordered_view
    actions_of = r.actions or legal_actions
    seen: list[dict[str, Any]] = []

    def observer(zones: ZoneCollection, seat: str, _: tuple[Revelation, ...]) -> object:
        view = view_of(replace(state, zones=zones), seat)
        acts = action_set(actions_of(zones, seat))
        seen.append({**world_vars(zones), "view": view, "actions": acts})
        return view

    verdict = "none"
    try:
        assert_no_information_leak(state.zones, r.seat, revelations=revelations(state),
                                   legal_actions=actions_of, observer=observer, seed=r.seed)
    except InformationLeak:
        verdict = "leak"
    base, worlds = seen[0], seen[1:]
    params = {**r.params(), "view": base["view"], "actions": base["actions"], "worlds": worlds,
              "verdict": verdict}
    return Answer(True, params, None, verdict)


ViewRequest = Request | LeakCheck


def apply_view_request(state: ProfileState, request: ViewRequest) -> tuple[ProfileState, Answer]:
    """:func:`harness.profile.apply`, and the leak check (which changes nothing)."""
    if isinstance(request, LeakCheck):
        return state, leak_check(state, request)
    new, out = apply(state, request)
    if request.action == "Observe":
        view = ordered_view(state, out.params["seat"]) if out.accepted else {}
        out = replace(out, params={**out.params, "view": view})
    return new, out
