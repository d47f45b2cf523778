"""``tlaconf check``: run the harness scenarios (fixed seeds), write their traces, replay them.

Traces go to ``--out DIR`` (default ``.tlaconf-out/check``), one folder per
seed (``seed-<N>/``), emptied before each run.  ``--scenarios MODULE[:FUNCTION]``
checks another implementation: any ``FUNCTION(out_dir: Path, seed: int) -> list[Path]``
that writes traces (default ``harness.scenarios:generate_all``).

An exception raised by the scenarios is a finding about the implementation, not
an error of tlaconf: that seed gets the verdict ``crash``, its traceback is
saved as ``seed-<N>/crash.txt`` and the run exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tlaconf.cli.replay import (
    add_output_options,
    add_run_options,
    check_revision,
    emit,
    replay_paths,
)
from tlaconf.errors import UserError, describe
from tlaconf.replay import Failure, TraceResult
from tlaconf.replay.runner import setup
from tlaconf.spec import resolve_spec_dir

DEFAULT_OUT = Path(".tlaconf-out") / "check"
DEFAULT_SEEDS = (1, 2, 3)
DEFAULT_SCENARIOS = "harness.scenarios:generate_all"
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
        "--scenarios",
        metavar="MODULE[:FUNCTION]",
        default=DEFAULT_SCENARIOS,
        help=f"the trace generator to run (default {DEFAULT_SCENARIOS})",
    )
    add_run_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


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
    out: Path, seeds: tuple[int, ...], scenarios: str = DEFAULT_SCENARIOS
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
        paths.extend(Path(p) for p in written)
    if not paths and not crashes:
        raise UserError("the harness scenarios wrote no traces")
    return paths, crashes


def run(args: argparse.Namespace) -> int:
    seeds = tuple(args.seed) if args.seed else DEFAULT_SEEDS
    check_revision(resolve_spec_dir(args.spec), args.revision)  # bad input fails first
    setup(args.backend, args.cross_check)
    paths, crashes = generate(args.out, seeds, args.scenarios)
    results = replay_paths(paths, args, quiet=args.json) if paths else []
    return emit([*crashes, *results], args)
