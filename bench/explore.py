"""States per second of ``tlaconf explore`` beside TLC (``-workers 1``) on three models.

The models are the explorer's test models (``tests/explore/models``) under the
``XLarge.cfg`` configurations of ``bench/data/explore`` (searches of seconds: a search
of a few hundredths of a second measures start-up, not the search).  tlaconf's rate is
total generated states over its search time; TLC explores the same configuration (its
counts must be tlaconf's), and its rate is total states over its wall time minus the
wall time of TLC on a one-state module extending the same standard modules (its
start-up).  TLC runs when ``TLC_JAR`` names tla2tools.jar; otherwise only tlaconf's
figures are printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
MODELS = PROJECT / "tests" / "explore" / "models"
CONFIGS = PROJECT / "bench" / "data" / "explore"
RUNS = (("Stack.tla", "Stack"), ("Tokens.tla", "Tokens"), ("Tokens.tla", "TokensSym"))
TRIVIAL = ("---- MODULE Trivial ----\nEXTENDS Naturals, FiniteSets, Sequences, TLC\n"
           "VARIABLE x\nInit == x = 0\nNext == UNCHANGED x\n====\n")
_GENERATED = re.compile(r"([\d,]+) states generated, ([\d,]+) distinct states found, 0 states")


def _tlc(jar: str, module: str, cfg_text: str, text: str | None = None) -> tuple[float, int, int]:
    """TLC's wall time, generated and distinct states for ``module`` (the test model, or
    ``text``) under ``cfg_text``."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if text is None:
            shutil.copy(MODELS / module, work / module)
        else:
            (work / module).write_text(text)
        (work / "bench.cfg").write_text(cfg_text)
        start = time.perf_counter()
        proc = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1",
             "-config", "bench.cfg", module], cwd=work, capture_output=True, text=True,
            timeout=600)  # fmt: skip
        seconds = time.perf_counter() - start
    m = _GENERATED.search(proc.stdout)
    if m is None:
        raise RuntimeError(f"TLC gave no final count for {module}:\n{proc.stdout}")
    return seconds, int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def main() -> None:
    from tlaconf.evaluate import budget
    from tlaconf.explore import bfs, load_model

    jar = os.environ.get("TLC_JAR", "")
    startup = 0.0
    if jar:
        startup, _, _ = _tlc(jar, "Trivial.tla", "INIT Init\nNEXT Next\n", TRIVIAL)
        print(f"TLC start-up (a one-state module): {startup:.2f} s, not charged to TLC")
    else:
        print("TLC_JAR is not set: tlaconf's figures only")
    for module, name in RUNS:
        cfg = CONFIGS / f"{name}Large.cfg"
        with budget.run():  # one evaluation-budget timer for the run, as the CLI has
            res = bfs(load_model(MODELS / module, cfg))
        ours = res.states_per_second
        line = (f"{name}Large: {res.distinct_states:,} distinct / {res.total_states:,} total "
                f"states, depth {res.depth}: tlaconf {res.seconds:.2f} s = {ours:,.0f} states/s")
        if jar:
            wall, total, distinct = _tlc(jar, module, cfg.read_text())
            same = (total, distinct) == (res.total_states, res.distinct_states)
            line += " (TLC: the same counts)" if same else (
                f" [TLC counted {distinct:,} distinct / {total:,} total]")
            theirs = total / max(wall - startup, 0.05)
            line += (f"; TLC {wall - startup:.2f} s = {theirs:,.0f} states/s; "
                     f"tlaconf/TLC = {ours / theirs:.4f}")
        print(line, flush=True)
