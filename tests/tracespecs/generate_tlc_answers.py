"""Regenerate ``tlc_answers.json``: real TLC's answers on the trace-spec corpus
(:mod:`tests.tracespecs.corpus`) and on the small modules of ``modules/``, so that the
tests need no Java.

Each corpus run (case, log, cfg) is one TLC run with the case's own options,
``-workers 1`` (the trace specs ``ASSUME`` one worker); its verdict, states and depth are
recorded with what it printed and the time it took.  Each module of ``modules/`` with a
``.cfg`` is run too: its states and what it printed (``Print``/``PrintT``), in order.
With no argument, every case whose checkout is set and every module, but the long cases
(``Case.long``: TLC takes over an hour), which run only when named; else the cases named
(``modules``: the modules only).  An answer measured elsewhere (a long case's, from a run
of over an hour) is entered by hand with its ``source`` and kept until its case is run
here again; without ``distinct`` and ``depth`` only its verdict is checked.

    TLC_JAR=/path/to/tla2tools.jar TLACONF_COMMUNITY_JAR=/path/to/CommunityModules-deps.jar \\
    TLACONF_EXAMPLES=... TLACONF_ETCD_RAFT=... TLACONF_TWOPHASE=... TLACONF_KEYVALUESTORE=... \\
    TLACONF_LOCKSERVER=... \\
        python -m tests.tracespecs.generate_tlc_answers [CASE ...]
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .corpus import CASES, Case, prepare, runs

DATA = Path(__file__).with_name("tlc_answers.json")
MODULES = Path(__file__).with_name("modules")
_STATES = re.compile(r"^([\d,]+) states generated, ([\d,]+) distinct states found", re.M)
_DEPTH = re.compile(r"^The depth of the complete state graph search is (\d+)\.", re.M)
_ERROR = re.compile(r"^Error: (.*)$", re.M)


def _int(text: str) -> int:
    return int(text.replace(",", ""))


def parse(output: str) -> dict[str, Any]:
    """TLC's verdict, states and depth from its output."""
    answer: dict[str, Any] = {}
    if "Error: Parsing or semantic analysis failed." in output:
        answer["verdict"] = "failed"
        answer["error"] = "Parsing or semantic analysis failed."
    elif "Model checking completed. No error has been found." in output:
        answer["verdict"] = "accepted"
    elif m := _ERROR.search(output):
        answer["verdict"] = "rejected"
        answer["error"] = m.group(1).strip()
    else:
        answer["verdict"] = "failed"
        answer["error"] = output[-800:]
    if found := _STATES.findall(output):
        answer["generated"], answer["distinct"] = (_int(x) for x in found[-1])
    if m := _DEPTH.search(output):
        answer["depth"] = int(m.group(1))
    return answer


_PRINTED = re.compile(
    r'^(<<.*>>|".*"|-?\d+|TRUE|FALSE|\{.*\}|\[.*\]|\(.*\)|-?\d+\.\.-?\d+)(  .*)?$')


def run_module(classpath: str, tla: Path) -> dict[str, Any]:
    """TLC's verdict, states and printed lines on ``tla`` under its ``.cfg``."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", classpath, "tlc2.TLC", "-workers", "1",
             "-noGenerateSpecTE", "-metadir", tmp, tla.name], cwd=tla.parent,
            capture_output=True, text=True,
            check=False)
    return {**parse(done.stdout + done.stderr), "printed": printed(done.stdout)}


def printed(output: str) -> list[str]:
    """The lines ``Print``/``PrintT`` printed once TLC started (a value each)."""
    started = output[output.index("Starting..."):] if "Starting..." in output else ""
    return [line for line in started.splitlines() if _PRINTED.match(line)]


def run_tlc(jar: str, case: Case, root: Path, log: str, cfg: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        cfg_path, env = prepare(case, root, log, cfg, work)
        spec = root / case.spec
        cmd = ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1",
               "-noGenerateSpecTE", "-config", str(cfg_path), "-metadir",
               str(work / "states"), *case.tlc_args,
               spec.name]
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=spec.parent, env={**os.environ, **env},
                              capture_output=True, text=True, check=False)
        answer = {**parse(done.stdout + done.stderr), "printed": printed(done.stdout)}
        answer["seconds"] = round(time.perf_counter() - start, 1)
    return answer


def main(names: list[str]) -> int:
    jar, community = os.environ.get("TLC_JAR"), os.environ.get("TLACONF_COMMUNITY_JAR")
    if not jar or not community:
        print("set TLC_JAR (tla2tools.jar) and TLACONF_COMMUNITY_JAR "
              "(CommunityModules-deps.jar)", file=sys.stderr)
        return 2
    data: dict[str, Any] = json.loads(DATA.read_text()) if DATA.exists() else {}
    data["tlc"] = "TLC 1.8.0 (tlaplus/tlaplus cc6b616), CommunityModules-deps.jar"
    answers = data.setdefault("runs", {})
    if not names or "modules" in names:
        data["modules"] = {tla.stem: run_module(f"{jar}:{community}", tla)
                           for tla in sorted(MODULES.glob("*.tla"))
                           if tla.with_suffix(".cfg").exists()}
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    for case in CASES:
        root = case.root()
        if (names and case.name not in names) or (case.long and case.name not in names):
            continue  # a long case only when named (TLC takes over an hour on it)
        if root is None:
            print(f"{case.name}: skipped ({case.how})", file=sys.stderr)
            continue
        for log, cfg in runs(case, root):
            key = f"{case.name}/{log}/{cfg}"
            answers[key] = {**run_tlc(f"{jar}:{community}", case, root, log, cfg),
                            "source": "this generator"}
            print(key, answers[key], flush=True)
            DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
