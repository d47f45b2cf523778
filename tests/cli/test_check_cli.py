"""``tlaconf check`` end to end: generate scenario traces with fixed seeds, replay, report."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.clihelp import PY_BACKEND, Cli
from tests.replay.counter_backend import SCENARIOS, SPEC


def check(cli: Cli, tmp_path: Path, *extra: str) -> tuple[int, str, str]:
    run = cli("check", "--spec", SPEC, "--backend", PY_BACKEND, *extra, cwd=tmp_path)
    assert "Traceback" not in run.err
    return run.code, run.out, run.err


def test_conforming_scenarios_exit_0(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = check(cli, tmp_path, "--scenarios", SCENARIOS)
    assert code == 0 and "6 trace(s)" in out and "OK" in out
    written = sorted(p.relative_to(tmp_path).as_posix()
                     for p in tmp_path.rglob("*.trace.jsonl"))  # fmt: skip
    assert written == [
        f".tlaconf-out/check/seed-{s}/counter-{i}.trace.jsonl" for s in (1, 2, 3) for i in (1, 2)
    ]


def test_seeds_are_fixed_and_repeatable(cli: Cli, tmp_path: Path) -> None:
    args = ("--scenarios", SCENARIOS, "--seed", "5", "--out", "o", "--json")
    first = check(cli, tmp_path, *args)
    text = (tmp_path / "o" / "seed-5" / "counter-1.trace.jsonl").read_text()
    second = check(cli, tmp_path, *args)
    assert (tmp_path / "o" / "seed-5" / "counter-1.trace.jsonl").read_text() == text
    assert json.loads(first[1])["traces"] == json.loads(second[1])["traces"]
    assert not (tmp_path / "o" / "seed-1").exists()


def test_a_buggy_implementation_exits_1_with_the_failure(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_buggy")
    assert code == 1
    assert "counter-big.trace.jsonl" in out and "violation" in out
    assert "tally'" in out  # the blame names the broken conjunct


def test_missing_scenarios_are_bad_input(cli: Cli, tmp_path: Path) -> None:
    code, _, err = check(cli, tmp_path, "--scenarios", "no_such_module")
    assert code == 2 and "no_such_module" in err
    code, _, err = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:nope")
    assert code == 2 and "no function nope" in err


def test_a_crash_of_the_implementation_is_a_finding(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_crashing",
                         "--json")
    assert code == 1
    doc = json.loads(out)
    crash = [t for t in doc["traces"] if t["verdict"] == "crash"]
    assert len(crash) == 1 and doc["summary"]["crash"] == 1 and doc["summary"]["conforms"] == 4
    failure = crash[0]["failure"]
    assert "seed 2" in failure["reason"] and "KeyError" in failure["reason"]
    assert failure["traceback"] == ".tlaconf-out/check/seed-2/crash.txt"
    saved = tmp_path / failure["traceback"]
    assert "generate_all_crashing" in saved.read_text() and "KeyError" in saved.read_text()
    code, out, _ = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_crashing")
    assert code == 1 and "crash" in out and "seed 2" in out


def test_malformed_scenarios_are_bad_input(cli: Cli, tmp_path: Path) -> None:
    for value in ("", ":x", "a:b:c", "../x", f"{SCENARIOS}:"):
        code, _, err = check(cli, tmp_path, "--scenarios", value)
        assert code == 2 and "MODULE[:FUNCTION]" in err, value
    code, _, err = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_nothing_useful")
    assert code == 2 and "returned int for seed 1, not a list of trace paths" in err


def test_every_trace_written_under_out_is_replayed(cli: Cli, tmp_path: Path) -> None:
    code, out, _ = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_unlisted",
                         "--seed", "1", "--json")  # fmt: skip
    assert code == 1
    paths = [Path(t["path"]).as_posix() for t in json.loads(out)["traces"]]
    assert len(paths) == 5
    assert any(p.endswith("seed-1/more/counter-big.trace.jsonl") for p in paths)


def test_a_returned_trace_that_was_not_written_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    code, _, err = check(cli, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_phantom")
    assert code == 2 and "phantom.trace.jsonl, which they did not write" in err
