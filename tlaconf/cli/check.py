"""``tlaconf check``: run the harness scenarios (fixed seeds), write their traces, replay them.

Traces go to ``--out DIR`` (default ``.tlaconf-out/check``), one folder per
seed (``seed-<N>/``), emptied before each run.  ``--scenarios MODULE[:FUNCTION]``
checks another implementation: any ``FUNCTION(out_dir: Path, seed: int) -> list[Path]``
that writes traces (default: ``scenarios`` in the project's ``[tool.tlaconf]``).  Every
``*.trace.jsonl`` written under a seed's folder is replayed, also those the function did
not return.

An exception raised by the scenarios is a finding about the implementation, not
an error of tlaconf: that seed gets the verdict ``crash``, its traceback is
saved as ``seed-<N>/crash.txt`` and the run exits 1.

After the replay, determinism is checked: the first seed's scenarios run again in a
second process (another ``PYTHONHASHSEED``) and must write byte-identical traces, and
no seeded step (params with ``seed`` and ``result``) may give the same result for
different seeds from the same state.  Either finding is a nonconformance (exit 1).
Then the coverage summary of the traces is printed (``--no-coverage`` skips it).
"""

from __future__ import annotations

import argparse
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

from tlaconf.cli.replay import (
    add_output_options,
    add_run_options,
    check_outputs,
    check_revision,
    emit,
    replay_paths,
)
from tlaconf.errors import UserError, describe
from tlaconf.replay import Failure, TraceResult
from tlaconf.replay.coverage import cover_traces
from tlaconf.replay.determinism import compare_runs, seed_independence
from tlaconf.replay.runner import TRACE_SUFFIX, setup
from tlaconf.report.coverage import summary_line
from tlaconf.spec import resolve_spec_dir
from tlaconf.spec.project import find_project

DEFAULT_OUT = Path(".tlaconf-out") / "check"
DEFAULT_SEEDS = (1, 2, 3)
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_SCENARIOS = re.compile(rf"({_DOTTED})(?::([A-Za-z_][A-Za-z0-9_]*))?\Z")


def register(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser(
        "check",
        help="run the harness scenarios, write their traces, replay them (the main job)",
        description="Run every harness scenario with fixed seeds, write the traces under "
        f"--out (default {DEFAULT_OUT}/seed-<N>/), replay them and print the report. "
        "Exit 0 when everything conforms.",
    )
    p.add_argument(
        "--out", metavar="DIR", type=Path, default=DEFAULT_OUT, help="where traces are written"
    )
    p.add_argument(
        "--seed",
        metavar="N",
        type=int,
        action="append",
        help=f"scenario seed (repeatable; default {' '.join(map(str, DEFAULT_SEEDS))})",
    )
    p.add_argument(
        "--seeds",
        metavar="A..B",
        type=_seed_range,
        help="scenario seeds A to B inclusive (e.g. 1..200), added to any --seed",
    )
    p.add_argument(
        "--no-coverage", action="store_true", help="do not compute the coverage summary"
    )
    p.add_argument(
        "--scenarios",
        metavar="MODULE[:FUNCTION]",
        help="the trace generator to run (default: the scenarios of the project's "
        "[tool.tlaconf] in pyproject.toml)",
    )
    add_run_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


MAX_SEEDS = 100_000
"""The most seeds one ``--seeds A..B`` may name (each is a run of every scenario)."""


def _seed_range(text: str) -> tuple[int, ...]:
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if m is None or int(m[1]) > int(m[2]):
        raise argparse.ArgumentTypeError(f"expected A..B with A <= B (e.g. 1..200), not {text!r}")
    if int(m[2]) - int(m[1]) >= MAX_SEEDS:
        raise argparse.ArgumentTypeError(
            f"{text!r} has {int(m[2]) - int(m[1]) + 1:,} seeds; one run takes at most "
            f"{MAX_SEEDS:,}")
    return tuple(range(int(m[1]), int(m[2]) + 1))


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
    "import sys; from pathlib import Path; from tlaconf.cli.check import scenario_function; "
    "scenario_function(sys.argv[1])(Path(sys.argv[2]), int(sys.argv[3]))"
)


def second_run(scenarios: str, seed: int, first: Path) -> str | None:
    """Run the generator for ``seed`` again in another process (another hash seed) and
    compare its traces with ``first``'s: None when byte-identical, else what differs."""
    with tempfile.TemporaryDirectory(prefix="tlaconf-determinism-") as tmp:
        env = {**os.environ, "PYTHONHASHSEED": str(1000 + seed),  # and this process's path
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        proc = subprocess.run(
            [sys.executable, "-c", _SECOND_RUN, scenarios, tmp, str(seed)],
            env=env, capture_output=True, text=True, check=False,
        )
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
            return f"a second run of the scenarios for seed {seed} failed: {last}"
        return compare_runs(first, Path(tmp))


def determinism(args: argparse.Namespace, scenarios: str, seeds: tuple[int, ...],
                paths: list[Path]) -> bool:
    """Print the determinism findings (none: one line saying so); whether there were any."""
    findings = [f for f in [second_run(scenarios, seeds[0], args.out / f"seed-{seeds[0]}")]
                if f is not None]
    findings += seed_independence(paths)
    out = sys.stderr if args.json else sys.stdout
    for finding in findings:
        print(f"determinism: {finding}", file=out)
    if not findings:
        print(f"determinism: a second process wrote byte-identical traces for seed {seeds[0]}; "
              "no seeded step ignored its seed", file=out)
    return bool(findings)


def run(args: argparse.Namespace) -> int:
    seeds = tuple(dict.fromkeys((*(args.seed or ()), *(args.seeds or ())))) or DEFAULT_SEEDS
    spec_dir = resolve_spec_dir(args.spec)
    check_revision(spec_dir, args.revision)  # bad input fails first
    check_outputs(args, ("--out", args.out))
    setup(args.backend, args.cross_check, timeout=args.checker_timeout)
    scenarios = project_scenarios(args.scenarios)
    paths, crashes = generate(args.out, seeds, scenarios)
    results = replay_paths(paths, args, quiet=args.json) if paths else []
    code = emit([*crashes, *results], args)
    if crashes:
        return code
    found = determinism(args, scenarios, seeds, paths)
    if not args.no_coverage and not args.json:
        print(summary_line(cover_traces(paths, spec_dir, args.revision)))
    return max(code, 1) if found else code
