"""Scenario requests violate every guard conjunct of every action (and satisfy them all when
accepted): each rejected request leaves the state as it was, is not ENABLED in the
specification, and the conjunct blamed for it is collected."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from harness.scenarios import generate_all
from tlaconf import evaluate
from tlaconf.values import decode

SPEC = Path(__file__).resolve().parents[2] / "spec"
SEARCH = [SPEC / "conformance", SPEC / "reference-profile" / "rev2", SPEC / "tcs"]

GUARDS: dict[tuple[str, str], set[str]] = {
    ("ZoneMembership", "Move"): {
        "source \\in ZoneInstances4",
        "destination \\in ZoneInstances4",
        "source # destination",
        "id \\in before[source]",
        "movementAuthorized",
        "revealedBeforeMove",
    },
    ("DeckOrder", "Draw"): {"p.seat \\in Seats4", "piles[dk] # <<>>", "movementAuthorized"},
    ("DeckOrder", "Locate"): {"p.id \\in inGameIds"},
    ("DeckOrder", "Shuffle"): {"p.zone \\in DeckZones4", "p.seed \\in Nat"},
    ("DeckOrder", "Reorder"): {
        "p.zone \\in DeckZones4",
        "Len(after) = Len(before)",
        "Cardinality(SeqRange4(deck)) = Len(deck)",
        "orderContext",
        "shuffleOccurred",
    },
    ("Deals", "Deal"): {
        "p.movementAuthorized",
        "d.countAll",
        "d.sourceIndex >= 1",
        "d.sourceIndex <= Len(src)",
        "Cardinality({d.piles[j] : j \\in 1..Len(d.piles)}) = Len(d.piles)",
        'd.distribution \\in {"round_robin", "pile_by_pile"}',
        'd.sourcePosition \\in {"top", "bottom", "index"}',
        'd.pilePosition \\in {"top", "bottom"}',
        'd.face \\in {"face_up", "face_down", "kept"}',
        "d.piles[j] # d.source",
        "DealCount(src, d) <= DealAvailable(src, d)",
    },
    ("Observation", "Observe"): {"p.seat \\in Seats4"},
    ("Observation", "Flip"): {"p.id \\in inGameIds", 'p.face \\in {"Up", "Down"}'},
    ("Observation", "Reveal"): {"p.seat \\in Seats4", "p.id \\in inGameIds"},
    ("Observation", "Move"): {
        "source # destination",
        "id \\in before[source]",
        "movementAuthorized",
    },
    ("Custody", "SetAside"): {
        "id \\in before[source]",
        "source # destination",
        "movementAuthorized",
    },
    ("Custody", "Exit"): {"p.id \\in DOMAIN transit", "source # destination", "movementAuthorized"},
}


@pytest.fixture(scope="module")
def blamed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for seed in (1, 2, 3):
        for path in generate_all(tmp_path_factory.mktemp(f"s{seed}"), seed):
            lines = path.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])
            module = header["module"]
            constants = {k: decode(v) for k, v in header["constants"].items()}
            ctx = evaluate.load_module(SPEC / "conformance" / f"{module}.tla", SEARCH, constants)
            state = {k: decode(v) for k, v in json.loads(lines[1])["state"].items()}
            for line in lines[2:]:
                step = json.loads(line)
                after = {k: decode(v) for k, v in step["state"].items()}
                args = (decode(step["params"]),)
                if step["outcome"] == "rejected":
                    assert after == state
                    assert not ctx.enabled(step["action"], args, state)
                    blame = ctx.explain(step["action"], args, state, state).innermost()
                    found[(module, step["action"])].add(blame.text)
                else:
                    assert ctx.holds(step["action"], args, state, after)
                state = after
    return found


@pytest.mark.parametrize("key", sorted(GUARDS), ids=lambda k: f"{k[0]}.{k[1]}")
def test_every_guard_is_violated_by_some_request(
    blamed: dict[tuple[str, str], set[str]], key: tuple[str, str]
) -> None:
    assert GUARDS[key] <= blamed[key]


def test_scenarios_cover_every_action_label_both_ways(tmp_path: Path) -> None:
    outcomes = collections.defaultdict(set)
    for path in generate_all(tmp_path, 1):
        for line in path.read_text(encoding="utf-8").splitlines()[2:]:
            step = json.loads(line)
            outcomes[step["action"]].add(step["outcome"])
    for action in (
        "Move",
        "Draw",
        "Shuffle",
        "Reorder",
        "Deal",
        "Observe",
        "Flip",
        "Reveal",
        "SetAside",
        "Exit",
    ):
        assert outcomes[action] == {"accepted", "rejected"}, action
    assert outcomes["DealCard"] == {"accepted"}
