"""Recorder and scenario traces: format, determinism, rejected steps, golden files up to date."""

from __future__ import annotations

import filecmp
import itertools
import json
from pathlib import Path

from harness.profile import Move, apply, membership_vars
from harness.recorder import Recorder
from harness.scenarios import composition, generate_all
from harness.scenarios.golden import write_golden
from harness.scenarios.play import initial_state

ROOT = Path(__file__).resolve().parents[2]


def test_recorder_streams_accepted_and_rejected_steps(tmp_path: Path) -> None:
    state = initial_state()
    path = tmp_path / "t.trace.jsonl"
    with Recorder(path, "ZoneMembership", membership_vars, meta={"k": 1}) as rec:
        rec.init(state)
        for request in (Move(11, "SideA.Hand", "Play"), Move(11, "SideA.Hand", "Play")):
            state, out = apply(state, request)
            if out.accepted:
                rec.accepted(request.action, out.params, state)
            else:
                rec.rejected(request.action, out.params, state)
        assert rec.steps == 2
    header, init, first, second = (json.loads(x) for x in path.read_text().splitlines())
    assert header["module"] == "ZoneMembership" and header["revision"] == "2"
    assert header["constants"] == {"Seats4": {"#set": ["SideA", "SideB"]}}
    assert header["meta"] == {"k": 1}
    assert set(init["state"]) == {"inGameIds", "occupants"}
    assert len(init["state"]["occupants"]) == 12
    assert first["outcome"] == "accepted" and first["params"]["id"] == 11
    assert second["outcome"] == "rejected" and second["state"] == first["state"]


def test_same_seed_byte_identical_traces(tmp_path: Path) -> None:
    a = generate_all(tmp_path / "a", 5)
    b = generate_all(tmp_path / "b", 5)
    c = generate_all(tmp_path / "c", 6)
    assert [p.name for p in a] == [p.name for p in b]
    # 6 zone + 2 seat-view + 4 ability + 2 zone library scenarios, then one per composition
    # helper walk
    assert len(a) == 14 + len(composition.HELPERS) and all(p.exists() for p in a)
    for x, y in zip(a, b, strict=True):
        assert x.read_bytes() == y.read_bytes()
    assert any(x.read_bytes()[300:] != z.read_bytes()[300:] for x, z in zip(a, c, strict=True))


def test_rejected_steps_repeat_the_previous_state(tmp_path: Path) -> None:
    for path in generate_all(tmp_path, 2):
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
        rejected = 0
        for before, step in itertools.pairwise(lines):
            if step["outcome"] == "rejected":
                rejected += 1
                assert step["state"] == before["state"], path.name
        assert rejected, path.name


def test_committed_golden_traces_are_up_to_date(tmp_path: Path) -> None:
    written = write_golden(tmp_path)
    for path in written:
        committed = ROOT / "traces" / path.relative_to(tmp_path)
        assert committed.exists(), committed
        assert filecmp.cmp(path, committed, shallow=False), committed


def test_expected_verdicts_cover_every_golden_trace() -> None:
    for area in ("zones", "deck", "deals", "observation"):
        folder = ROOT / "traces" / area
        expected = json.loads((folder / "expected.json").read_text())
        assert set(expected) == {p.name for p in folder.glob("*.trace.jsonl")}
        kinds = {v["verdict"] for v in expected.values()}
        assert kinds == {"conforms", "violation"}
        for verdict in expected.values():
            assert (verdict["step"] is None) == (verdict["verdict"] == "conforms")
