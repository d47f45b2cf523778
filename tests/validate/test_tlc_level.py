"""``TLCGet("level")`` in a search as TLC 1.8.0 gives it, primed included (data/level).

``TLC_PRINTS`` is what TLC printed for ``Level.tla`` under ``Level.cfg``; it was recorded
with ``java -cp $TLC_JAR tlc2.TLC -workers 1 -config Level.cfg Level`` (tla2tools 1.8.0)
and :func:`test_tlc_prints_the_same` checks it again when ``TLC_JAR`` is set.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tlaconf.validate.tracespec import validate_trace_spec

DATA = Path(__file__).with_name("data") / "level"
TLC_PRINTS = [
    '<<"assume", 0>>',
    '<<"state", 1, 0, 0, 0>>',
    '<<"step", 1, 2>>',
    '<<"state", 2, 1, 2, 1>>',
    '<<"step", 2, 3>>',
    '<<"state", 3, 2, 3, 2>>',
    '<<"step", 3, 4>>',
    '<<"state", 4, 3, 4, 3>>',
    '<<"post", 0>>',
]


def _prints(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("<<")]


def test_levels_are_tlcs(capsys: pytest.CaptureFixture[str]) -> None:
    out = validate_trace_spec(DATA / "Level.tla", DATA / "Level.cfg")
    assert out.result == "accepted", out.reason
    assert out.distinct_states == 4 and out.entries_checked == 3
    assert _prints(capsys.readouterr().err) == TLC_PRINTS


def test_an_invariant_assuming_other_levels_fails() -> None:
    out = validate_trace_spec(DATA / "Level.tla", DATA / "Wrong.cfg")
    assert out.result == "rejected"
    assert out.reason == "invariant Wrong is violated at level 2"
    assert out.candidates[0].state == {"x": 1, "nxt": 2, "cur": 1}


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "to compare TLCGet(\"level\") with TLC's")
def test_tlc_prints_the_same(tmp_path: Path) -> None:
    for name in ("Level.tla", "Level.cfg"):
        (tmp_path / name).write_text((DATA / name).read_text())
    run = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", os.environ["TLC_JAR"],
                          "tlc2.TLC", "-workers", "1", "-metadir", str(tmp_path / "meta"),
                          "-config", "Level.cfg", "Level"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert re.search(r"\b4 distinct states found", run.stdout), run.stdout
    assert _prints(run.stdout) == TLC_PRINTS
