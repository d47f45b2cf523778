"""Composition-helper traces: golden corpus, expectations, determinism, coverage, module fit."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from harness.scenarios import composition, golden_composition
from tlaconf.replay import get_backend, replay_trace
from tlaconf.tla.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "traces" / "composition"
CONFORMANCE = ROOT / "spec" / "conformance"
PROFILE = ROOT / "spec" / "reference-profile" / "rev2"
#: actions that are queries (the product asks, the helper answers): never refused
QUERIES = {"Resolve", "View", "Enumerate", "Validate", "Observe"}


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def module_interface(name: str) -> tuple[set[str], set[str]]:
    text = (CONFORMANCE / f"{name}.tla").read_text(encoding="utf-8")
    variables = set(parse_module(text, name).variables())
    return variables, set(re.findall(r"^(\w+)\(p\) ==", text, re.M))


@pytest.fixture(scope="module")
def scenario_traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("composition")
    return [p for seed in (1, 2, 3) for p in composition.generate(out / str(seed), seed)]


def test_same_seed_gives_byte_identical_traces(tmp_path: Path) -> None:
    a = composition.generate(tmp_path / "a", 11)
    b = composition.generate(tmp_path / "b", 11)
    c = composition.generate(tmp_path / "c", 12)
    assert len(a) == len(composition.HELPERS)
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    assert all(x.read_bytes() != z.read_bytes() for x, z in zip(a, c, strict=True))


def test_every_action_is_accepted_and_every_request_refused_somewhere(
        scenario_traces: list[Path]) -> None:
    seen: Counter[tuple[str, str, str]] = Counter()
    for path in scenario_traces:
        recs = lines(path)
        previous = recs[1]["state"]
        for step in recs[2:]:
            seen[(recs[0]["module"], step["action"], step["outcome"])] += 1
            if step["outcome"] == "rejected":
                assert step["state"] == previous, (path.name, step["action"])
            previous = step["state"]
    for module in {lines(p)[0]["module"] for p in scenario_traces}:
        _, actions = module_interface(module)
        for action in actions:
            assert seen[(module, action, "accepted")] > 0, (module, action)
            if action not in QUERIES:
                assert seen[(module, action, "rejected")] > 0, (module, action)


def test_traces_fit_their_conformance_modules(scenario_traces: list[Path]) -> None:
    for path in [*scenario_traces, *GOLDEN.glob("*.trace.jsonl")]:
        recs = lines(path)
        variables, actions = module_interface(recs[0]["module"])
        assert (CONFORMANCE / f"{recs[0]['module']}.cfg").is_file()
        for rec in recs[1:]:
            assert set(rec["state"]) == variables, path.name
            if "action" in rec:
                assert rec["action"] in actions, (path.name, rec["action"])


def test_golden_traces_are_up_to_date(tmp_path: Path) -> None:
    written = golden_composition.write_all(tmp_path)
    names = {p.name for p in written} | {"expected.json"}
    assert names == {p.name for p in GOLDEN.iterdir()}
    for name in names:
        assert (tmp_path / name).read_bytes() == (GOLDEN / name).read_bytes(), name


def test_every_helper_has_a_conforming_trace_and_located_violations() -> None:
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    by_module: dict[str, Counter[str]] = {}
    profile = "".join(p.read_text(encoding="utf-8") for p in PROFILE.glob("*.tla"))
    for name, v in expected.items():
        recs = lines(GOLDEN / name)
        module = recs[0]["module"]
        by_module.setdefault(module, Counter())[v["verdict"]] += 1
        if v["verdict"] != "violation":
            continue
        text = (CONFORMANCE / f"{module}.tla").read_text(encoding="utf-8")
        last = recs[-1]
        assert len(recs) - 2 == v["step"], name             # the violating step is the last
        if last["outcome"] == "rejected":                   # a legal request refused: no blame
            assert v["conjunct"] is None, name
            assert last["state"] == recs[-2]["state"], name
        else:                                               # a leaf of the module or profile
            assert " ".join(v["conjunct"].split()) in " ".join((text + profile).split()), name
    assert set(by_module) == {module for module in _helper_modules()}
    for module, counts in by_module.items():
        assert counts["conforms"] >= 1 and counts["violation"] >= 2, module


def _helper_modules() -> set[str]:
    return {walk(random.Random(0))[0].module for walk, _ in composition.HELPERS.values()}


def test_a_malformed_composition_trace_is_an_error_naming_its_line(tmp_path: Path) -> None:
    recs = GOLDEN.joinpath("keywords-conforming.trace.jsonl").read_text("utf-8").splitlines()
    step = json.loads(recs[2])
    del step["params"]["keyword"]
    bad = tmp_path / "bad.trace.jsonl"
    bad.write_text("\n".join([*recs[:2], json.dumps(step)]) + "\n", encoding="utf-8")
    result = replay_trace(bad, ROOT / "spec", get_backend("embedded"))
    assert result.verdict == "error" and result.failure is not None
    assert "line 3" in result.failure.reason and "keyword" in result.failure.reason
