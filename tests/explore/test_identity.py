"""One state identity in every search: TRUE is not 1, equal functions are one value.

``models/kinds/Kinds.tla`` (issue 37): merging ``<<TRUE, 0>>`` with ``<<1, 0>>`` loses the
state ``<<1, 1>>`` where ``Inv`` is FALSE.  ``Same.tla``: values TLC finds equal however
they are written (a sequence and the function on ``1..n``, a record and the function on its
field names) and values it keeps apart.  TLC's answers: ``models/kinds/tlc_verdicts.json``
(``generate_tlc.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tlaconf.cli.main import main
from tlaconf.explore import Engine, Hooks, Label, Stop, bfs, dfs, fingerprint, load_model, walks
from tlaconf.explore.identity import collision_probability
from tlaconf.values import Fn, ModelValue, make_fn

KINDS = Path(__file__).parent / "models" / "kinds"
TLC = {r["module"]: r for r in json.loads((KINDS / "tlc_verdicts.json").read_text())["runs"]}


@pytest.mark.parametrize("search", [bfs, dfs], ids=["bfs", "dfs"])
def test_the_search_keeps_true_and_1_apart(search: Any) -> None:
    res = search(load_model(KINDS / "Kinds.tla"))
    tlc = TLC["Kinds"]
    assert (res.result, res.violation.invariant) == (tlc["result"], tlc["invariant"])
    assert [s.state["x"] for s in res.violation.path] == [1, 1]
    assert all(type(s.state["x"]) is int for s in res.violation.path)


def test_the_walks_keep_true_and_1_apart() -> None:
    res = walks(load_model(KINDS / "Kinds.tla"), 20, 3, seed=0)
    assert (res.result, res.violation.invariant) == ("violation", "Inv")
    assert res.violation.path[-1].state == {"x": 1, "y": 1}
    assert type(res.violation.path[-1].state["x"]) is int


@pytest.mark.parametrize("mode", [[], ["--dfs"], ["--walks", "20", "--depth", "3"]],
                         ids=["bfs", "dfs", "walks"])
def test_the_cli_gives_tlcs_verdict(mode: list[str], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", str(KINDS / "Kinds.tla"), "--trace", str(tmp_path / "v.jsonl"),
                 "--json", *mode])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["result"] == "violation"
    assert out["violation"]["invariant"] == TLC["Kinds"]["invariant"]


def test_equal_functions_are_one_state_and_kinds_are_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(KINDS / "Same.tla"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tlc = TLC["Same"]
    assert (out["distinct_states"], out["total_states"]) == (tlc["distinct"], tlc["generated"])
    assert out["fingerprint_collision"] == collision_probability(11, 25)
    assert f"{out['fingerprint_collision']:.1E}" == "8.3E-18"  # TLC: "val = 8.3E-18"


def test_the_text_report_prints_tlcs_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(KINDS / "Same.tla")]) == 0
    assert "calculated (optimistic): val = 8.3E-18" in capsys.readouterr().out


@pytest.mark.parametrize(("a", "b"), [
    (True, 1), (False, 0), (frozenset({1}), frozenset({True})), ((1,), (True,)),
    (Fn({"a": 1}), Fn({"a": True})), ("a", ModelValue("a")), ((), frozenset()),
    (frozenset({(0,)}), frozenset({(False,)})), ((1, 2), (2, 1)), (Fn({"a": 1}), Fn({"b": 1})),
])
def test_different_values_have_different_fingerprints(a: Any, b: Any) -> None:
    assert fingerprint(a) != fingerprint(b)


@pytest.mark.parametrize(("a", "b"), [
    ((1, 2), Fn({1: 1, 2: 2})), ((), Fn({})), (make_fn({"a": 1}), Fn({"a": 1})),
    (frozenset({1, 2, 3}), frozenset({3, 2, 1})), (Fn({"a": 1, "b": 2}), Fn({"b": 2, "a": 1})),
    (2**200, 2**200), ("\u00e9", "\u00e9"),
])
def test_equal_values_have_one_fingerprint(a: Any, b: Any) -> None:
    assert fingerprint(a) == fingerprint(b)


def test_fingerprints_are_the_same_in_every_process() -> None:
    code = ("from tlaconf.explore import fingerprint; from tlaconf.values import Fn, ModelValue;"
            "print(fingerprint((1, 'a', frozenset({True, False}), Fn({'k': ModelValue('m')}))))")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": seed}, check=True).stdout
            for seed in ("1", "2", "3")}
    assert len(runs) == 1


class _Record(Hooks):
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def initial(self, sid: int, state: dict[str, Any]) -> None:
        self.calls.append(("initial", sid))

    def transition(self, src: int, src_state: dict[str, Any], label: Label, dst: int,
                   dst_state: dict[str, Any], new: bool) -> None:
        self.calls.append(("transition", src, label.name, dst, new))

    def dead_end(self, sid: int, state: dict[str, Any]) -> None:
        self.calls.append(("dead_end", sid))

    def level_done(self, level: int) -> None:
        self.calls.append(("level_done", level))

    def finished(self, complete: bool) -> None:
        self.calls.append(("finished", complete))


def test_hooks_see_every_state_and_step() -> None:
    model = load_model(KINDS / "Same.tla")
    rec = _Record()
    engine = Engine(model, (rec,))
    res = engine.bfs()
    assert res.result == "success"
    initial = [c[1] for c in rec.calls if c[0] == "initial"]
    assert len(initial) == len(set(initial)) == 11
    steps = [c for c in rec.calls if c[0] == "transition"]
    assert len(steps) == 11 and all(src == dst and not new for _, src, _, dst, new in steps)
    assert rec.calls[-2:] == [("level_done", 1), ("finished", True)]
    sid = initial[0]
    assert engine.path(sid)[0].state == engine.state(sid)
    assert engine.steps((sid, sid))[1].label == Label("Next")


class _Forbid(Hooks):
    """Stops the search at the first step into a state whose x is 1."""

    def transition(self, src: int, src_state: dict[str, Any], label: Label, dst: int,
                   dst_state: dict[str, Any], new: bool) -> None:
        if dst_state["x"] == 1 and type(dst_state["x"]) is int:
            raise Stop("property", "NeverOne", (src, dst), loop=None, detail="x is 1")


def test_a_hook_ends_the_search_with_its_verdict() -> None:
    model = load_model(KINDS / "Kinds.tla")
    res = Engine(model, (_Forbid(),)).bfs()
    v = res.violation
    assert res.result == "violation" and v is not None
    assert (v.kind, v.invariant, v.detail) == ("property", "NeverOne", "x is 1")
    assert [s.state for s in v.path] == [{"x": 1, "y": 0}, {"x": 1, "y": 1}]
    assert v.path[1].label == Label("Next")


def test_bounds_cut_the_search_incomplete() -> None:
    model = load_model(KINDS / "Same.tla")
    res = Engine(model, max_states=3).bfs()
    assert (res.complete, res.bound, res.distinct_states) == (False, "states", 4)
    res = Engine(load_model(KINDS / "Kinds.tla"), max_depth=1).bfs()
    assert (res.result, res.complete, res.depth) == ("success", False, 1)


def test_steps_refuse_a_path_the_model_does_not_take() -> None:
    engine = Engine(load_model(KINDS / "Kinds.tla"))
    engine.bfs()
    start = next(sid for sid in engine.frontier)
    with pytest.raises(ValueError, match="no step of the model"):
        engine.steps((start, start))


def test_symmetry_picks_tlcs_representative() -> None:
    """TLC fingerprints the permutation of a state least in its order (variable by
    variable): ``Tokens`` under ``Permutations(Procs)``."""
    model = load_model(Path(__file__).parent / "models" / "Tokens.tla",
                       Path(__file__).parent / "models" / "Tokens.cfg")
    p1, p2, p3 = (ModelValue(f"p{i}") for i in (1, 2, 3))
    state = {"holder": p3, "sent": 1, "log": frozenset({(p2, p3)})}
    assert model.key(state) == (p1, 1, frozenset({(p2, p1)}))
    twin = {"holder": p2, "sent": 1, "log": frozenset({(p3, p2)})}
    assert model.fingerprint(state) == model.fingerprint(twin)
    other = {"holder": p2, "sent": 1, "log": frozenset({(p2, p3)})}
    assert model.fingerprint(state) != model.fingerprint(other)
