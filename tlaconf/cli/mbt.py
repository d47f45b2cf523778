"""``tlaconf mbt``: spec-driven testing of an implementation through drivers.

``tlaconf mbt [MODULE...] [--driver MODULE:ATTR]... [--steps N] [--examples N] [--seed S]
[--json]``.  The drivers are the ``--driver`` ones, else the project's ``[tool.tlaconf]
drivers``; MODULE names (or ``.tla`` paths) keep the drivers of those modules.  Each
driver gets ``--examples`` runs of up to ``--steps`` requests drawn from its module's
``Params_<Action>``; every step is checked as replay checks it.  A failure is shrunk by
Hypothesis and written under ``--out`` as a trace that ``tlaconf replay`` reproduces.
Exit 0 no failure, 1 a failure, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tlaconf.cli.inputs import existing_dir, existing_file, output_dir, positive_int
from tlaconf.errors import UserError
from tlaconf.hypothesis import Driver, Options, Outcome, load_driver, run
from tlaconf.mbt.driver import DriverCrashed
from tlaconf.mbt.machine import Stats
from tlaconf.mbt.run import DATABASE
from tlaconf.report.text import make_console, render_failure
from tlaconf.spec import resolve_spec_dir
from tlaconf.spec.project import find_project
from tlaconf.trace.models import IDENTIFIER


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Spec-driven testing: each driver gets requests drawn from its "
        "conformance module (Params_<Action>), allowed and forbidden ones; every step is "
        "checked as replay checks it; a failure is shrunk and written as a trace. Exit 0 "
        "no failure, 1 a failure, 2 bad input."
    )
    p.add_argument("modules", nargs="*", metavar="MODULE", type=_module,
                   help="only the drivers of these modules (names or .tla paths)")
    p.add_argument("--driver", action="append", metavar="MODULE:ATTR",
                   help="a driver to run (repeatable; default: [tool.tlaconf] drivers)")
    p.add_argument("--steps", type=positive_int, default=50, metavar="N",
                   help="requests per run at most (default 50)")
    p.add_argument("--examples", type=positive_int, default=100, metavar="N",
                   help="runs per driver before shrinking (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="Hypothesis seed (default 0)")
    p.add_argument("--spec", metavar="DIR", type=existing_dir, help="spec directory")
    p.add_argument("--out", type=output_dir, default=Path("mbt-failures"), metavar="DIR",
                   help="where a shrunk failure's trace goes (default mbt-failures)")
    kept = p.add_mutually_exclusive_group()  # --database is ignored under --no-database
    kept.add_argument("--database", type=output_dir, default=DATABASE, metavar="DIR",
                      help="Hypothesis example database: found failures are tried first on "
                      f"the next run (default {DATABASE})")
    kept.add_argument("--no-database", action="store_true", help="keep no example database")
    p.add_argument("--no-shrink", action="store_true",
                   help="write a failure as first found (faster; for mutation runs)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_command)


def _module(text: str) -> str:
    """A module name, or the path of an existing ``.tla`` file (argparse ``type=``)."""
    if text.endswith(".tla"):
        existing_file(text)
    elif not re.fullmatch(IDENTIFIER, text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither a module name nor the path of a .tla file")
    return text


def _drivers(args: argparse.Namespace) -> list[tuple[str, Driver]]:
    names: list[str] = list(args.driver or ())
    if not names:
        project = find_project()
        if project is None or not project.drivers:
            raise UserError("tlaconf mbt has no driver: pass --driver MODULE:ATTR or set "
                            "drivers in the [tool.tlaconf] table of pyproject.toml")
        if str(project.root) not in sys.path:
            sys.path.insert(0, str(project.root))
        names = list(project.drivers)
    drivers = [(n, load_driver(n)) for n in names]
    if not args.modules:
        return drivers
    wanted = [Path(m).stem if m.endswith(".tla") else m for m in args.modules]
    for m in wanted:
        if not any(d.module == m for _, d in drivers):
            known = ", ".join(sorted({d.module for _, d in drivers}))
            raise UserError(f"no driver for module {m} (the drivers serve: {known})")
    return [(n, d) for n, d in drivers if d.module in wanted]


def _spec_dir(args: argparse.Namespace) -> Path:
    if args.spec is None:
        paths = [Path(m) for m in args.modules if m.endswith(".tla")]
        if paths:
            return paths[0].parent
    return resolve_spec_dir(args.spec)


def _json(outcome: Outcome) -> dict[str, Any]:
    found = outcome.found
    failure: dict[str, Any] | None = None
    if found is not None:
        replayed = found.result.to_json() if found.result is not None else None
        failure = {"trace": str(found.trace), "unshrunk": str(found.unshrunk),
                   "steps_before": found.steps_before, "steps_after": found.steps_after,
                   "crash": found.crash, "replay": replayed}
    return {"module": outcome.module, "driver": outcome.driver,
            "result": "failed" if found is not None else "passed",
            "examples": outcome.examples, "steps": outcome.steps, "allowed": outcome.allowed,
            "forbidden": outcome.forbidden, "seconds": round(outcome.seconds, 3),
            "steps_per_second": round(outcome.steps_per_second, 1), "failure": failure}


def _line(o: Outcome) -> str:
    head = (f"mbt {o.module} ({o.driver}): {o.examples} runs, {o.steps} steps checked "
            f"({o.allowed} allowed, {o.forbidden} forbidden requests) in {o.seconds:.1f} s, "
            f"{o.steps_per_second:.0f} steps/s")
    if o.found is None:
        return head + ": no failure"
    f = o.found
    return (f"{head}: FAILURE, shrunk from {f.steps_before} to {f.steps_after} steps\n"
            f"  trace: {f.trace} (tlaconf replay {f.trace} reproduces it)\n"
            f"  as first found: {f.unshrunk}")


def run_command(args: argparse.Namespace) -> int:
    spec_dir = _spec_dir(args)
    try:
        drivers = _drivers(args)
    except DriverCrashed as err:  # the implementation's own code raised: a finding
        if args.json:
            print(json.dumps({"runs": [], "crash": str(err), "traceback": err.traceback,
                              "summary": {"drivers": 0, "failed": 1, "exit_code": 1}}))
        else:
            print(f"mbt: {err}\n{err.traceback}", file=sys.stderr)
        return 1
    database = None if args.no_database else args.database
    options = Options(args.steps, args.examples, args.seed, args.out, database,
                      not args.no_shrink)
    console = make_console(sys.stderr if args.json else None)
    outcomes: list[Outcome] = []
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[steps]} steps"), TimeElapsedColumn(),
                        console=make_console(sys.stderr), transient=True,
                        disable=args.json or not sys.stderr.isatty())
    with progress:
        for name, driver in drivers:
            task = progress.add_task(f"mbt {driver.module}", total=args.examples, steps=0)

            def tick(stats: Stats, task: Any = task) -> None:
                progress.update(task, completed=min(stats.examples, args.examples),
                                steps=stats.steps)

            outcome = run(driver, spec_dir, options, tick, name)
            progress.remove_task(task)
            outcomes.append(outcome)
            if not args.json:
                console.print(_line(outcome), highlight=False)
                if outcome.found is not None and outcome.found.result is not None:
                    console.print(render_failure(outcome.found.result))
                elif outcome.found is not None:
                    console.print(f"  the driver raised:\n{outcome.found.crash}", markup=False)
    failed = sum(o.found is not None for o in outcomes)
    if args.json:
        steps = sum(o.steps for o in outcomes)
        seconds = sum(o.seconds for o in outcomes)
        doc = {"runs": [_json(o) for o in outcomes],
               "summary": {"drivers": len(outcomes), "failed": failed, "steps": steps,
                           "seconds": round(seconds, 3),
                           "steps_per_second": round(steps / seconds, 1) if seconds else 0.0,
                           "exit_code": 1 if failed else 0}}
        print(json.dumps(doc, indent=2))
    return 1 if failed else 0

