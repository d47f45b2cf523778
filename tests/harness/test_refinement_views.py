"""The refinement mappings record what matters: the order identities are listed in, and
what each seat is shown of an ability, so leaks there are violations."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness.abilities.activity as activity
import harness.zones.observation as observation
from harness.scenarios import abilities, play
from tlaconf.replay import replay_trace
from tlaconf.replay.backend import get_backend

SPEC = Path(__file__).resolve().parents[2] / "spec"


def _verdicts(paths: list[Path], module_part: str) -> set[str]:
    return {replay_trace(p, SPEC, get_backend("embedded")).verdict
            for p in paths if module_part in p.name}


def test_honest_views_conform(tmp_path: Path) -> None:
    paths = [*play.generate(tmp_path, 1), *abilities.generate(tmp_path, 1)]
    assert _verdicts(paths, "observation") == {"conforms"}
    assert _verdicts(paths, "activity") == {"conforms"}


def test_identities_in_insertion_order_are_a_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(observation, "_key", lambda e: ("", ""))  # no canonical sort
    assert _verdicts(list(play.generate(tmp_path, 1)), "observation") == {"violation"}


def test_hidden_ability_metadata_shown_to_the_opponent_is_a_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky(definition: activity.AbilityDefinition, ctx: activity.ActivityContext,
              viewer: str) -> dict[str, object]:
        return {"id": definition.id, "kind": definition.kind,
                "metadata": dict(definition.metadata)}

    monkeypatch.setattr(activity, "public_view", leaky)
    import harness.abilities.machines as machines

    monkeypatch.setattr(machines, "public_view", leaky)
    assert _verdicts(abilities.generate(tmp_path, 1), "activity") == {"violation"}
