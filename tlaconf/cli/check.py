"""``tlaconf check``: run the harness scenarios (fixed seeds), write their traces, replay them.

Traces go to ``--out DIR`` (default ``.tlaconf-out/check``), one folder per
seed (``seed-<N>/``), emptied before each run.  ``--scenarios MODULE[:FUNCTION]``
checks another implementation: any ``FUNCTION(out_dir: Path, seed: int) -> list[Path]``
that writes traces (default ``harness.scenarios:generate_all``).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
from pathlib import Path
from typing import Any

from tlaconf.cli.replay import add_output_options, add_run_options, emit, replay_paths
from tlaconf.errors import UserError
from tlaconf.replay import resolve_spec_dir
from tlaconf.replay.runner import setup

DEFAULT_OUT = Path(".tlaconf-out") / "check"
DEFAULT_SEEDS = (1, 2, 3)
DEFAULT_SCENARIOS = "harness.scenarios:generate_all"


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


def generate(out: Path, seeds: tuple[int, ...], scenarios: str = DEFAULT_SCENARIOS) -> list[Path]:
    """Write every scenario trace for every seed under ``out/seed-<N>/``."""
    module_name, _, attr = scenarios.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        raise UserError(f"the scenarios {scenarios} are not available: {err}") from None
    generate_all = getattr(module, attr or "generate_all", None)
    if not callable(generate_all):
        raise UserError(f"{module_name} has no function {attr or 'generate_all'}")
    paths: list[Path] = []
    for seed in seeds:
        folder = out / f"seed-{seed}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        paths.extend(Path(p) for p in generate_all(folder, seed))
    if not paths:
        raise UserError("the harness scenarios wrote no traces")
    return paths


def run(args: argparse.Namespace) -> int:
    seeds = tuple(args.seed) if args.seed else DEFAULT_SEEDS
    resolve_spec_dir(args.spec)  # bad input fails before any scenario runs
    setup(args.backend, args.cross_check)
    paths = generate(args.out, seeds, args.scenarios)
    results = replay_paths(paths, args, quiet=args.json)
    return emit(results, args)
