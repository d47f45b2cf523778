"""The ``ZoneLibrary`` driver for spec-driven testing (``tlaconf mbt``): the zone library's
seven-zone layout (lifo, fifo, anyIndex and slot access, a bag, capacities, custody),
driven by transfers planned at a requested version, draws, deals and shuffles.

A transfer's ``planVersion`` names the version of the collection the plan is made from:
the driver keeps every version it has seen, plans on that one and commits the plan to
the current collection (so a plan made before the last change is stale, and the library
must refuse it).  A version the collection never had gets a plan made now and marked
with that version.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from typing import Any, ClassVar

from harness.scenarios.library import (
    MODULE,
    REVISION,
    DealRequest,
    DrawRequest,
    layout,
    library_vars,
)
from harness.zones import (
    Custody,
    Transfer,
    ZoneCollection,
    ZoneError,
    commit_transfer,
    plan_transfer,
    shuffle,
)

Params = dict[str, Any]
Answer = tuple[bool, dict[str, Any], dict[str, Any]]


def _seed(value: int) -> int | None:
    return None if value < 0 else value


def _transfer(p: Params) -> Transfer:
    insert: Any = p["depth"] if p["insert"] == "depth" else p["insert"]
    custody = Custody(p["effect"], p["ability"]) if p["custody"] else None
    return Transfer(tuple(p["entries"]), p["source"], p["destination"], insert,
                    p["slot"] or None, None, custody)


class LibraryDriver:
    """``ZoneLibrary``: the layout of the zone-library scenario (capacities seeded by
    ``seed``)."""

    module = MODULE
    revision = REVISION
    constants: ClassVar[dict[str, Any]] = {}

    def __init__(self, seed: str = "golden") -> None:
        self.seed = seed
        self.reset()

    def reset(self) -> dict[str, Any]:
        self.c = layout(random.Random(self.seed))
        self.history: dict[int, ZoneCollection] = {self.c.version: self.c}
        return library_vars(self.c)

    def _now(self, c: ZoneCollection) -> None:
        self.c = c
        self.history.setdefault(c.version, c)

    def apply(self, action: str, p: Params) -> Answer:
        before = self.c
        reported: dict[str, Any] = {}
        if action == "Transfer":
            self._commit(_transfer(p), p["planVersion"])
        elif action == "Shuffle":
            if p["seed"] >= 0:
                with contextlib.suppress(ZoneError):
                    self._now(shuffle(self.c, p["zone"], p["seed"]))
            zone = self.c.zones.get(p["zone"])
            reported = {"result": [int(e) for e in zone.top_first] if zone else []}
        else:
            request = (DrawRequest(p["source"], p["destination"], p["count"], _seed(p["seed"]),
                                   p["insert"]) if action == "Draw" else
                       DealRequest(p["mode"], p["source"], tuple(p["destinations"]), p["per"],
                                   _seed(p["seed"])))
            new, params = request.run(self.c)
            self._now(new)
            reported = {"result": params["result"]}
        return self.c is not before, library_vars(self.c), reported

    def _commit(self, t: Transfer, version: int) -> None:
        base = self.history.get(version, self.c)
        plan = plan_transfer(base, t)
        if not plan.ok:
            return
        if version not in self.history:
            plan = dataclasses.replace(plan, version=version)
        with contextlib.suppress(ZoneError):
            self._now(commit_transfer(self.c, plan))


def library() -> LibraryDriver:
    """``ZoneLibrary``: transfers (plans at a version), draws, deals and shuffles."""
    return LibraryDriver()
