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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tlaconf.cli.inputs import (
    existing_dir,
    existing_file,
    output_dir,
    positive_int,
    positive_seconds,
)
from tlaconf.errors import UserError
from tlaconf.hypothesis import Driver, Options, Outcome, load_driver, run
from tlaconf.mbt.apalache_solver import DEFAULT_TIMEOUT as SOLVER_TIMEOUT
from tlaconf.mbt.driver import DriverCrashed
from tlaconf.mbt.exhaustive import LIMIT as EXHAUSTIVE_LIMIT
from tlaconf.mbt.guard_report import by_perturbation, figures, lines, warnings
from tlaconf.mbt.machine import Stats
from tlaconf.mbt.run import DATABASE, SOLVERS
from tlaconf.replay.coverage import Coverage, cover_traces
from tlaconf.report.coverage import summary_line
from tlaconf.report.progress import ExamplesProgress, on_terminal
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
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--random", action="store_const", const="random", dest="mode",
                      help="random requests only (no directed survey first)")
    mode.add_argument("--exhaustive", action="store_const", const="exhaustive", dest="mode",
                      help="every request from every state within --depth requests "
                      f"(refused past {EXHAUSTIVE_LIMIT} requests)")
    p.set_defaults(mode="directed")
    p.add_argument("--depth", type=natural, default=3, metavar="K",
                   help="requests deep the directed survey (and --exhaustive) go (default 3)")
    p.add_argument("--solver", choices=SOLVERS, default="auto",
                   help="what solves for directed requests where a params domain is too large "
                   "to enumerate: apalache (Apalache's explorer server), enumeration (a bounded "
                   "look only), auto (apalache when APALACHE_MC or APALACHE_SERVER is set; "
                   "the default)")
    p.add_argument("--solver-timeout", type=positive_seconds, default=SOLVER_TIMEOUT,
                   metavar="SECONDS", help="Apalache's time per state and action "
                   f"(default {SOLVER_TIMEOUT:g})")
    p.add_argument("--no-perturb", action="store_true",
                   help="do not check near-miss observations (an accepted step with a reported "
                   "field changed so that one guard is FALSE must be rejected naming it)")
    p.add_argument("--coverage-goal", type=percentage, metavar="PCT",
                   help="exit 1 when fewer than PCT%% of the guards are covered both ways")
    p.add_argument("--coverage-with", type=existing_dir, metavar="DIR",
                   help="add the coverage of the traces under DIR (e.g. tlaconf check's "
                   ".tlaconf-out/check) to one figure")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_command)


def natural(text: str) -> int:
    """A natural number (argparse ``type=``)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a natural number, not {text!r}")
    return int(text)


def percentage(text: str) -> float:
    """A percentage from 0 to 100 (argparse ``type=``)."""
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage, not {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a percentage is from 0 to 100, not {text}")
    return value


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
        failure = {"trace": str(found.trace), "unshrunk": str(found.unshrunk), "by": found.by,
                   "steps_before": found.steps_before, "steps_after": found.steps_after,
                   "crash": found.crash, "replay": replayed}
    return {"module": outcome.module, "driver": outcome.driver,
            "result": "failed" if found is not None else "passed",
            "examples": outcome.examples, "steps": outcome.steps, "allowed": outcome.allowed,
            "forbidden": outcome.forbidden, "seconds": round(outcome.seconds, 3),
            "steps_per_second": round(outcome.steps_per_second, 1), "failure": failure,
            "mode": outcome.mode, "guards": [a.to_json() for a in outcome.guards],
            "survey": outcome.survey.to_json() if outcome.survey is not None else None,
            "exhaustive": _exhaustive_json(outcome.exhaustive)}


def _exhaustive_json(figures: tuple[int, int, int] | None) -> dict[str, int] | None:
    if figures is None:
        return None
    states, requests, missed = figures
    return {"states": states, "requests": requests, "not_sent": missed}


def _line(o: Outcome) -> str:
    head = (f"mbt {o.module} ({o.driver}): {o.examples} runs, {o.steps} steps checked "
            f"({o.allowed} allowed, {o.forbidden} forbidden requests) in {o.seconds:.1f} s, "
            f"{o.steps_per_second:.0f} steps/s")
    failed_checks = len(o.failed_checks)
    if o.found is None and failed_checks:
        head += (f": no failure of the implementation; the step check failed on "
                 f"{failed_checks} near-miss observation{'s' if failed_checks > 1 else ''}")
    elif o.found is None:
        head += ": no failure"
    elif o.found.by != "hypothesis":
        head += (f": FAILURE, found by the {o.found.by} run ({o.found.steps_after} steps: the "
                 "shortest path the model knows to the state, then the request)")
    else:
        head += (f": FAILURE, shrunk from {o.found.steps_before} to {o.found.steps_after} "
                 "steps")
    covered, total = figures(o.guards)
    more = [f"guards {covered}/{total} covered both ways"]
    if o.survey is not None:
        p = o.survey
        edges = p.edges()
        more.append(f"directed: {p.states} reachable states surveyed to depth {p.depth}"
                    + (f", boundary values of {len({(a, g) for a, g, _ in edges})} guards "
                       f"({sum(len(e.values) for *_, e in edges)} requests at their edges)"
                       if edges else "")
                    + (f", {p.diverged} targets not sent (the implementation went elsewhere)"
                       if p.diverged else ""))
        if p.solver == "apalache":
            solved = p.solved()
            largest = max((size for *_, size, _ in solved), default=0)
            more.append(f"apalache: {len(solved)} requests solved"
                        + (f" in domains of up to {largest} requests" if solved else "")
                        + f", {p.undecided()} guards undecided, {p.solver_seconds:.1f} s")
    if o.exhaustive is not None:
        states, requests, missed = o.exhaustive
        more.append(f"exhaustive: {requests} requests from {states} states"
                    + (f", {missed} not sent (the implementation went elsewhere)"
                       if missed else ""))
    head += "\n  " + "; ".join(more)
    if o.found is not None:
        f = o.found
        head += (f"\n  trace: {f.trace} (tlaconf replay {f.trace} reproduces it)"
                 f"\n  as first found: {f.unshrunk}")
    return head


def _perturbed_only(joined: Coverage, outcomes: list[Outcome]) -> int:
    """Guards ``joined`` has TRUE on an accepted step and never FALSE on a rejected one
    whose near-miss observation the step check refused naming them."""
    held = {(o.module, a, g) for o in outcomes for (a, g), p in o.perturbed.items() if p.holds}
    return sum(1 for (module, action), ac in joined.actions.items()
               for g, pc in ac.points.items()
               if pc.guard and pc.accepted_true and not pc.rejected_false
               and (module, action, g) in held)


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
                      not args.no_shrink, args.mode, args.depth, args.solver,
                      args.solver_timeout, not args.no_perturb)
    scenarios = (cover_traces(sorted(args.coverage_with.rglob("*.trace.jsonl")), spec_dir)
                 if args.coverage_with is not None else None)
    console = make_console(sys.stderr if args.json else None)
    outcomes: list[Outcome] = []
    with ExamplesProgress(on_terminal(args.json), args.examples) as progress:
        for name, driver in drivers:
            with progress.driver(driver.module) as update:

                def tick(stats: Stats, update: Callable[[int, int], None] = update) -> None:
                    update(stats.examples, stats.steps)

                outcome = run(driver, spec_dir, options, tick, name)
            outcomes.append(outcome)
            if not args.json:
                console.print(_line(outcome), highlight=False)
                for text in lines(outcome.guards):
                    console.print(text, highlight=False, markup=False)
                for text in warnings(outcome.guards):
                    console.print(text, style="yellow", highlight=False, markup=False)
                for text in outcome.failed_checks:
                    console.print(text, style="red", highlight=False, markup=False)
                if outcome.found is not None and outcome.found.result is not None:
                    console.print(render_failure(outcome.found.result))
                elif outcome.found is not None:
                    console.print(f"  the driver raised:\n{outcome.found.crash}", markup=False)
    failed = sum(o.found is not None or bool(o.failed_checks) for o in outcomes)
    report = [a for o in outcomes for a in o.guards]
    covered, total = figures(report)
    pct = 100.0 * covered / total if total else 100.0
    coverage_doc: dict[str, Any] = {"guards": total, "covered": covered, "percent": round(pct, 1),
                                    "by_perturbation": by_perturbation(report)}
    if scenarios is not None:
        joined = Coverage()
        joined.join(scenarios)
        for o in outcomes:
            joined.join(o.coverage)
        f = joined.figures()
        extra = _perturbed_only(joined, outcomes)
        pct = 100.0 * f["guards_covered"] / f["guards"] if f["guards"] else 100.0
        coverage_doc["with_traces"] = {"traces": len(scenarios.traces), "guards": f["guards"],
                                       "covered": f["guards_covered"], "percent": round(pct, 1),
                                       "with_perturbation": f["guards_covered"] + extra}
    below = args.coverage_goal is not None and pct < args.coverage_goal
    code = 1 if failed or below else 0
    if not args.json:
        console.print(f"mbt: guards covered both ways: {covered}/{total} "
                      f"({100.0 * covered / total if total else 100.0:.0f}%)", highlight=False)
        if scenarios is not None:
            console.print(f"scenarios plus mbt: {summary_line(joined)}", highlight=False)
            console.print(f"scenarios plus mbt, with the harness's perturbation: "
                          f"{f['guards_covered'] + extra}/{f['guards']} guards both ways "
                          f"({extra} of them FALSE only by a near-miss observation)",
                          highlight=False)
        if below:
            console.print(f"mbt: guard coverage {pct:.1f}% is under --coverage-goal "
                          f"{args.coverage_goal}%", highlight=False)
    if args.json:
        steps = sum(o.steps for o in outcomes)
        seconds = sum(o.seconds for o in outcomes)
        doc = {"runs": [_json(o) for o in outcomes], "coverage": coverage_doc,
               "summary": {"drivers": len(outcomes), "failed": failed, "steps": steps,
                           "seconds": round(seconds, 3),
                           "steps_per_second": round(steps / seconds, 1) if seconds else 0.0,
                           "exit_code": code}}
        print(json.dumps(doc, indent=2))
    return code
