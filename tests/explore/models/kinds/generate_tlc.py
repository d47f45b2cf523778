"""Regenerate ``tlc_verdicts.json``: real TLC's answers on the kinds-apart models here and
the trace-spec form in ``tests/validate/data/kinds``.

    TLC_JAR=/path/to/tla2tools.jar TLACONF_COMMUNITY_JAR=/path/to/CommunityModules-deps.jar \\
        python tests/explore/models/kinds/generate_tlc.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
TRACE = HERE.parents[2] / "validate" / "data" / "kinds"
RUNS = [  # (folder, module, cfg, environment)
    (HERE, "Kinds", "Kinds.cfg", {}),
    (HERE, "Same", "Same.cfg", {}),
    (TRACE, "KindsTrace", "KindsTrace.cfg", {"JSON": "kinds.ndjson"}),
]


def run(folder: Path, module: str, cfg: str, env: dict[str, str]) -> dict[str, object]:
    jars = os.pathsep.join([os.environ["TLC_JAR"], os.environ["TLACONF_COMMUNITY_JAR"]])
    with tempfile.TemporaryDirectory() as tmp:
        for f in folder.iterdir():
            if f.is_file() and f.suffix in (".tla", ".cfg", ".ndjson"):
                shutil.copy(f, tmp)
        out = subprocess.run(["java", "-XX:+UseParallelGC", "-cp", jars, "tlc2.TLC",
                              "-workers", "1", "-config", cfg, module], cwd=tmp,
                             env={**os.environ, **env}, capture_output=True, text=True,
                             timeout=300).stdout
    counts = re.search(r"(\d+) states generated, (\d+) distinct states found", out)
    assert counts, out
    broken = re.search(r"Error: Invariant (\w+) is violated", out)
    return {"module": module, "cfg": cfg, "result": "violation" if broken else "success",
            "invariant": broken.group(1) if broken else None,
            "generated": int(counts.group(1)), "distinct": int(counts.group(2))}


def main() -> None:
    verdicts = [run(*r) for r in RUNS]
    (HERE / "tlc_verdicts.json").write_text(json.dumps(
        {"tlc": "TLC 1.8.0 ($TLC_JAR), java -cp tla2tools.jar:CommunityModules tlc2.TLC "
                "-workers 1 -config CFG MODULE, written by generate_tlc.py",
         "runs": verdicts}, indent=1) + "\n")


if __name__ == "__main__":
    main()
