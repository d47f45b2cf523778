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
Then the coverage summary of the traces is printed (``--no-coverage`` skips it):
coverage rides on the one replay of each trace (as an observer of the replay loop), so
it needs modules loaded by the embedded evaluator (any ``--backend`` but a custom one);
a trace it could not cover is named, and never changes a verdict.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from tlaconf.api import check_revision
from tlaconf.cli.inputs import output_dir
from tlaconf.cli.replay import (
    add_output_options,
    add_run_options,
    check_outputs,
    emit,
    replay_paths,
)
from tlaconf.errors import ExitCode
from tlaconf.gate.scenarios import check_code, determinism_findings, generate, project_scenarios
from tlaconf.replay.coverage import CoverageObserver
from tlaconf.replay.runner import setup
from tlaconf.report.coverage import summary_line, unmeasured_lines
from tlaconf.spec import resolve_spec_dir

DEFAULT_OUT = Path(".tlaconf-out") / "check"
DEFAULT_SEEDS = (1, 2, 3)
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_SCENARIOS = re.compile(rf"({_DOTTED})(?::([A-Za-z_][A-Za-z0-9_]*))?\Z")


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Run every harness scenario with fixed seeds, write the traces under "
        f"--out (default {DEFAULT_OUT}/seed-<N>/), replay them and print the report. "
        "Exit 0 when everything conforms."
    )
    p.add_argument(
        "--out", metavar="DIR", type=output_dir, default=str(DEFAULT_OUT),
        help="where traces are written"
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


def determinism(args: argparse.Namespace, scenarios: str, seeds: tuple[int, ...],
                paths: list[Path]) -> list[str]:
    """Print the determinism findings (none: one line saying so); the findings."""
    findings = determinism_findings(scenarios, seeds[0], args.out / f"seed-{seeds[0]}", paths)
    out = sys.stderr if args.json else sys.stdout
    for finding in findings:
        print(f"determinism: {finding}", file=out)
    if not findings:
        print(f"determinism: a second process wrote byte-identical traces for seed {seeds[0]}; "
              "no seeded step ignored its seed", file=out)
    return findings


def run(args: argparse.Namespace) -> ExitCode:
    seeds = tuple(dict.fromkeys((*(args.seed or ()), *(args.seeds or ())))) or DEFAULT_SEEDS
    spec_dir = resolve_spec_dir(args.spec)
    check_revision(spec_dir, args.revision)  # bad input fails first
    check_outputs(args, ("--out", args.out))
    setup(args.backend, args.cross_check, timeout=args.checker_timeout)
    scenarios = project_scenarios(args.scenarios)
    paths, crashes = generate(args.out, seeds, scenarios)
    measured = not (args.no_coverage or args.json or args.cluster)  # a cluster replays elsewhere
    observer = CoverageObserver(strict=False) if measured else None
    observers = () if observer is None else (observer,)
    results = replay_paths(paths, args, quiet=args.json, observers=observers) if paths else []
    code = emit([*crashes, *results], args)
    if crashes:
        return check_code(code, True, [])
    findings = determinism(args, scenarios, seeds, paths)
    if observer is not None:
        if observer.coverage.traces:
            print(summary_line(observer.coverage))
        for line in unmeasured_lines(observer.coverage, paths):
            print(line)
    return check_code(code, False, findings)
