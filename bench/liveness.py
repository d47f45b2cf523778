"""The cost of checking PROPERTY lines (liveness above all), tlaconf beside TLC.

For each model, four runs in fresh processes: tlaconf with its properties and with
``--skip-properties``, TLC (``-workers 1``) with its ``.cfg`` and with the same ``.cfg``
without its ``PROPERTY`` lines.  Printed: each run's time (tlaconf's own search time;
TLC's wall time net of its start-up on a one-state module) and peak memory (maximum
resident set of the process), and what checking the properties adds to each.  The
models are tlaconf's (``tests/explore/temporal/models`` under ``bench/data/liveness``)
and, when ``TLACONF_EXAMPLES`` names a tlaplus/Examples checkout, a few of its property
models.  TLC runs when ``TLC_JAR`` names tla2tools.jar.  ``python -m bench.liveness
[NAME ...]`` runs the models whose module or folder is named (all without a name).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
OWN = PROJECT / "tests" / "explore" / "temporal" / "models"
CONFIGS = PROJECT / "bench" / "data" / "liveness"
RUNS = [(OWN / "Counter.tla", CONFIGS / "CounterFair.cfg"),
        (OWN / "Mutex.tla", CONFIGS / "MutexStrong.cfg")]
EXAMPLES = ["Prisoners/Prisoners", "DiningPhilosophers/DiningPhilosophers",
            "ReadersWriters/MC"]
"""Examples models: ``specifications/X.cfg`` with the module its manifest names."""
TRIVIAL = ("---- MODULE Trivial ----\nVARIABLE x\nInit == x = 0\nNext == UNCHANGED x\n"
           "====\n")
_PROPERTY = re.compile(r"^\s*PROPERT(?:Y|IES)\b.*?(?=^\s*[A-Z_]{4,}\b|\Z)", re.M | re.S)


def _child(cmd: list[str], cwd: Path) -> tuple[float, int, str]:
    """Wall seconds, peak resident memory (MiB) and stdout of ``cmd`` run alone."""
    probe = ("import resource, subprocess, sys, time, json\n"
             "t = time.perf_counter()\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "w = time.perf_counter() - t\n"
             "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
             "print(json.dumps([w, m, p.stdout]))\n")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], cwd=cwd, capture_output=True,
                         text=True, timeout=1800, check=True).stdout
    wall, kib, stdout = json.loads(out)
    return wall, kib // 1024, stdout


def _tlaconf(tla: Path, cfg: Path, skip: bool) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "tlaconf.cli.main", "explore", str(tla), "-c", str(cfg),
               "--json", "--trace", str(Path(tmp) / "t.jsonl"),
               *(["--skip-properties"] if skip else [])]
        _, mib, out = _child(cmd, Path(tmp))
    res = json.loads(out)
    return res["seconds"], mib


def _tlc(jar: str, tla: Path, cfg_text: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "spec"
        shutil.copytree(tla.parent, work)
        (work / "bench.cfg").write_text(cfg_text)
        cmd = ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1",
               "-noGenerateSpecTE", "-metadir", str(Path(tmp) / "meta"), "-config",
               "bench.cfg", tla.name]
        wall, mib, out = _child(cmd, work)
    if "Model checking completed" not in out and "Error:" not in out:
        raise RuntimeError(f"TLC did not finish {tla.name}:\n{out[-2000:]}")
    return wall, mib


def _models() -> list[tuple[Path, Path]]:
    out = list(RUNS)
    root = os.environ.get("TLACONF_EXAMPLES")
    if root:
        for name in EXAMPLES:
            cfg = Path(root) / "specifications" / f"{name}.cfg"
            manifest = json.loads((cfg.parent / "manifest.json").read_text())
            module = next(m["path"] for m in manifest["modules"] for x in m["models"]
                          if Path(x["path"]).name == cfg.name)
            out.append((Path(root) / module, cfg))
    return out


def main() -> None:
    jar = os.environ.get("TLC_JAR", "")
    startup = 0.0
    if jar:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "Trivial.tla").write_text(TRIVIAL)
            (Path(tmp) / "Trivial.cfg").write_text("INIT Init\nNEXT Next\n")
            start = time.perf_counter()
            subprocess.run(["java", "-cp", jar, "tlc2.TLC", "-workers", "1", "-config",
                            "Trivial.cfg", "Trivial.tla"], cwd=tmp, capture_output=True,
                           check=False)
            startup = time.perf_counter() - start
        print(f"TLC start-up (a one-state module): {startup:.2f} s, not charged to TLC")
    else:
        print("TLC_JAR is not set: tlaconf's figures only")
    if not os.environ.get("TLACONF_EXAMPLES"):
        print("TLACONF_EXAMPLES is not set: tlaconf's own models only")
    only = set(sys.argv[1:])
    for tla, cfg in _models():
        if only and tla.parent.name not in only and tla.stem not in only:
            continue
        with_p, mem_p = _tlaconf(tla, cfg, False)
        without, mem = _tlaconf(tla, cfg, True)
        line = (f"{tla.stem} ({cfg.name}): tlaconf {with_p:.2f} s, {mem_p} MiB with "
                f"properties; {without:.2f} s, {mem} MiB without (properties add "
                f"{with_p - without:+.2f} s, {mem_p - mem:+} MiB)")
        if jar:
            text = cfg.read_text()
            t_p, tm_p = _tlc(jar, tla, text)
            t_0, tm_0 = _tlc(jar, tla, _PROPERTY.sub("", text))
            t_p, t_0 = max(t_p - startup, 0.01), max(t_0 - startup, 0.01)
            line += (f"; TLC {t_p:.2f} s, {tm_p} MiB with, {t_0:.2f} s, {tm_0} MiB without "
                     f"(adds {t_p - t_0:+.2f} s); tlaconf/TLC time with properties "
                     f"{with_p / t_p:.1f}x")
        print(line, flush=True)


if __name__ == "__main__":  # python -m bench.liveness [MODEL ...] (a module or its folder)
    main()
