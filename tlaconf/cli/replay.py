"""``tlaconf replay TRACE... [--spec DIR] [--backend B] [--cross-check C] [--json] [--junit FILE]
[-j N | --cluster ADDRESS]``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tlaconf.cli.inputs import (
    existing_dir,
    existing_path,
    once_each,
    output_dir,
    output_file,
    positive_seconds,
)
from tlaconf.errors import ExitCode, UserError
from tlaconf.replay import BACKENDS, CHECKERS, TraceResult, exit_code
from tlaconf.replay.cluster_address import check_address
from tlaconf.replay.engine import PoolObserver
from tlaconf.replay.runner import check_parallel, collect_traces
from tlaconf.report import (
    ProgressDisplay,
    json_report,
    make_console,
    render_report,
    write_html,
    write_junit,
)
from tlaconf.spec.project import find_project


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``replay``, ``check`` and ``gate``."""
    p.add_argument(
        "--spec",
        metavar="DIR",
        type=existing_dir,
        help="spec directory (default: ./spec, else the tlaconf checkout's spec/)",
    )
    p.add_argument(
        "--backend",
        default="embedded",
        metavar="NAME",
        help=f"what decides: {', '.join([*BACKENDS, *CHECKERS])} (default: embedded), "
        "or module:attribute of a backend class; with tlc or apalache the checker decides "
        "and the embedded evaluator explains the failing step",
    )
    p.add_argument(
        "--cross-check",
        choices=tuple(CHECKERS),
        metavar="CHECKER",
        help=f"also decide every trace with {' or '.join(CHECKERS)} and report any difference "
        "in verdict or failing step (exit 3)",
    )
    p.add_argument(
        "--checker-timeout",
        type=positive_seconds,
        metavar="S",
        help="seconds an external checker gets per trace (Apalache: default 300, loading and "
        "every step together; TLC: per TLC run); a trace it does not decide in time is "
        "undecided (exit 3) and the next trace still runs",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="replay on N processes"
    )
    p.add_argument(
        "--cluster",
        type=_cluster_address,
        metavar="ADDRESS",
        help="replay on the workers of the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT, as `dask scheduler` prints it; needs tlaconf[dask] here and on "
        "the workers); instead of -j",
    )
    p.add_argument(
        "--revision",
        metavar="R",
        help="check against revision R of the profile instead of the revision each trace's "
        "header names",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on any warning (such as a module with no invariants)",
    )


def _cluster_address(text: str) -> str:
    try:
        return check_address(text)
    except UserError as err:
        raise argparse.ArgumentTypeError(err.message) from None


def add_output_options(p: argparse.ArgumentParser) -> None:
    """``--json`` and ``--junit FILE``."""
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--junit", metavar="FILE", type=output_file, help="also write JUnit XML to FILE")
    p.add_argument(
        "--html", metavar="DIR", type=output_dir,
        help="also write a self-contained HTML report to DIR/index.html",
    )


def check_outputs(args: argparse.Namespace, *folders: tuple[str, Path]) -> None:
    """Before anything runs: no two outputs (``--junit FILE``, ``--html DIR`` and the
    commands' own ``folders``, (option, path)) are the same path (each was checked by
    its kind when the command line was read, see :mod:`tlaconf.cli.inputs`); ``-j N`` is
    positive, and not given with ``--cluster``."""
    check_parallel(args.jobs, args.cluster)
    outputs: list[tuple[str, str | Path]] = list(folders)
    if args.junit is not None:
        outputs.append(("--junit", args.junit))
    if args.html is not None:
        outputs.append(("--html", args.html))
    seen: dict[Path, str] = {}
    for option, path in outputs:
        where = Path(path).resolve()
        if where in seen:
            raise UserError(f"{option} {path}: the same path as {seen[where]}")
        seen[where] = f"{option} {path}"


def replay_paths(paths: Sequence[Path], args: argparse.Namespace, quiet: bool,
                 observers: Sequence[PoolObserver] = ()) -> list[TraceResult]:
    """Replay ``paths`` with the run options of ``args`` through :func:`tlaconf.api.replay`
    (which tells partial traces from full ones), with a progress display unless quiet."""
    from tlaconf.api import replay
    from tlaconf.trace.partial import is_partial

    checkers = [c for c in (args.backend, args.cross_check)  # TLC decides partial traces
                if c not in (None, "embedded", "tlc")]
    partial = [p for p in paths if is_partial(p)] if checkers else []
    if partial:  # never let a reader think an external checker decided these
        sys.stderr.write(
            f"tlaconf: note: {len(partial)} partial trace(s) decided by the candidate-set "
            f"search of the embedded evaluator, not by {' or '.join(checkers)} (no checker "
            f"replays a partial log): {', '.join(sorted(str(p) for p in partial))}\n")
    options = dict(spec=args.spec, backend=args.backend, cross_check=args.cross_check,
                   revision=args.revision, jobs=args.jobs, cluster=args.cluster,
                   checker_timeout=args.checker_timeout, observers=observers,
                   debug=args.debug)
    if quiet or not paths:
        return replay(paths, **options)
    with ProgressDisplay(make_console(sys.stderr), len(paths)) as progress:
        return replay(paths, on_start=progress.on_start, on_steps=progress.on_steps,
                      on_result=progress.on_result, **options)


def strict(args: argparse.Namespace) -> bool:
    """``--strict``, else the project's ``[tool.tlaconf] strict``."""
    if args.strict:
        return True
    project = find_project()
    return project is not None and project.strict


def emit(results: list[TraceResult], args: argparse.Namespace) -> ExitCode:
    """Print the report (text or ``--json``), write ``--junit`` and ``--html``; return the
    exit code."""
    if args.html:
        write_html(results, args.html, f"tlaconf {args.command}")
    if args.junit:
        write_junit(args.junit, results, args.revision)
    if args.json:
        json.dump(json_report(results, args.revision, strict(args)), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render_report(make_console(), results, args.revision, strict(args))
    return exit_code(results, strict(args))


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Replay each trace step by step against its conformance module. "
        "Exit 0 when every trace conforms, 1 on a violation or a vacuous trace, "
        "2 when a trace or the spec is bad input, 3 when an external checker failed, "
        "could not decide or disagreed with the embedded evaluator, 4 on an internal "
        "error (a bug in tlaconf), 130 when interrupted."
    )
    p.add_argument("traces", nargs="+", metavar="TRACE", type=existing_path,
                   help="trace files or directories")
    add_run_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> ExitCode:
    check_outputs(args)
    paths = once_each(collect_traces(args.traces))
    results = replay_paths(paths, args, quiet=args.json)
    return emit(results, args)
