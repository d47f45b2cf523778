"""Run mutants of ``harness/`` with one oracle: ``tlaconf check`` (the scenarios) or
``tlaconf mbt`` (spec-driven testing through the project's drivers).

For each mutant: copy ``harness/`` to a scratch folder, plant the bug, run
``tlaconf check --no-coverage`` (or ``tlaconf mbt`` on the drivers whose run reaches the
mutated line) with that copy first on ``PYTHONPATH``.  Exit 1 means killed (a
violation, a determinism finding, a nonconforming step or a crash of the
implementation); exit 0 means survived.  A mutant on a line the scenarios (the
drivers' runs) never execute survives without running (nothing it changes can be
observed); for the scenarios, a survivor listed in ``mutation/equivalent.json`` (with
the reason it cannot be observed by any trace) is counted as equivalent, not survived.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mutation.operators import Mutant

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300


@dataclass
class Outcome:
    mutant: Mutant
    status: str
    """``killed``, ``survived`` or ``equivalent``."""
    why: str
    diff: str


_TRACER = (
    "import sys, json, tempfile\n"
    "from pathlib import Path\n"
    "seen = set()\n"
    "def tracer(frame, event, arg):\n"
    "    f = frame.f_code.co_filename\n"
    "    if '/harness/' not in f:\n"
    "        return None\n"
    "    seen.add((f, frame.f_lineno))\n"
    "    return tracer\n"
)
"""The prelude of a child that records every ``harness/`` line it runs in ``seen``."""


def _in_repo(seen: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
    """The (file relative to the repo, line) of ``seen`` that lie in the repo."""
    out = set()
    for f, line in seen:
        try:
            out.add((str(Path(f).resolve().relative_to(ROOT)), line))
        except ValueError:
            continue
    return out


def executed_lines(seeds: Iterable[int]) -> set[tuple[str, int]]:
    """(file relative to the repo, line) of every ``harness/`` line the scenarios run."""
    code = (
        _TRACER +
        "sys.settrace(tracer)\n"
        "import harness.scenarios as s\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        f"    for seed in {list(seeds)!r}:\n"
        "        s.generate_all(Path(d) / str(seed), seed)\n"
        "sys.settrace(None)\n"
        "json.dump(sorted(seen), sys.stdout)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return _in_repo(json.loads(proc.stdout))


def _copy_harness(work: Path) -> None:
    shutil.copytree(ROOT / "harness", work / "harness",
                    ignore=shutil.ignore_patterns("__pycache__"))


def run_check(work: Path, seeds: tuple[int, ...]) -> tuple[int, str]:
    """``tlaconf check`` on the ``harness/`` copy in ``work`` (run there, so that it is the
    ``harness`` imported, by ``tlaconf check`` and by its second, determinism run);
    traces go to ``work/out``."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(work)}
    seed_args = [a for s in seeds for a in ("--seed", str(s))]
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tlaconf.cli.main", "check", "--no-coverage", "--scenarios",
             "harness.scenarios:generate_all", "--out",
             str(work / "out"), "--spec", str(ROOT / "spec"), *seed_args],
            cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired:
        return -1, "timeout"
    return proc.returncode, proc.stdout + proc.stderr


MBT_ARGS = ("--examples", "15", "--steps", "25", "--no-perturb")
"""The budget of a ``tlaconf mbt`` oracle; without the near-miss observations (they check
the spec's guards on what the implementation reports, not the implementation: a check
failed there is no kill)."""
MBT_MODES = {"mbt": ("--random",), "directed": (), "exhaustive": ("--exhaustive", "--depth", "2")}
"""The ``tlaconf mbt`` oracles: random requests only, directed (a survey's allowed
requests and near misses first, then random ones), every behaviour to depth 2."""


def mbt_drivers() -> tuple[str, ...]:
    """The project's drivers (``[tool.tlaconf] drivers`` of pyproject.toml)."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tuple(tomllib.load(f)["tool"]["tlaconf"]["drivers"])


def mbt_lines(seed: int, oracle: str = "mbt") -> dict[str, set[tuple[str, int]]]:
    """Per driver, (file relative to the repo, line) of every ``harness/`` line its run
    executes (the run ``run_mbt`` makes: same seed, budget, mode, no database).  A run is
    determined by its seed until a mutated line runs, so a mutant on a line a driver never
    reaches cannot change that driver's run.  A driver the mode refuses (a model too
    large for ``--exhaustive``) reaches no line."""
    examples, steps = int(MBT_ARGS[1]), int(MBT_ARGS[3])
    flags = MBT_MODES[oracle]
    mode = "random" if "--random" in flags else "exhaustive" if flags else "directed"
    depth = int(flags[-1]) if mode == "exhaustive" else 3
    code = (
        _TRACER +
        "from tlaconf.errors import UserError\n"
        "from tlaconf.hypothesis import Options, load_driver, run\n"
        "class Traced:\n"  # traces the harness only while the driver runs (much cheaper)
        "    def __init__(self, d):\n"
        "        self.d, self.module = d, d.module\n"
        "        self.constants = getattr(d, 'constants', None)\n"
        "        self.revision = getattr(d, 'revision', '1')\n"
        "    def _traced(self, f, *args):\n"
        "        sys.settrace(tracer)\n"
        "        try:\n"
        "            return f(*args)\n"
        "        finally:\n"
        "            sys.settrace(None)\n"
        "    def reset(self):\n"
        "        return self._traced(self.d.reset)\n"
        "    def apply(self, action, params):\n"
        "        return self._traced(self.d.apply, action, params)\n"
        "    def close(self):\n"
        "        c = getattr(self.d, 'close', None)\n"
        "        if c is not None:\n"
        "            self._traced(c)\n"
        "out = {}\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        f"    for name in {list(mbt_drivers())!r}:\n"
        "        seen = set()\n"
        "        sys.settrace(tracer)\n"
        "        driver = load_driver(name)\n"
        "        sys.settrace(None)\n"
        "        try:\n"
        f"            run(Traced(driver), Path('spec'), Options(steps={steps}, "
        f"examples={examples}, seed={seed}, out_dir=Path(d), database=None, shrink=False, "
        f"mode={mode!r}, depth={depth}))\n"
        "        except UserError:\n"
        "            seen = set()\n"
        "        out[name] = sorted(seen)\n"
        "json.dump(out, sys.stdout)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return {name: _in_repo(seen) for name, seen in json.loads(proc.stdout).items()}


def run_mbt(work: Path, seeds: tuple[int, ...], drivers: tuple[str, ...] | None = None,
            oracle: str = "mbt") -> tuple[int, str]:  # fmt: skip
    """``tlaconf mbt`` in the ``oracle``'s mode (``drivers``, default all; no shrinking, no
    database) on the copy in ``work``, seeded with the first seed."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(work)}
    chosen = mbt_drivers() if drivers is None else drivers
    names = [a for d in chosen for a in ("--driver", d)]
    if not names:
        return 0, "no driver"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tlaconf.cli.main", "mbt", *names, *MBT_ARGS,
             *MBT_MODES[oracle],
             "--no-shrink", "--no-database", "--seed", str(seeds[0]), "--out",
             str(work / "mbt"), "--spec", str(ROOT / "spec")],
            cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired:
        return -1, "timeout"
    return proc.returncode, proc.stdout + proc.stderr


def kill_reason(code: int, output: str) -> str:
    if code == -1:
        return f"tlaconf did not finish in {TIMEOUT} s"
    findings = [ln for ln in output.splitlines()
                if ln.startswith("determinism: ") and "byte-identical" not in ln]
    if "Traceback" in output or code not in (0, 1):
        last = [ln for ln in output.splitlines() if ln.strip()][-1:] or [""]
        return f"the implementation crashed while the scenarios ran ({last[0].strip()[:120]})"
    if findings:
        return findings[0][:200]
    for ln in output.splitlines():
        if "crash" in ln and "seed-" in ln:
            return "the implementation crashed: " + " ".join(ln.split())[:160]
    for ln in output.splitlines():
        if "violation" in ln and ".trace.jsonl" in ln:
            return "violation: " + " ".join(ln.split())[:200]
        if ln.startswith("mbt ") and "FAILURE" in ln:
            return "mbt: " + ln[:200]
    return f"tlaconf exited {code}"


def _diff(m: Mutant) -> str:
    old = m.old.splitlines() or [""]
    new = m.new.splitlines() or [""]
    return "\n".join([f"--- {m.file}:{m.line}", *(f"- {x}" for x in old),
                      *(f"+ {x}" for x in new)])


def _traces(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*.trace.jsonl")}


def run_mutant(m: Mutant, seeds: tuple[int, ...], baseline: dict[str, bytes],
               equivalent: dict[str, str], oracle: str = "check",
               drivers: tuple[str, ...] | None = None) -> Outcome:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="tlaconf-mutant-") as tmp:
        work = Path(tmp)
        _copy_harness(work)
        target = work / m.file
        target.write_text(m.apply(target.read_text(encoding="utf-8")), encoding="utf-8")
        code, output = (run_mbt(work, seeds, drivers, oracle) if oracle in MBT_MODES
                        else run_check(work, seeds))
        if code != 0:
            return Outcome(m, "killed", kill_reason(code, output), _diff(m))
        if oracle in MBT_MODES:
            return Outcome(m, "survived", "tlaconf mbt found no failure", _diff(m))
        if m.ident in equivalent:
            return Outcome(m, "equivalent", equivalent[m.ident], _diff(m))
        traces = _traces(work / "out")
        if traces == baseline:
            why = ("the scenarios never make it observable: every trace is byte-identical "
                   "to the original's")
        else:
            changed = sorted(k for k in traces.keys() | baseline.keys()
                             if traces.get(k) != baseline.get(k))
            why = (f"the traces change ({', '.join(changed[:3])}"
                   f"{', ...' if len(changed) > 3 else ''}) but still conform: the spec or the "
                   "refinement mapping does not see the difference")
        return Outcome(m, "survived", why, _diff(m))


def run_all(mutants: list[Mutant], seeds: tuple[int, ...], jobs: int,
            equivalent: dict[str, str], progress: bool = True,
            oracle: str = "check") -> list[Outcome]:
    """Every mutant's outcome (in the order given), killed by ``oracle``: ``check`` (the
    scenarios) or ``mbt`` (spec-driven testing through the harness drivers)."""
    with tempfile.TemporaryDirectory(prefix="tlaconf-mutation-base-") as tmp:
        _copy_harness(Path(tmp))
        per_driver = mbt_lines(seeds[0], oracle) if oracle in MBT_MODES else {}
        code, output = (run_mbt(Path(tmp), seeds, tuple(d for d, seen in per_driver.items()
                                                        if seen), oracle)
                        if oracle in MBT_MODES else run_check(Path(tmp), seeds))
        if code != 0:
            raise SystemExit(f"tlaconf {oracle} fails on the unmutated harness:\n{output}")
        baseline = _traces(Path(tmp) / "out")
    lines = executed_lines(seeds) if oracle == "check" else set()
    outcomes: dict[int, Outcome] = {}
    todo: list[int] = []
    reach: dict[int, tuple[str, ...] | None] = {}
    for i, m in enumerate(mutants):
        rows = range(m.line, m.end_line + 1)
        if oracle in MBT_MODES:
            reach[i] = tuple(d for d, seen in per_driver.items()
                             if any((m.file, r) in seen for r in rows))
            ran = bool(reach[i])
        else:
            ran = any((m.file, r) in lines for r in rows)
        if not ran:
            who = ("no driver's run executes" if oracle in MBT_MODES
                   else "the scenarios never execute")
            outcomes[i] = Outcome(m, "survived", f"{who} this line", _diff(m))
            if oracle == "check" and m.ident in equivalent:
                outcomes[i] = Outcome(m, "equivalent", equivalent[m.ident], _diff(m))
        else:
            todo.append(i)

    def one(i: int) -> tuple[int, Outcome]:
        return i, run_mutant(mutants[i], seeds, baseline, equivalent, oracle, reach.get(i))

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for n, (i, outcome) in enumerate(pool.map(one, todo), 1):
            outcomes[i] = outcome
            if progress:
                print(f"[{n}/{len(todo)}] {outcome.status:10} {outcome.mutant.file}:"
                      f"{outcome.mutant.line} {outcome.mutant.operator}", file=sys.stderr,
                      flush=True)
    return [outcomes[i] for i in range(len(mutants))]
