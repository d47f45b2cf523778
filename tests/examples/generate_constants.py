"""Regenerate ``tlc_constants.json``: real TLC's answers on the constant parts of tlaplus/Examples.

* Every closed definition (:func:`constants.closed_definitions`) of every module tlaconf
  loads: a probe module instantiates the module (``I == INSTANCE M WITH`` every CONSTANT
  ``<- "tlaconf_<name>"``, every VARIABLE ``<- 0``; TLC checks no ASSUME of an instantiated
  module) and prints ``ToString(I!D)`` in one ASSUME per definition.  TLC stops at the first
  ASSUME it cannot evaluate: that definition's answer is the error, and TLC runs again on
  the definitions after it.
* Every manifest model whose module has an ASSUME: TLC runs on the model's ``.cfg`` until it
  has checked the ASSUMEs ("Computing initial states"), and the first one that is FALSE or
  cannot be evaluated is recorded.

    TLACONF_EXAMPLES=/path/to/Examples TLC_JAR=/path/to/tla2tools.jar \\
        python -m tests.examples.generate_constants
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.tla.resolve import load

from .constants import Answer, closed_definitions, declared, digest, has_assumptions

HERE = Path(__file__).parent
DATA = HERE / "tlc_constants.json"
TIMEOUT = 120
_PRINTED = re.compile(r'^<<\s*"tlaconf_probe",\s*(\d+),\s*"((?:[^"\\]|\\.)*)"\s*>>$', re.MULTILINE)
_FAILED = re.compile(r"^Error: Evaluating assumption line (\d+), col \d+ to line \d+, col \d+ "
                     r"of module (\w+) failed\.\n(.*)$", re.MULTILINE)
_FALSE = re.compile(r"^Error: Assumption line (\d+), col \d+ to line \d+, col \d+ of module "
                    r"(\w+) is false\.$", re.MULTILINE)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _tlc(jar: str, folder: Path, module: str, cfg: str, stop: str) -> str:
    """TLC's output on ``module`` in ``folder``, stopped once a line starts with ``stop``."""
    with tempfile.TemporaryDirectory() as states:
        cmd = ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1",
               "-config", cfg, "-metadir", states, module]
        return _until(cmd, folder, stop)


def _until(cmd: list[str], folder: Path, stop: str) -> str:
    with subprocess.Popen(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:  # fmt: skip
        assert proc.stdout is not None
        lines: list[str] = []
        timer = threading.Timer(TIMEOUT, proc.kill)  # an ASSUME that searches for long
        timer.start()
        try:
            for line in proc.stdout:
                lines.append(line)
                if line.startswith(stop):
                    break
        finally:
            timer.cancel()
            proc.kill()
    return "".join(lines)


def _probe(
    rm_name: str, subst: list[str], names: list[str], start: int
) -> tuple[str, dict[int, int]]:
    """The probe module's text and the line of each definition's ASSUME."""
    lines = ["---- MODULE TlaconfProbe ----", "EXTENDS TLC", "VARIABLE tlaconf_x"]
    with_ = " WITH " + ", ".join(subst) if subst else ""
    lines.append(f"tlaconf_I == INSTANCE {rm_name}{with_}")
    at: dict[int, int] = {}
    for i in range(start, len(names)):
        at[len(lines) + 1] = i
        lines.append(f'ASSUME PrintT(<<"tlaconf_probe", {i}, ToString(tlaconf_I!{names[i]})>>)')
    lines += ["tlaconf_Init == tlaconf_x = 0", "tlaconf_Next == UNCHANGED tlaconf_x", "===="]
    return "\n".join(lines) + "\n", at


def definitions(jar: str, path: Path) -> dict[str, Answer] | str:
    """TLC's answer on each closed definition of ``path`` (a string: the probe's refusal)."""
    rm = load(path)
    names = closed_definitions(rm)
    if not names:
        return {}
    subst = [f'{n} <- "tlaconf_{n}"' if s.kind == "constant" and s.arity == 0 else
             f"{n} <- LAMBDA {', '.join(f'a{i}' for i in range(s.arity))} : 0" if s.arity > 0
             else f"{n} <- 0" for n, s in declared(rm).items()]  # fmt: skip
    out: dict[str, Answer] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "m"
        shutil.copytree(path.parent, folder)
        (folder / "TlaconfProbe.cfg").write_text("INIT tlaconf_Init\nNEXT tlaconf_Next\n")
        start = 0
        while start < len(names):
            text, at = _probe(rm.name, subst, names, start)
            (folder / "TlaconfProbe.tla").write_text(text)
            try:
                output = _run_with_timeout(jar, folder)
            except subprocess.TimeoutExpired as exc:
                raw = exc.stdout or b""
                output = raw.decode() if isinstance(raw, bytes) else raw
            for m in _PRINTED.finditer(output):
                out[names[int(m.group(1))]] = ("value", _unescape(m.group(2)))
            failed = _FAILED.search(output)
            done = [i for i in range(start, len(names)) if names[i] in out]
            if failed and int(failed.group(1)) in at:
                i = at[int(failed.group(1))]
                out[names[i]] = ("error", failed.group(3).strip())
                start = i + 1
            elif len(done) == len(names) - start:
                break
            elif "Parsing or semantic analysis failed" in output:
                return "TLC refuses the probe: " + output[-600:]
            else:  # no answer (a timeout): that definition is left out
                start = max(done, default=start - 1) + 2
    return out


def _run_with_timeout(jar: str, folder: Path) -> str:
    cmd = ["java", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC", "-workers", "1", "-config",
           "TlaconfProbe.cfg", "-metadir", str(folder / ".states"), "TlaconfProbe.tla"]
    run = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
    return run.stdout + run.stderr


def assumptions(jar: str, tla: Path, cfg: Path) -> Answer:
    """TLC's verdict on the model's ASSUMEs."""
    output = _tlc(jar, tla.parent, tla.name, str(cfg), stop="Computing initial states")
    if m := _FALSE.search(output):
        return ("false", f"{m.group(2)}:{m.group(1)}")
    if m := _FAILED.search(output):
        return ("error", f"{m.group(2)}:{m.group(1)}")
    if "Computing initial states" in output:
        return ("holds", "")
    return ("refused", output[-400:])


def main() -> int:
    root, jar = os.environ.get("TLACONF_EXAMPLES"), os.environ.get("TLC_JAR")
    if not root or not jar:
        print("set TLACONF_EXAMPLES to a tlaplus/Examples checkout and TLC_JAR to tla2tools.jar",
              file=sys.stderr)
        return 2
    base = Path(root)
    modules: dict[str, object] = {}
    for path in sorted((base / "specifications").rglob("*.tla")):
        try:
            answers = definitions(jar, path)
        except UserError:
            continue  # tlaconf refuses the module (test_sany_differential.py checks that)
        if answers:
            rel = path.relative_to(base).as_posix()
            modules[rel] = {"sha": digest(path), "definitions": answers}
            print(rel, len(answers) if isinstance(answers, dict) else answers, flush=True)
    models: dict[str, object] = {}
    for manifest in sorted(base.glob("specifications/*/manifest.json")):
        for module in json.loads(manifest.read_text())["modules"]:
            tla = base / module["path"]
            try:
                if not has_assumptions(tla):
                    continue
            except UserError:
                continue
            for model in module["models"]:
                cfg = base / model["path"]
                answer = assumptions(jar, tla, cfg)
                models[model["path"]] = {"module": module["path"], "sha": digest(tla),
                                         "cfg_sha": digest(cfg), "assumptions": answer}
                print(model["path"], answer, flush=True)
    data = {"tlc": "TLC 1.8.0 (tlaplus/tlaplus cc6b616)", "modules": modules, "models": models}
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
