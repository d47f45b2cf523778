"""Scenarios that write one Tally trace slowly, in a temporary folder of their own
(``tlaconf check`` interrupted mid-run must leave neither)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from tlaconf.trace.writer import TraceWriter


def generate_all(out: Path, seed: int) -> list[Path]:
    path = out / "slow.trace.jsonl"
    with tempfile.TemporaryDirectory(prefix="tlaconf-slow-"), \
            TraceWriter(path, "Tally", "1", constants={"Limit": 10**9}) as w:
        w.init({"count": 0})
        Path(os.environ["TLACONF_SLOW_MARK"]).touch()
        for i in range(1, 600):
            w.step("Inc", {"by": 1}, "accepted", {"count": i})
            time.sleep(0.1)
    return [path]
