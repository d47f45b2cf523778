"""Spec files: seed operators verbatim, authored markers, the TCS JSON verbatim, module shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.paths import SEEDS
from tlaconf.tla import ast
from tlaconf.tla.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]
REV2 = ROOT / "spec" / "reference-profile" / "rev2"
CONF = ROOT / "spec" / "conformance"
SEED000 = "000_06548165aa2c0842.txt"


def _seed(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


def _constants(text: str) -> list[str]:
    module = parse_module(text, "conformance module")
    return [p.name for u in module.units if isinstance(u, ast.Constant) for p in u.params]


def _definition(text: str, name: str) -> str:
    """The lines of ``name ==`` up to the next blank line."""
    start = text.index(f"\n{name}(") + 1
    end = text.find("\n\n", start)
    return text[start:end]


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("Zones4", "ZonePartition4"),
        ("Zones4", "AtomicZoneMove4"),
        ("ZoneLook4", "DefaultZoneLook4"),
    ],
)
def test_seed_operators_are_verbatim(module: str, name: str) -> None:
    seed = _seed(SEED000)
    text = (REV2 / f"{module}.tla").read_text(encoding="utf-8")
    assert _definition(text, name) == _definition(seed, name)


AUTHORED = {
    "Zones4": ["SeatZoneKinds4", "SharedZones4", "SeatZones4", "ZoneInstances4"],
    "ZoneLook4": ["ZoneClass4", "ZoneSeat4"],
    "DeckOrder4": ["SeqRange4", "DeckSequenceValid4", "DeckReorder4", "HandSetupProjection4"],
    "Locations4": ["ObjectLocation4"],
    "SetAside4": ["TransitFields4", "SetAsideTrackingValid4", "SetAsideExitView4"],
    "Piles4": ["DeckZones4", "PileZones4", "PilesAgree4"],
}


@pytest.mark.parametrize(
    ("module", "name"), [(m, n) for m, names in AUTHORED.items() for n in names]
)
def test_authored_definitions_are_marked(module: str, name: str) -> None:
    text = (REV2 / f"{module}.tla").read_text(encoding="utf-8")
    head = text[: text.index(f"\n{name}")]
    marker = head[head.rindex("\\* authored: ") :]
    assert marker.startswith(f"\\* authored: {SEED000}, ")
    assert "\n\n" not in marker.strip("\n")


def test_tcs_deal_contract_is_the_published_json() -> None:
    page = _seed("004_98e2a323b9d3ac3e.txt")
    published = page[page.index("\n{\n") + 1 : page.index("\n}\n") + 3]
    committed = (ROOT / "spec" / "tcs" / "deal.json").read_text(encoding="utf-8")
    assert committed == published
    contract = json.loads(committed)["action_contract"]
    assert set(contract["parameters"]) == {
        "count",
        "piles",
        "distribution",
        "source_position",
        "pile_position",
        "face",
    }


ACTIONS = {
    "ZoneMembership": ["Move"],
    "DeckOrder": ["Reorder", "Shuffle", "Draw", "Locate"],
    "Deals": ["DealCard", "Deal"],
    "Observation": ["Observe", "Move", "Flip", "Reveal"],
    "Custody": ["SetAside", "Exit"],
}


@pytest.mark.parametrize("module", sorted(ACTIONS))
def test_conformance_module_shape(module: str) -> None:
    text = (CONF / f"{module}.tla").read_text(encoding="utf-8")
    cfg = (CONF / f"{module}.cfg").read_text(encoding="utf-8")
    assert 'Seats4 = {"SideA", "SideB"}' in cfg
    assert "Seats4" in _constants(text)
    for inv in cfg.split("INVARIANT", 1)[1].split():
        assert re.search(rf"^{inv} ==", text, re.M), inv
    for action in ACTIONS[module]:
        assert re.search(rf"^{action}\(p\) ==", text, re.M), action


def test_zone_membership_is_as_design_fixes_it() -> None:
    text = (CONF / "ZoneMembership.tla").read_text(encoding="utf-8")
    assert parse_module(text, "ZoneMembership").variables() == ("inGameIds", "occupants")
    assert _constants(text) == ["Seats4"]
    body = " ".join(_definition(text, "Move").split())
    assert body == (
        "Move(p) == /\\ AtomicZoneMove4(inGameIds, occupants, occupants', p.id, p.source, "
        "p.destination, p.movementAuthorized, p.revealRequired, p.revealedBeforeMove) "
        "/\\ UNCHANGED inGameIds"
    )
    assert "Partition == ZonePartition4(inGameIds, occupants)" in text
