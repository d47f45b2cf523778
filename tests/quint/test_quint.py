"""Quint interop with the real tool: traces of ZoneMembership.qnt convert and conform.

Run by ``make test-quint``, which installs Quint (pinned in ``.quint/``) and
sets ``TLACONF_QUINT`` to its executable; without it (plain ``make test``)
these tests are skipped.  A broken copy of the Quint spec (its move leaves the
object in the source zone) must give violations at the first step.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tlaconf.replay import get_backend, replay_trace
from tlaconf.trace.itf import itf_to_trace

QUINT = os.environ.get("TLACONF_QUINT")
SPEC_QNT = Path(__file__).parent / "ZoneMembership.qnt"
SPEC_DIR = Path(__file__).parents[2] / "spec"
TRACES = 8

pytestmark = pytest.mark.skipif(not QUINT, reason="needs Quint: run make test-quint")

FORGETS_SOURCE = (
    ".set(source, occupants.get(source).exclude(Set(id)))",
    ".set(source, occupants.get(source))",
)


def quint(*args: str, cwd: Path) -> str:
    assert QUINT is not None
    r = subprocess.run([QUINT, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def spec_copy(tmp_path: Path, broken: bool) -> Path:
    text = SPEC_QNT.read_text(encoding="utf-8")
    if broken:
        assert FORGETS_SOURCE[0] in text
        text = text.replace(*FORGETS_SOURCE)
    path = tmp_path / "ZoneMembership.qnt"
    path.write_text(text, encoding="utf-8")
    return path


def replay_all(itf_files: list[Path]) -> list[tuple[str, int | None, str | None]]:
    """(verdict, failing step, failing action) of each ITF file, converted and replayed."""
    backend = get_backend("embedded")
    out = []
    for itf in itf_files:
        trace = itf.with_name(itf.name.replace(".itf.json", ".trace.jsonl"))
        itf_to_trace(itf, trace, "ZoneMembership", "2")
        r = replay_trace(trace, SPEC_DIR, backend)
        f = r.failure
        out.append((r.verdict, None if f is None else f.step, None if f is None else f.action))
    return out


def run_mbt(tmp_path: Path, broken: bool) -> list[Path]:
    spec = spec_copy(tmp_path, broken)
    quint("run", "--backend", "typescript", "--mbt", "--seed", "7", "--max-samples",
          str(TRACES), "--n-traces", str(TRACES), "--max-steps", "12",
          "--out-itf", "run_{seq}.itf.json", spec.name, cwd=tmp_path)  # fmt: skip
    return sorted(tmp_path.glob("run_*.itf.json"))


def run_tests(tmp_path: Path, broken: bool) -> list[Path]:
    spec = spec_copy(tmp_path, broken)
    quint("test", "--backend", "typescript", "--out-itf", "test_{test}.itf.json", spec.name,
          cwd=tmp_path)  # fmt: skip
    return sorted(tmp_path.glob("test_*.itf.json"))


def test_quint_run_mbt_traces_conform(tmp_path: Path) -> None:
    files = run_mbt(tmp_path, broken=False)
    assert len(files) == TRACES
    doc = json.loads(files[0].read_text())
    assert doc["states"][1]["mbt::actionTaken"] == "Move"
    assert replay_all(files) == [("conforms", None, None)] * TRACES


def test_quint_test_traces_without_labels_conform_against_next(tmp_path: Path) -> None:
    files = run_tests(tmp_path, broken=False)
    assert [f.name for f in files] == ["test_drawTest.itf.json",
                                       "test_playThenDiscardTest.itf.json"]
    states = [s for f in files for s in json.loads(f.read_text())["states"]]
    assert states and all("mbt::actionTaken" not in s for s in states)
    assert replay_all(files) == [("conforms", None, None)] * 2


def test_a_broken_quint_spec_is_caught_at_its_first_move(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "test").mkdir()
    files = run_mbt(tmp_path / "run", broken=True)
    assert len(files) == TRACES
    assert replay_all(files) == [("violation", 1, "Move")] * TRACES
    files = run_tests(tmp_path / "test", broken=True)
    assert replay_all(files) == [("violation", 1, "Next")] * 2


def test_a_hand_broken_quint_trace_is_caught_at_the_broken_step(tmp_path: Path) -> None:
    (itf, *_) = run_mbt(tmp_path, broken=False)
    doc = json.loads(itf.read_text())
    state = doc["states"][5]
    moved = state["mbt::nondetPicks"]["id"]["value"]
    for zone in state["occupants"]["#map"]:  # the moved object also stays where it was
        if zone[0] == state["mbt::nondetPicks"]["source"]["value"]:
            zone[1]["#set"].append(moved)
    itf.write_text(json.dumps(doc))
    assert replay_all([itf]) == [("violation", 5, "Move")]
