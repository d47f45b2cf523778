"""Verdicts and messages do not depend on PYTHONHASHSEED nor on which traces ran before.

The golden corpus and three traces of ``Registers.tla`` (TLCSet registers, a
message about a set whose iteration order follows string hashes) are replayed
by the real CLI under three hash seeds and in two orders; every trace's JSON
must be byte for byte the same.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tlaconf
from tlaconf.trace import TraceWriter

CHECKOUT = Path(tlaconf.__file__).resolve().parents[1]
HERE = Path(__file__).parent
SEEDS = ("0", "1", "4242")


def _registers_traces(folder: Path) -> list[Path]:
    folder.mkdir()
    sets = folder / "sets-register.trace.jsonl"
    with TraceWriter(sets, "Registers", "2", {}, {}) as w:
        w.init({"n": 0})
        w.step("Tick", {}, "accepted", {"n": 1})
        w.step("Check", {}, "accepted", {"n": 1})
    reads = folder / "reads-register.trace.jsonl"
    with TraceWriter(reads, "Registers", "2", {}, {}) as w:
        w.init({"n": 1})
        w.step("Check", {}, "accepted", {"n": 1})  # an error unless a register leaked
    mix = folder / "mix.trace.jsonl"
    pairs = frozenset((k, 1) for k in "abcd")
    with TraceWriter(mix, "Registers", "2", {}, {}) as w:
        w.init({"n": 0})
        w.step("Mix", {"pairs": pairs}, "accepted", {"n": 0})
    return [sets, reads, mix]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("determinism")
    spec = root / "spec"
    shutil.copytree(CHECKOUT / "spec", spec)
    shutil.copy(HERE / "Registers.tla", spec / "conformance" / "Registers.tla")
    golden = sorted((CHECKOUT / "traces").rglob("*.trace.jsonl"))
    return spec, [*_registers_traces(root / "registers"), *golden]


def _replay(spec: Path, paths: list[Path], seed: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    proc = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "--spec", str(spec),
         *map(str, paths)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode in (1, 2), proc.stderr
    doc = json.loads(proc.stdout)
    return {t["path"]: json.dumps(t, sort_keys=False) for t in doc["traces"]}


def test_same_json_under_three_hash_seeds_and_two_orders(
    corpus: tuple[Path, list[Path]],
) -> None:
    spec, paths = corpus
    # Three runs cover three seeds and both orders (a seed's effect does not depend on order).
    runs = [_replay(spec, paths, SEEDS[0]), _replay(spec, paths[::-1], SEEDS[1]),
            _replay(spec, paths, SEEDS[2])]
    first = runs[0]
    assert len(first) == len(paths)
    for other in runs[1:]:
        assert other == first
    reads = json.loads(first[str(paths[1])])
    assert reads["verdict"] == "error" and "register was never set" in reads["failure"]["reason"]
    assert json.loads(first[str(paths[0])])["verdict"] == "conforms"
    mix = json.loads(first[str(paths[2])])
    assert mix["verdict"] == "error" and 'cannot compare' in mix["failure"]["reason"]
