"""The implementation under test of ``Echo.tla``: it answers ``q`` with ``1..q``."""

from __future__ import annotations

from typing import Any


class EchoDriver:
    module = "Echo"

    def __init__(self) -> None:
        self.asked = 0

    def reset(self) -> dict[str, Any]:
        self.asked = 0
        return {"asked": 0}

    def apply(self, action: str, p: dict[str, Any]) -> tuple[bool, dict[str, Any], dict[str, Any]]:
        ok = 1 <= p["q"] <= 3
        if ok:
            self.asked += 1
        return ok, {"asked": self.asked}, {"answers": tuple(range(1, p["q"] + 1)) if ok else ()}


def echo() -> EchoDriver:
    return EchoDriver()


class LooseEchoDriver(EchoDriver):
    """The same implementation checked against ``EchoLoose.tla``."""

    module = "EchoLoose"


def loose() -> LooseEchoDriver:
    return LooseEchoDriver()
