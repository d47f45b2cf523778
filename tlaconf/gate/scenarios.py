"""What ``tlaconf check`` does with the implementation under test, as a library: run its
scenarios for each seed (a crash is a verdict, not an error of tlaconf), run them again
in a second process to check determinism, and say what the run answers.  The CLI only
formats it.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tlaconf import signals
from tlaconf.errors import ExitCode, UserError, describe
from tlaconf.replay import Failure, TraceResult
from tlaconf.replay.determinism import compare_runs, seed_independence
from tlaconf.replay.runner import TRACE_SUFFIX
from tlaconf.spec.project import find_project

_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_SCENARIOS = re.compile(rf"({_DOTTED})(?::([A-Za-z_][A-Za-z0-9_]*))?\Z")


def project_scenarios(scenarios: str | None) -> str:
    """``--scenarios``, else the project's ``[tool.tlaconf] scenarios`` (the project's folder
    goes on ``sys.path``, as pytest's rootdir does); UserError when there is neither."""
    if scenarios is not None:
        return scenarios
    project = find_project()
    if project is None or project.scenarios is None:
        raise UserError(
            "tlaconf check has no scenarios to run: pass --scenarios MODULE[:FUNCTION] or set "
            "scenarios in the [tool.tlaconf] table of pyproject.toml (tlaconf init writes one)"
        )
    if str(project.root) not in sys.path:
        sys.path.insert(0, str(project.root))
    return project.scenarios


def scenario_function(scenarios: str) -> Callable[..., Any]:
    """The function named by ``--scenarios MODULE[:FUNCTION]``; UserError when unusable."""
    m = _SCENARIOS.match(scenarios)
    if m is None:
        raise UserError(
            f"--scenarios {scenarios!r}: expected MODULE[:FUNCTION] "
            "(a dotted Python module name, optionally ':' and a function name)"
        )
    module_name, attr = m.group(1), m.group(2) or "generate_all"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        raise UserError(f"the scenarios {scenarios} are not available: {err}") from None
    except Exception as err:
        raise UserError(f"cannot import the scenarios module {module_name}: {describe(err)}"
                        ) from None
    function = getattr(module, attr, None)
    if not callable(function):
        raise UserError(f"{module_name} has no function {attr}")
    return function


def _crash(folder: Path, seed: int, scenarios: str, exc: BaseException) -> TraceResult:
    """The ``crash`` verdict of one seed: the traceback goes to ``folder/crash.txt``."""
    saved = folder / "crash.txt"
    saved.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
    reason = (
        f"the implementation under test crashed: {scenarios} raised {describe(exc)} "
        f"with seed {seed}; traceback in {saved}"
    )
    return TraceResult(str(folder), None, "crash", 0, Failure(0, 0, reason, traceback=str(saved)))


def generate(
    out: Path, seeds: tuple[int, ...], scenarios: str
) -> tuple[list[Path], list[TraceResult]]:
    """Write every scenario trace for every seed under ``out/seed-<N>/``: the traces
    written and a ``crash`` result for each seed whose scenarios raised."""
    generate_all = scenario_function(scenarios)
    paths: list[Path] = []
    crashes: list[TraceResult] = []
    for seed in seeds:
        folder = out / f"seed-{seed}"
        try:
            if folder.exists() or folder.is_symlink():
                if folder.is_dir() and not folder.is_symlink():
                    shutil.rmtree(folder)
                else:
                    folder.unlink()
            folder.mkdir(parents=True)
        except OSError as err:
            raise UserError(f"cannot write traces to {folder}: {err.strerror}") from None
        try:
            written = generate_all(folder, seed)
        except Exception as exc:
            crashes.append(_crash(folder, seed, scenarios, exc))
            continue
        except BaseException:  # SIGINT/SIGTERM: no half-written seed folder is left
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if not isinstance(written, list | tuple) or not all(
            isinstance(p, str | os.PathLike) for p in written
        ):
            raise UserError(f"{scenarios} returned {type(written).__name__} for seed {seed}, "
                            "not a list of trace paths")
        returned = [Path(p) for p in written]
        for p in returned:
            if not p.is_file():
                raise UserError(f"the scenarios returned {p}, which they did not write")
        found = {p.resolve() for p in folder.rglob(f"*{TRACE_SUFFIX}")}
        extra = sorted(found - {p.resolve() for p in returned})
        paths.extend([*returned, *extra])
    if not paths and not crashes:
        raise UserError("the harness scenarios wrote no traces")
    return paths, crashes


_SECOND_RUN = (
    "import sys; from pathlib import Path; from tlaconf.gate.scenarios import scenario_function; "
    "scenario_function(sys.argv[1])(Path(sys.argv[2]), int(sys.argv[3]))"
)


def second_run(scenarios: str, seed: int, first: Path) -> str | None:
    """Run the generator for ``seed`` again in another process (another hash seed) and
    compare its traces with ``first``'s: None when byte-identical, else what differs."""
    with tempfile.TemporaryDirectory(prefix="tlaconf-determinism-") as tmp:
        env = {**os.environ, "PYTHONHASHSEED": str(1000 + seed),  # and this process's path
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        proc = signals.run([sys.executable, "-c", _SECOND_RUN, scenarios, tmp, str(seed)],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
            return f"a second run of the scenarios for seed {seed} failed: {last}"
        return compare_runs(first, Path(tmp))


def determinism_findings(scenarios: str, seed: int, first: Path,
                         paths: list[Path]) -> list[str]:
    """What breaks determinism: a second process writing other traces for ``seed`` than
    ``first`` holds, and seeded steps that ignore their seed (none: an empty list)."""
    findings = [f for f in [second_run(scenarios, seed, first)] if f is not None]
    return findings + seed_independence(paths)


def check_code(replayed: ExitCode, crashed: bool, findings: list[str]) -> ExitCode:
    """The exit code of a check run: the replay's, at least NONCONFORMING when the
    implementation crashed or is not deterministic (UNDECIDED and BAD_INPUT win)."""
    if crashed or findings:
        return max(replayed, ExitCode.NONCONFORMING)
    return replayed
