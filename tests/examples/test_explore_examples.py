"""``tlaconf explore`` against TLC's published results: the tlaplus/Examples manifests.

Every model of a ``specifications/*/manifest.json`` that TLC checks exhaustively in 10 s or
less is explored with ``tlaconf explore --json`` as TLC runs it (its PROPERTY lines
checked; the models that have some are a test of their own,
``test_property_model_matches_tlc``); its result must be TLC's, and, where the manifest
records them, so must ``distinctStates`` and ``stateDepth``.  A model
the explorer refuses (exit 2, a construct it does not support) or does not finish within
``TLACONF_EXAMPLES_BUDGET`` seconds (default 120) is skipped with the reason; a different
figure fails.

``tlc_workers1.json`` holds the figures real TLC (1.8.0, ``-workers 1``) gives where the
manifest's differ: the manifests record runs on several workers, whose depth is not the
breadth-first depth.

Set ``TLACONF_EXAMPLES`` to a tlaplus/Examples checkout to run them (``make
test-examples``).  As the Examples' CI runs TLC with the CommunityModules jar and the
tlapm library on its class path, the explorer is given them as its library path when
``TLACONF_COMMUNITY_JAR`` (the jar) and ``TLACONF_TLAPM_LIBRARY`` (tlapm's ``library/``
folder) are set; a model that needs them is skipped without ("needs module ...").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = os.environ.get("TLACONF_EXAMPLES", "")
BUDGET = float(os.environ.get("TLACONF_EXAMPLES_BUDGET", "120"))
WORKERS1 = json.loads((Path(__file__).parent / "tlc_workers1.json").read_text())["models"]
LIBRARY = [p for p in (os.environ.get("TLACONF_LIBRARY"), os.environ.get("TLACONF_COMMUNITY_JAR"),
                       os.environ.get("TLACONF_TLAPM_LIBRARY")) if p]
"""The explorer's library path: the CommunityModules jar and tlapm's library, as TLC's class
path has them in the Examples' CI."""
RESULTS = {"success": "success", "safety failure": "violation", "deadlock failure": "deadlock",
           "liveness failure": "violation"}


def _seconds(runtime: str) -> int | None:
    parts = runtime.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    h, m, s = map(int, parts)
    return h * 3600 + m * 60 + s


def manifest_models(root: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """(module, cfg, model) for every exhaustive model TLC finishes in 10 s or less."""
    out = []
    for manifest in sorted(root.glob("specifications/*/manifest.json")):
        for module in json.loads(manifest.read_text())["modules"]:
            for model in module["models"]:
                secs = _seconds(model.get("runtime", ""))
                if model.get("mode") == "exhaustive search" and secs is not None and secs <= 10:
                    out.append((module["path"], model["path"], model))
    return out


def has_properties(cfg: Path) -> bool:
    """Whether the ``.cfg`` has a ``PROPERTY``/``PROPERTIES`` section."""
    text = re.sub(r"\(\*.*?\*\)", "", cfg.read_text(errors="replace"), flags=re.DOTALL)
    return re.search(r"^\s*PROPERT(?:Y|IES)\b", text, re.MULTILINE) is not None


ALL = manifest_models(Path(ROOT)) if ROOT else []
MODELS = [m for m in ALL if not has_properties(Path(ROOT) / m[1])]
PROPERTY_MODELS = [m for m in ALL if has_properties(Path(ROOT) / m[1])]


def reason(stderr: str) -> str:
    """The short reason a model is unsupported, from the explorer's error message."""
    patterns = [
        (r"module (\w+) not found", "needs module {0} (not found on the search path)"),
        (r"neither a CONSTANT nor a definition", ".cfg overrides a standard operator"),
        (r"undefined (?:operator|name) (\S+)", "needs operator {0} (a community module)"),
        (r"precedence conflict", "parser: an operand such as a = ~b (SANY precedence)"),
        (r"<-\[Module\]|\[Module\]value", ".cfg: a value for one instantiated module"),
        (r"is not \[\]\[A\]_v", "a temporal formula in SPECIFICATION"),
        (r"initial predicates?;|\[\]\[Next\]_vars conjuncts?",
         "SPECIFICATION not Init /\\ [][Next]_v"),
        (r"unbounded quantifier|cannot be enumerated|infinite", "enumerates an infinite set"),
        (r"POSTCONDITION", "POSTCONDITION"),
        (r"(PROPERTY \w+: [^:(]+)", "{0}"),
    ]
    for pattern, text in patterns:
        m = re.search(pattern, stderr)
        if m:
            return text.format(*m.groups())
    lines = [x for x in stderr.splitlines() if x.strip()]
    return lines[-1][-160:] if lines else "no message"


@pytest.mark.skipif(not ROOT, reason="set TLACONF_EXAMPLES to a tlaplus/Examples checkout "
                    "(make test-examples)")
@pytest.mark.parametrize(("module", "cfg", "model"), MODELS, ids=[m[1] for m in MODELS])
def test_model_matches_tlc(module: str, cfg: str, model: dict[str, Any], tmp_path: Path) -> None:
    _matches_tlc(module, cfg, model, tmp_path)


@pytest.mark.skipif(not ROOT, reason="set TLACONF_EXAMPLES to a tlaplus/Examples checkout "
                    "(make test-examples)")
@pytest.mark.parametrize(("module", "cfg", "model"), PROPERTY_MODELS,
                         ids=[m[1] for m in PROPERTY_MODELS])
def test_property_model_matches_tlc(module: str, cfg: str, model: dict[str, Any],
                                    tmp_path: Path) -> None:
    """A model whose .cfg has PROPERTY lines, checked as TLC checks it (properties too)."""
    _matches_tlc(module, cfg, model, tmp_path)


def _matches_tlc(module: str, cfg: str, model: dict[str, Any], tmp_path: Path) -> None:
    expected = RESULTS.get(model["result"])
    if expected is None:
        pytest.skip(f"TLC's result is {model['result']} (not checked here)")
    cmd = [sys.executable, "-m", "tlaconf.cli.main", "explore", str(Path(ROOT) / module),
           "-c", str(Path(ROOT) / cfg), "--json",
           "--trace", str(tmp_path / "violation.jsonl")]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=BUDGET,
                              cwd=tmp_path,
                              env={**os.environ, "TLACONF_LIBRARY": ":".join(LIBRARY)})
    except subprocess.TimeoutExpired:
        pytest.skip(f"not finished within the {BUDGET:g} s budget")
    if proc.returncode == 2:
        pytest.skip(f"unsupported: {reason(proc.stderr)}")
    assert proc.returncode in (0, 1), proc.stderr
    out = json.loads(proc.stdout)
    assert out["result"] == expected
    if expected == "violation" and model["result"] == "liveness failure":
        assert out["violation"]["loop"] is not None  # a lasso, as TLC's counterexample
    if "distinctStates" in model:
        tlc = {**model, **WORKERS1.get(cfg, {})}
        assert (out["distinct_states"], out["depth"]) == (tlc["distinctStates"],
                                                          tlc["stateDepth"])
