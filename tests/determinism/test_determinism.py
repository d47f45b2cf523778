"""Determinism as a checked property: same seed, same bytes; seeded steps use their seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.scenarios import generate_all
from tests.replay.counter_backend import BACKEND, SCENARIOS
from tlaconf.cli.main import main
from tlaconf.gate.scenarios import second_run
from tlaconf.replay.determinism import compare_runs, seed_independence
from tlaconf.trace.writer import TraceWriter

REPLAY_TESTS = Path(__file__).resolve().parents[1] / "replay"


def _shuffles(path: Path, steps: list[tuple[int, list[int]]], deck: list[int]) -> Path:
    with TraceWriter(path, "DeckOrder", "2", {}, {}) as w:
        w.init({"piles": {"D": deck}})
        for seed, result in steps:
            w.step("Shuffle", {"zone": "D", "seed": seed, "result": result}, "accepted",
                   {"piles": {"D": result}})
            w.step("Reorder", {"zone": "D", "order": deck}, "accepted", {"piles": {"D": deck}})
    return path


def test_a_result_that_ignores_its_seed_is_found(tmp_path: Path) -> None:
    deck, mixed = list(range(1, 11)), [4, 2, 9, 1, 10, 3, 8, 5, 7, 6]
    same = _shuffles(tmp_path / "a.trace.jsonl", [(1, mixed), (2, mixed)], deck)
    (finding,) = seed_independence([same])
    assert "DeckOrder.Shuffle: 2 different seeds gave the same result" in finding
    assert "a.trace.jsonl:3" in finding and "a.trace.jsonl:5" in finding


def test_seeds_across_traces_and_results_that_differ(tmp_path: Path) -> None:
    deck = [1, 2, 3, 4, 5, 6, 7, 8]
    one = _shuffles(tmp_path / "1.trace.jsonl", [(1, [3, 1, 2, 8, 7, 6, 5, 4])], deck)
    two = _shuffles(tmp_path / "2.trace.jsonl", [(2, [3, 1, 2, 8, 7, 6, 5, 4])], deck)
    three = _shuffles(tmp_path / "3.trace.jsonl", [(3, [3, 1, 2, 8, 7, 6, 5, 4])], deck)
    # two seeds agreeing on an 8-card order happens once in 40320: not enough; three are
    assert seed_independence([one, two]) == []
    assert len(seed_independence([one, two, three])) == 1
    other = _shuffles(tmp_path / "4.trace.jsonl", [(4, [2, 3, 1, 4, 5, 6, 7, 8])], deck)
    assert seed_independence([one, two, three, other]) == []
    # the same seed again proves nothing; a 3-card deck has too few orders for 3 seeds
    assert seed_independence([one, one, one]) == []
    small = _shuffles(tmp_path / "s.trace.jsonl", [(1, [2, 3, 1]), (2, [2, 3, 1]),
                                                   (3, [2, 3, 1])], [1, 2, 3])
    assert seed_independence([small]) == []


def test_compare_runs_names_the_first_differing_line(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "t.trace.jsonl").write_text("h\ns\nx\n")
    (b / "t.trace.jsonl").write_text("h\ns\nx\n")
    assert compare_runs(a, b) is None
    (b / "t.trace.jsonl").write_text("h\ns\ny\n")
    assert compare_runs(a, b) == f"{a / 't.trace.jsonl'}:3: a second run with the same seed " \
        "wrote a different line"
    (b / "u.trace.jsonl").write_text("")
    assert "different trace files: u.trace.jsonl" in (compare_runs(a, b) or "")


def test_the_harness_writes_the_same_bytes_in_another_process(tmp_path: Path) -> None:
    generate_all(tmp_path, 4)
    assert second_run("harness.scenarios:generate_all", 4, tmp_path) is None
    paths = sorted(tmp_path.glob("*.trace.jsonl"))
    assert seed_independence(paths) == []


def _check(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> tuple[int, str]:
    code = main(["check", "--spec", str(REPLAY_TESTS / "spec"), "--out", str(tmp_path / "o"),
                 "--backend", f"{BACKEND}:PyBackend", *args])
    out, err = capsys.readouterr()
    return code, out + err


def test_check_flags_an_unseeded_generator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPLAY_TESTS.parents[1]))
    code, out = _check(capsys, tmp_path, "--scenarios", f"{SCENARIOS}:generate_all_unseeded")
    assert code == 1 and "a second run with the same seed wrote a different line" in out
    code, out = _check(capsys, tmp_path, "--scenarios", SCENARIOS, "--seeds", "2..4")
    assert code == 0 and "byte-identical traces for seed 2" in out
    assert "6 trace(s)" in out and (tmp_path / "o" / "seed-4").is_dir()
    # coverage rides on this replay; PyBackend's modules have no coverage walk
    assert "coverage: 6 traces (the first: " in out and "cannot measure coverage" in out


@pytest.mark.parametrize("bad", ["5..1", "1-200", "a..b"])
def test_bad_seed_ranges_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    assert main(["check", "--seeds", bad, "--out", str(tmp_path)]) == 2  # returned, not raised
    assert "A..B" in capsys.readouterr().err
