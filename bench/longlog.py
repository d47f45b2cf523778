"""The longest log of the trace-spec corpus under ``tlaconf validate``, beside TLC: etcd
raft's ``tla/Traceetcdraft.tla`` with its ``.cfg`` (``TraceMatched`` and the refinement
property ``etcdSpec`` included) and the whole committed ``tla/example.ndjson``.

Needs ``TLACONF_ETCD_RAFT`` (an etcd-io/raft checkout) and ``TLACONF_COMMUNITY_JAR``
(``CommunityModules-deps.jar``).  TLC takes over an hour on the whole log: its figure is
the one recorded in ``tests/tracespecs/tlc_answers.json`` (printed with its source), unless
``TLACONF_BENCH_TLC_LONG=1`` and ``TLC_JAR`` run it here too; tlaconf runs it only with
``TLACONF_LONG_LOGS=1`` (as ``make test-tracespecs`` does).  With ``TLC_JAR``, the
1,000-line prefix (``MAX_TRACE=1000``) is run by both in this run.  tlaconf's time is wall
time of the whole command (start-up included), its memory the peak resident size.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SPEC = "tla/Traceetcdraft.tla"
LOG = "tla/example.ndjson"
ANSWERS = Path(__file__).parent.parent / "tests" / "tracespecs" / "tlc_answers.json"


def run_tlaconf(root: Path, jar: str, env: dict[str, str]) -> tuple[str, float, float, int]:
    """tlaconf's verdict, wall time, peak memory (GB) and depth reached."""
    given = [a for k, v in env.items() for a in ("--env", f"{k}={v}")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "validate", "--json", "--library", jar,
         *given, SPEC], cwd=root, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    try:
        report: dict[str, Any] = json.loads(run.stdout)
    except json.JSONDecodeError:
        return f"error ({run.stderr.strip().splitlines()[-1:]})", seconds, 0.0, 0
    verdict = {0: "accepted", 1: "rejected", 3: "undecided"}.get(run.returncode, "error")
    gb = max(peak, before) / 1024 / 1024  # ru_maxrss is in KB on Linux
    return verdict, seconds, gb, int(report.get("depth") or 0)


def run_tlc(root: Path, classpath: str, env: dict[str, str]) -> tuple[str, float]:
    """TLC's verdict and wall time, run as the corpus runs it (one worker,
    ``-lncheck final``)."""
    with tempfile.TemporaryDirectory() as meta:
        start = time.perf_counter()
        run = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", classpath, "tlc2.TLC", "-workers", "1",
             "-lncheck", "final", "-metadir", meta, Path(SPEC).name],
            cwd=root / Path(SPEC).parent, capture_output=True, text=True, check=False,
            env={**os.environ, **env})
        seconds = time.perf_counter() - start
    if "Model checking completed. No error has been found." in run.stdout:
        return "accepted", seconds
    return ("rejected" if "Error:" in run.stdout else "error"), seconds


def main() -> None:
    root, jar = os.environ.get("TLACONF_ETCD_RAFT"), os.environ.get("TLACONF_COMMUNITY_JAR")
    if not root or not jar:
        print("  skipped: set TLACONF_ETCD_RAFT (an etcd-io/raft checkout) and "
              "TLACONF_COMMUNITY_JAR (CommunityModules-deps.jar); TLC_JAR adds TLC")
        return
    tlc = os.environ.get("TLC_JAR")
    log = str(Path(root) / LOG)
    lines = sum(1 for line in Path(log).read_text().splitlines() if line.strip())
    runs = [("1,000-line prefix", {"JSON": log, "MAX_TRACE": "1000"}, "etcd-raft-1000"),
            (f"whole log ({lines:,} lines)", {"JSON": log}, "etcd-raft-whole")]
    whole = os.environ.get("TLACONF_LONG_LOGS") == "1"
    if not whole:
        runs = runs[:1]
    recorded = json.loads(ANSWERS.read_text())["runs"]
    for name, env, case in runs:
        verdict, ours, gb, depth = run_tlaconf(Path(root), jar, env)
        line = (f"  etcd raft, {name:24} tlaconf {verdict:9} {ours:7.1f} s {gb:4.2f} GB "
                f"depth {depth}")
        tlc_answer = recorded.get(f"{case}/original/as-is", {})
        long = "MAX_TRACE" not in env
        if tlc and (not long or os.environ.get("TLACONF_BENCH_TLC_LONG") == "1"):
            theirs_verdict, theirs = run_tlc(Path(root), f"{tlc}:{jar}", env)
            how = "run now"
        else:
            theirs_verdict, theirs = tlc_answer.get("verdict", "?"), tlc_answer.get("seconds")
            how = "recorded, not run here" + (" (over an hour)" if long else "")
        if theirs:
            same = "same" if theirs_verdict == verdict else "DIFFERENT"
            line += (f" | TLC {theirs_verdict:9} {theirs:7.1f} s ({how})  {same}, "
                     f"ratio {ours / theirs:.3f}")
        print(line, flush=True)
        if long and how.startswith("recorded"):
            print(f"    TLC's figure: {tlc_answer.get('source', '?')}")
    if not whole:
        print(f"  etcd raft, whole log ({lines:,} lines): not run (tlaconf takes over ten "
              "minutes on it; TLACONF_LONG_LOGS=1 runs it)")


if __name__ == "__main__":
    main()
