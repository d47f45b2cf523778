"""``tlaconf coverage TRACE... [--spec DIR] [--json] [--html FILE] [--all] [--fail-under PCT]``.

Which conjuncts, disjuncts, CASE arms and IF conditions of each action (through the
operators it calls) the traces made TRUE and FALSE, on accepted and on rejected steps.
A guard (a conjunct that does not read the next state) is covered when some rejected
step made it FALSE and some accepted step made it TRUE: a guard no rejected step ever
made FALSE is a hole in the suite.
"""

from __future__ import annotations

import argparse
import json
import sys

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import (
    existing_dir,
    existing_path,
    once_each,
    output_file,
    refuse_partial,
)
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import check_output
from tlaconf.replay import collect_traces
from tlaconf.replay.coverage import cover_traces
from tlaconf.report import make_console
from tlaconf.report.coverage import coverage_json, render_coverage, write_coverage_html
from tlaconf.spec import resolve_spec_dir


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("traces", nargs="+", metavar="TRACE", type=existing_path,
                   help="trace files or directories")
    p.add_argument("--spec", metavar="DIR", type=existing_dir,
                   help="spec directory (default: ./spec, else the tlaconf checkout's spec/)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--html", metavar="FILE", type=output_file,
                   help="also write an HTML page of the .tla sources coloured by coverage")
    p.add_argument("--all", action="store_true",
                   help="list every uncovered point, not only the uncovered guards")
    p.add_argument("--fail-under", metavar="PCT", type=float,
                   help="exit 1 when fewer than PCT%% of the guards are covered")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> ExitCode:
    if args.fail_under is not None and not 0 <= args.fail_under <= 100:
        raise UserError(f"--fail-under must be a percentage from 0 to 100, not {args.fail_under}")
    if args.html is not None:
        check_output(args.html, "--html")
    spec_dir = resolve_spec_dir(args.spec)
    paths = once_each(collect_traces(args.traces))
    refuse_partial(paths, "coverage", "measures the conjuncts of full steps, which the "
                   "candidate-set search of a partial log does not evaluate one by one")
    cov = cover_traces(paths, spec_dir)
    if args.html is not None:
        write_coverage_html(args.html, cov)
    if args.json:
        json.dump(coverage_json(cov), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        render_coverage(make_console(), cov, holes=args.all)
    if args.fail_under is not None:
        f = cov.figures()
        pct = 100.0 * f["guards_covered"] / f["guards"] if f["guards"] else 100.0
        if pct < args.fail_under:
            print(f"tlaconf: guard coverage {pct:.1f}% is under --fail-under {args.fail_under}%",
                  file=sys.stderr)
            return ExitCode.NONCONFORMING
    return ExitCode.OK
