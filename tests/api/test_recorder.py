"""``tlaconf.Recorder``: full and partial traces from an implementation's own states, the
refinement mapping a function the user gives, written deterministically and atomically."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

import tlaconf
import tlaconf.api
import tlaconf.recorder
from tlaconf import Recorder, Some

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"


class Zones:
    """A toy zone library: zone -> set of ids, moving one id at a time."""

    def __init__(self, bug: bool = False) -> None:
        self.zones: dict[str, set[int]] = {z: set() for z in (
            "SideA.Deck", "SideA.Hand", "SideA.Discard", "SideA.Objective",
            "SideB.Deck", "SideB.Hand", "SideB.Discard", "SideB.Objective",
            "Play", "Bank", "SetAside", "Removed")}
        self.zones["SideA.Hand"] = {11, 12}
        self.bug = bug

    def move(self, card: int, source: str, destination: str) -> bool:
        if card not in self.zones[source] or source == destination:
            return False
        self.zones[source].discard(card)
        self.zones["SideA.Discard" if self.bug else destination].add(card)
        return True


def refine(impl: Zones) -> dict[str, Any]:
    """The refinement mapping: the implementation's zones as the spec's variables."""
    return {"inGameIds": {11, 12}, "occupants": {z: set(ids) for z, ids in impl.zones.items()}}


def params(card: int, source: str, destination: str) -> dict[str, Any]:
    return {"id": card, "source": source, "destination": destination,
            "movementAuthorized": True, "revealRequired": False, "revealedBeforeMove": False}


def _play(rec: Recorder[Zones], impl: Zones) -> None:
    rec.init(impl)
    for card, src, dst in ((11, "SideA.Hand", "Play"), (12, "SideA.Hand", "Play"),
                           (11, "SideA.Hand", "Play")):
        p = params(card, src, dst)
        if impl.move(card, src, dst):
            rec.accepted("Move", p, impl)
        else:
            rec.rejected("Move", p, impl)


CONSTANTS = {"Seats4": {"SideA", "SideB"}}


def test_a_full_trace_conforms_and_a_bug_is_caught(tmp_path: Path) -> None:
    with Recorder(tmp_path / "ok.trace.jsonl", "ZoneMembership", refine, revision="2",
                  constants=CONSTANTS) as rec:
        _play(rec, Zones())
    assert rec.steps == 3
    [ok] = tlaconf.replay(rec.path, spec=SPEC)
    assert ok.verdict == "conforms", ok.failure
    with Recorder(tmp_path / "bug.trace.jsonl", "ZoneMembership", refine, revision="2",
                  constants=CONSTANTS) as bad:
        _play(bad, Zones(bug=True))
    [caught] = tlaconf.replay(bad.path, spec=SPEC)
    assert caught.verdict == "violation" and caught.failure is not None
    assert caught.failure.step == 1


def touched(action: str | None, p: Any, impl: Zones) -> dict[str, Any]:
    """What a move logs: the two zones it touched."""
    return {"occupants": Some({z: set(impl.zones[z]) for z in (p["source"], p["destination"])})}


def test_a_partial_trace_logs_what_observe_returns(tmp_path: Path) -> None:
    with Recorder(tmp_path / "p.trace.jsonl", "ZoneMembership", refine, observe=touched,
                  revision="2", constants=CONSTANTS) as rec:
        _play(rec, Zones())
    lines = [json.loads(x) for x in rec.path.read_text().splitlines()]
    assert lines[0]["partial"] is True
    assert set(lines[2]["state"]["occupants"]["#partial"]) == {"SideA.Hand", "Play"}
    [ok] = tlaconf.replay(rec.path, spec=SPEC)
    assert ok.verdict == "conforms", ok.failure
    with Recorder(tmp_path / "pb.trace.jsonl", "ZoneMembership", refine, observe=touched,
                  revision="2", constants=CONSTANTS) as bad:
        _play(bad, Zones(bug=True))
    [caught] = tlaconf.replay(bad.path, spec=SPEC)
    assert caught.verdict == "violation" and caught.failure is not None
    assert caught.failure.step == 1


def test_nested_partial_values(tmp_path: Path) -> None:
    with Recorder(tmp_path / "n.trace.jsonl", "M", partial=True) as rec:
        rec.init({"votes": {"n1": {"n2": True, "n3": False}}})
        rec.unlabelled({"votes": Some({"n1": Some({"n2": False})})})
        rec.accepted("Vote", {"from": 2}, {"votes": Some({(1, 2): Some({"x": 1})})})
    lines = [json.loads(x) for x in rec.path.read_text().splitlines()]
    assert lines[2]["state"] == {"votes": {"#partial": {"n1": {"#partial": {"n2": False}}}}}
    assert lines[3]["state"] == {"votes": {"#partial": {"#map": [
        [[1, 2], {"#partial": {"x": 1}}]]}}}  # a tuple is a sequence, as in from_python


def test_writing_is_deterministic(tmp_path: Path) -> None:
    texts = []
    for name, order in (("a", ["Play", "SideA.Hand"]), ("b", ["SideA.Hand", "Play"])):
        def observe(action: str | None, p: Any, impl: Zones, order: list[str] = order
                    ) -> dict[str, Any]:
            return {"occupants": Some({z: set(impl.zones[z]) for z in order})}

        with Recorder(tmp_path / f"{name}.trace.jsonl", "ZoneMembership", refine,
                      observe=observe, revision="2", constants=CONSTANTS) as rec:
            _play(rec, Zones())
        texts.append(rec.path.read_bytes())
    assert texts[0] == texts[1]


def test_writing_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "t.trace.jsonl"
    with pytest.raises(RuntimeError), Recorder(path, "ZoneMembership", refine) as rec:
        rec.init(Zones())
        raise RuntimeError("the implementation crashed")
    assert list(tmp_path.iterdir()) == []
    rec2: Recorder[Zones] = Recorder(path, "ZoneMembership", refine)
    rec2.init(Zones())
    assert not path.exists()  # not before it is closed
    rec2.close()
    assert path.exists()


def test_misuse_is_named(tmp_path: Path) -> None:
    rec: Recorder[Any] = Recorder(tmp_path / "x.trace.jsonl", "M", lambda s: s.items())
    with pytest.raises(TypeError, match=r"refine\(state\) must map"):
        rec.init({"x": 1})
    rec.abort()
    full: Recorder[Any] = Recorder(tmp_path / "y.trace.jsonl", "M")
    with pytest.raises(ValueError, match="record the initial state before any step"):
        full.accepted("A", {}, {"x": 1})
    full.init({"x": 1})
    with pytest.raises(ValueError, match="partial trace"):
        full.accepted("A", {}, {"x": Some({1: 2})})
    with pytest.raises(ValueError, match="not a TLA\\+ identifier"):
        full.accepted("A", {}, {"x y": 1})
    full.abort()
    with pytest.raises(ValueError, match="partial"):
        Recorder(tmp_path / "z.trace.jsonl", "M", observe=touched, partial=False)


@pytest.mark.parametrize("module", [tlaconf.api, tlaconf.recorder], ids=lambda m: m.__name__)
def test_the_docstring_examples_run(module: Any, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(module, globs={"tmp": tmp_path}) if t.examples]
    assert tests
    for t in tests:
        runner.run(t)
    assert runner.failures == 0 and runner.tries > 0
