"""Regenerate ``tlc_temporal.json``: real TLC's verdicts on the property models of
``models/`` (every ``MODULE_*.cfg`` beside ``MODULE.tla``), so that the tests need no Java.

For each model: the result (``success``, ``violation``, ``deadlock``, or ``error`` where
TLC stops with an evaluation error, with its message), the property TLC
names, the number of states of its counterexample and, for a liveness counterexample,
the state its cycle goes back to (0-based; the last state when it ends stuttering).  TLC
names a violated conjunct of an instantiated module by its place (``conjunct_at``).  The
same for the trace spec of ``tracespec/`` on each of its logs (``traces``; the
CommunityModules jar gives ``Json`` and ``IOUtils``)::

    TLC_JAR=/path/to/tla2tools.jar TLACONF_COMMUNITY_JAR=/path/to/CommunityModules.jar \\
        python -m tests.explore.temporal.generate_tlc
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
MODELS = HERE / "models"
TRACES = HERE / "tracespec"
TRACE_RUNS = [(cfg, log) for cfg in ("CounterLogTrace.cfg", "CounterLogTraceQueue.cfg")
              for log in ("good.ndjson", "stuck.ndjson", "jump.ndjson")]
"""The trace spec of ``tracespec/`` (its module ``CounterLogTrace.tla``) on three logs."""
DATA = HERE / "tlc_temporal.json"
_NAMED = re.compile(r"^Error: (?:Temporal property|Action property|Invariant|Property) "
                    r"(?:line (\d+), col (\d+) to .* of module (\w+)|(\w+))", re.MULTILINE)
_STATE = re.compile(r"^State (\d+): (.*)$", re.MULTILINE)
_BACK = re.compile(r"^Back to state (\d+)", re.MULTILINE)
_UNNAMED = "Error: Temporal properties were violated."
"""TLC's message for a liveness violation of the only property, some runs."""
_AT_INIT = "is violated by the initial state:"
"""A state predicate of a property FALSE in an initial state (TLC prints that state)."""
_PROPERTY = re.compile(r"^\s*PROPERT(?:Y|IES)\s+(\w+)\s*$", re.MULTILINE)
_FAILED = re.compile(r"^: (In evaluation, .*)$", re.MULTILINE)
"""TLC stopped with an evaluation error (no verdict)."""


def run_tlc(jar: str, cfg: Path, module: str | None = None,
            env: dict[str, str] | None = None) -> dict[str, Any]:
    """TLC's verdict on the model ``cfg`` (its module: the name before ``_``)."""
    module = module or cfg.name.split("_")[0] + ".tla"
    with tempfile.TemporaryDirectory() as meta:
        cmd = ["java", "-XX:+UseSerialGC", "-cp", jar, "tlc2.TLC", "-workers", "1",
               "-noGenerateSpecTE", "-config", cfg.name, "-metadir", meta, module]
        out = subprocess.run(cmd, cwd=cfg.parent, capture_output=True, text=True,
                             timeout=600, check=False, env={**os.environ, **(env or {})}).stdout
    return parse(out, f"{module} {cfg.name}", _PROPERTY.findall(cfg.read_text()))


def parse(out: str, what: str, properties: list[str] | None = None) -> dict[str, Any]:
    """The verdict in TLC's output ``out``."""
    if "Model checking completed. No error has been found." in out:
        return {"result": "success"}
    if "Error: Deadlock reached." in out:
        result: dict[str, Any] = {"result": "deadlock"}
    else:
        named = _NAMED.search(out)
        if named is None and properties and len(properties) == 1 and _UNNAMED in out:
            states = _STATE.findall(out)
            result = {"result": "violation", "property": properties[0],
                      "trace_states": len(states)}
            back = _BACK.search(out)
            if back is not None:
                result["loop"] = int(back.group(1)) - 1
            return result
        if named is None:
            failed = _FAILED.search(out)
            if failed is None:
                raise SystemExit(f"{what}: no verdict in TLC's output:\n{out}")
            return {"result": "error", "error": failed.group(1).strip()}
        line, col, module, name = named.groups()
        result = {"result": "violation"}
        if name is not None:
            result["property"] = name
        else:  # a conjunct of an instantiated module's formula, named by its place
            result["conjunct_at"] = f"{module}.tla:{line}:{col}"
    states = _STATE.findall(out)
    real = [n for n, head in states if head.strip() != "Stuttering"]
    result["trace_states"] = 1 if _AT_INIT in out else len(real)
    back = _BACK.search(out)
    if back is not None:
        result["loop"] = int(back.group(1)) - 1
    elif len(real) < len(states):
        result["loop"] = len(real) - 1
    return result


def main() -> int:
    jar, community = os.environ.get("TLC_JAR"), os.environ.get("TLACONF_COMMUNITY_JAR")
    if not jar or not community:
        print("set TLC_JAR to tla2tools.jar and TLACONF_COMMUNITY_JAR to the "
              "CommunityModules jar", file=sys.stderr)
        return 2
    models = {}
    for cfg in sorted(MODELS.glob("*_*.cfg")):
        models[cfg.name] = run_tlc(jar, cfg)
        print(cfg.name, models[cfg.name], flush=True)
    traces = {}
    for cfg, log in TRACE_RUNS:
        traces[f"{cfg} {log}"] = run_tlc(f"{jar}:{community}", TRACES / cfg,
                                         "CounterLogTrace.tla", {"JSON": log})
        print(cfg, log, traces[f"{cfg} {log}"], flush=True)
    version = subprocess.run(["java", "-cp", jar, "tlc2.TLC", "-version"], capture_output=True,
                             text=True, check=False).stdout.strip().splitlines()
    doc = {"tlc": (version[0] if version else "TLC") + ", java -cp tla2tools.jar tlc2.TLC "
           "-workers 1 -config CFG MODULE.tla; written by generate_tlc.py",
           "models": models, "traces": traces}
    DATA.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
