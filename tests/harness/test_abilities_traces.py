"""Recorded ability traces: determinism, rejected steps, coverage, golden corpus, module fit."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from harness.scenarios import abilities, golden_abilities
from tlaconf import evaluate
from tlaconf.tla.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "abilities"
CONFORMANCE = ROOT / "spec" / "conformance"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def scenario_traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("abilities")
    return [p for seed in (0, 1, 2) for p in abilities.generate(out / str(seed), seed)]


def test_same_seed_gives_byte_identical_traces(tmp_path: Path) -> None:
    a = abilities.generate(tmp_path / "a", 11)
    b = abilities.generate(tmp_path / "b", 11)
    c = abilities.generate(tmp_path / "c", 12)
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    assert any(x.read_bytes() != z.read_bytes() for x, z in zip(a, c, strict=True))


def test_rejected_steps_leave_the_state_exactly_as_it_was(scenario_traces: list[Path]) -> None:
    rejected = 0
    for path in scenario_traces:
        recs = lines(path)
        assert recs[0]["format"] == "tlaconf-trace" and recs[0]["revision"] == "2"
        previous = recs[1]["state"]
        for step in recs[2:]:
            if step["outcome"] == "rejected":
                assert step["state"] == previous, (path.name, step["action"])
                rejected += 1
            previous = step["state"]
    assert rejected > 50


def test_every_lifecycle_path_is_exercised(scenario_traces: list[Path]) -> None:
    seen: Counter[tuple[str, str, str]] = Counter()
    for path in scenario_traces:
        recs = lines(path)
        for step in recs[2:]:
            seen[(recs[0]["module"], step["action"], step["outcome"])] += 1
    expected = {
        "AbilityResolution": ("Recognize", "Begin", "Finish", "Advance", "Return", "Withdraw",
                              "Restore"),
        "AbilityLifecycle": ("Finish", "Advance", "Return"),
        "AbilityActivity": ("Choose",),
        "AbilityUse": ("Select", "EndTurn"),
    }
    for module, actions in expected.items():
        for action in actions:
            for outcome in ("accepted", "rejected"):
                assert seen[(module, action, outcome)] > 0, (module, action, outcome)
    assert seen[("AbilityResolution", "Depart", "accepted")] > 0
    assert seen[("AbilityActivity", "Observe", "accepted")] > 0
    assert seen[("AbilityUse", "Boundary", "accepted")] > 0


def test_illegal_requests_of_the_brief_are_rejected(scenario_traces: list[Path]) -> None:
    """Wrong caller, wrong receipt, returning twice, chains open, finishing out of order."""
    kinds: Counter[str] = Counter()
    for path in scenario_traces:
        recs = lines(path)
        state = recs[1]["state"]
        for step in recs[2:]:
            p, insts = step["params"], state.get("instances")
            if step["outcome"] == "rejected" and insts is not None:
                inst = _instance(insts, p.get("instance"))
                if inst is not None and step["action"] == "Return":
                    if inst["returned"]:
                        kinds["twice"] += 1
                    elif inst["complete"] and p["caller"] != inst["caller"]:
                        kinds["caller"] += 1
                    elif inst["complete"] and not p["actualFinalCheckpointAndChainsComplete"]:
                        kinds["chains"] += 1
                if inst is not None and step["action"] == "Finish" and inst["imminent"]:
                    r = p["receipt"]
                    if r["instance"] != inst["id"]:
                        kinds["other instance"] += 1
                    elif r["instruction"] != inst["instructions"][inst["cursor"] - 1]:
                        kinds["out of order"] += 1
            state = step["state"]
    assert set(kinds) == {"twice", "caller", "chains", "other instance", "out of order"}


def _instance(instances: object, iid: object) -> dict | None:
    if isinstance(instances, dict) and "#map" in instances:
        return next((v for k, v in instances["#map"] if k == iid), None)
    return None


def test_golden_traces_are_up_to_date(tmp_path: Path) -> None:
    written = golden_abilities.write_all(tmp_path)
    names = {p.name for p in written} | {"expected.json"}
    assert names == {p.name for p in GOLDEN.iterdir()}
    for name in names:
        assert (tmp_path / name).read_bytes() == (GOLDEN / name).read_bytes(), name


def test_golden_expectations_cover_every_return_conjunct_and_module() -> None:
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    violations = {k: v for k, v in expected.items() if v["verdict"] == "violation"}
    conjuncts = {v.get("conjunct") for v in violations.values()}
    assert {"before.complete", "~before.returned", "actualFinalCheckpointAndChainsComplete",
            "caller = before.caller",
            "instances' = [instances EXCEPT ![p.instance].returned = TRUE]"} <= conjuncts
    modules = Counter(lines(GOLDEN / k)[0]["module"] for k in violations)
    assert set(modules) == {"AbilityLifecycle", "AbilityResolution", "AbilityActivity",
                            "AbilityUse"}
    profile = (ROOT / "spec/reference-profile/rev2/Abilities9.tla").read_text("utf-8")
    for name, v in violations.items():
        recs = lines(GOLDEN / name)
        last = recs[-1]
        if v["step"]:                                   # the violating step is the last one
            assert len(recs) - 2 == v["step"], name
        module = (CONFORMANCE / f"{recs[0]['module']}.tla").read_text(encoding="utf-8")
        if v["step"] and last["outcome"] == "rejected":  # a legal request refused: no blame
            assert v["conjunct"] is None, name
            assert last["state"] == recs[-2]["state"], name
        else:                                           # a leaf of the module or profile
            assert " ".join(v["conjunct"].split()) in " ".join((module + profile).split()), name
    conforming = [k for k, v in expected.items() if v["verdict"] == "conforms"]
    assert len(conforming) == 5


def _module_interface(name: str) -> tuple[set[str], set[str]]:
    text = (CONFORMANCE / f"{name}.tla").read_text(encoding="utf-8")
    variables = set(parse_module(text, name).variables())
    actions = set(re.findall(r"^(\w+)\(p\) ==", text, re.M))
    return variables, actions


def test_traces_fit_their_conformance_modules(scenario_traces: list[Path]) -> None:
    for path in [*scenario_traces, *GOLDEN.glob("*.trace.jsonl")]:
        recs = lines(path)
        module = recs[0]["module"]
        variables, actions = _module_interface(module)
        assert (CONFORMANCE / f"{module}.cfg").is_file()
        for rec in recs[1:]:
            assert set(rec["state"]) == variables, (path.name, module)
            if "action" in rec:
                assert rec["action"] in actions, (path.name, rec["action"])


def test_ability_lifecycle_is_the_fixed_contract() -> None:
    text = (CONFORMANCE / "AbilityLifecycle.tla").read_text(encoding="utf-8")
    assert parse_module(text, "AbilityLifecycle").variables() == ("instances",)
    assert "instances' = [instances EXCEPT ![p.instance].returned = TRUE]" in text
    assert ("ReturnAbility9(instances[p.instance], instances'[p.instance],\n"
            "                      p.actualFinalCheckpointAndChainsComplete, p.caller)") in text


def test_contract_traces_have_only_the_contract_fields() -> None:
    contract = sorted(GOLDEN.glob("contract-*.trace.jsonl"))
    assert len(contract) == 4
    for path in contract:
        for rec in lines(path)[1:]:
            for inst in rec["state"]["instances"]:
                assert set(inst) == {"caller", "complete", "returned"}, path.name


def test_lifecycle_invariants_read_only_the_contract_fields() -> None:
    """Every AbilityLifecycle invariant evaluates on records with just caller, complete and
    returned (CursorInRange, which reads cursor and instructions, is AbilityResolution's)."""
    from tlaconf.spec.cfg import read_cfg
    from tlaconf.values import from_python

    ctx = evaluate.load_module(CONFORMANCE / "AbilityLifecycle.tla",
                               [ROOT / "spec/reference-profile/rev2"])
    invariants = read_cfg(CONFORMANCE / "AbilityLifecycle.cfg").invariants
    assert invariants == ("ReturnedOnlyWhenComplete",)
    seen = set()
    for complete in (False, True):
        for returned in (False, True):
            state = {"instances": from_python(
                {7: {"caller": "SideA", "complete": complete, "returned": returned}})}
            seen.add(ctx.holds("ReturnedOnlyWhenComplete", (), state))
            assert ctx.holds("ReturnedOnlyWhenComplete", (), state) == (complete or not returned)
    assert seen == {True, False}
