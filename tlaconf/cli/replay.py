"""``tlaconf replay TRACE... [--spec DIR] [--backend B] [--json] [--junit FILE] [-j N]``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tlaconf.replay import BACKENDS, TraceResult, exit_code, run_traces
from tlaconf.replay.runner import collect_traces
from tlaconf.report import ProgressDisplay, json_report, make_console, render_report, write_junit
from tlaconf.spec import resolve_spec_dir, search_path


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``replay``, ``check`` and ``gate``."""
    p.add_argument(
        "--spec",
        metavar="DIR",
        help="spec directory (default: ./spec, else the tlaconf checkout's spec/)",
    )
    p.add_argument(
        "--backend",
        default="embedded",
        metavar="NAME",
        help=f"how formulas are checked: {' or '.join(BACKENDS)} (default: embedded), "
        "or module:attribute of a backend class",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="replay on N processes"
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


def add_output_options(p: argparse.ArgumentParser) -> None:
    """``--json`` and ``--junit FILE``."""
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--junit", metavar="FILE", help="also write JUnit XML to FILE")


def check_revision(spec_dir: Path, revision: str | None) -> None:
    """UserError ("unknown revision") unless ``revision`` is None or a folder of ``spec_dir``."""
    if revision is not None:
        search_path(spec_dir, revision)


def replay_paths(paths: Sequence[Path], args: argparse.Namespace, quiet: bool) -> list[TraceResult]:
    """Replay ``paths`` with the run options of ``args``, with a progress display unless quiet."""
    spec_dir = resolve_spec_dir(args.spec)
    check_revision(spec_dir, args.revision)
    if quiet:
        return run_traces(paths, spec_dir, args.backend, args.jobs, revision=args.revision)
    console = make_console(sys.stderr)
    with ProgressDisplay(console, len(paths)) as progress:
        return run_traces(
            paths,
            spec_dir,
            args.backend,
            args.jobs,
            on_start=progress.on_start,
            on_steps=progress.on_steps,
            on_result=progress.on_result,
            revision=args.revision,
        )


def emit(results: list[TraceResult], args: argparse.Namespace) -> int:
    """Print the report (text or ``--json``), write ``--junit``; return the exit code."""
    if args.junit:
        write_junit(args.junit, results, args.revision)
    if args.json:
        json.dump(json_report(results, args.revision, args.strict), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render_report(make_console(), results, args.revision, args.strict)
    return exit_code(results, args.strict)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser(
        "replay",
        help="check traces against their conformance modules",
        description="Replay each trace step by step against its conformance module. "
        "Exit 0 when every trace conforms, 1 on a violation or a vacuous trace, "
        "2 when a trace or the spec is bad input.",
    )
    p.add_argument("traces", nargs="+", metavar="TRACE", help="trace files or directories")
    add_run_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    paths = collect_traces(args.traces)
    results = replay_paths(paths, args, quiet=args.json)
    return emit(results, args)
