"""A counter, the implementation under test of ``Gate.tla``, and its driver.

``GateDriver(skip_cap=True)`` plants a bug: ``add`` skips the check that the sum stays
within the cap (the request that breaks only that guard is what finds it);
``GateDriver(off_by_one=True)`` checks the sum with ``<`` for ``<=`` (only a request at
the edge, the sum exactly the cap, finds it).
"""

from __future__ import annotations

from typing import Any, ClassVar


class GateDriver:
    module = "Gate"
    constants: ClassVar[dict[str, Any]] = {"Cap": 3}

    def __init__(self, skip_cap: bool = False, off_by_one: bool = False) -> None:
        self.skip_cap = skip_cap
        self.off_by_one = off_by_one
        self.count = 0

    def reset(self) -> dict[str, Any]:
        self.count = 0
        return {"count": self.count}

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        n = p["n"]
        ok = 1 <= n <= 3
        if action == "Add":
            within = self.count + n < 3 if self.off_by_one else self.count + n <= 3
            ok = ok and (self.skip_cap or within)
            if ok:
                self.count += n
        else:
            ok = ok and n > self.count + 3
            if ok:
                self.count = 0
        return ok, {"count": self.count}


def correct() -> GateDriver:
    return GateDriver()


def skipping() -> GateDriver:
    return GateDriver(skip_cap=True)


def off_by_one() -> GateDriver:
    return GateDriver(off_by_one=True)
