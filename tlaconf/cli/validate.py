"""``tlaconf validate TRACESPEC.tla``: run an unchanged TLC trace-validation spec."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from tlaconf.cli.inputs import bound, existing_dir, existing_file, positive_int, positive_seconds
from tlaconf.errors import UserError
from tlaconf.report.progress import StatusLine, log_lines_text, on_terminal, trace_spec_text
from tlaconf.tla.library import library_path

if TYPE_CHECKING:
    from tlaconf.cli.crosscheck import CrossCheck
    from tlaconf.validate.outcome import Outcome


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Run TRACESPEC.tla under its .cfg (default: the .cfg beside it) as TLC's "
        "breadth-first search does: SPECIFICATION or INIT/NEXT, CONSTANT <- definitions, "
        "VIEW, CONSTRAINT, ACTION_CONSTRAINT, INVARIANT, POSTCONDITION, with TLCGet(\"level\"), "
        "TLCGet(\"stats\") and TLCGet(\"config\") as TLC sets them.  Community modules "
        "(Json, IOUtils, VectorClocks, ...) come from the library path.  Reports the log "
        "lines read and the entries checked and, on rejection, the failing entry with the "
        "nearest step of each candidate state and its blamed conjunct.  Exit 0 accepted, "
        "1 rejected (or, with --strict, a warning), 2 bad input or unsupported construct, "
        "3 undecided.  Given a partial trace (a tlaconf trace whose header says "
        "\"partial\": true) instead, replay it against its conformance module keeping "
        "every spec state consistent with the log so far."
    )
    p.add_argument("tracespec", metavar="TRACESPEC.tla|TRACE.jsonl", type=existing_file)
    p.add_argument("-c", "--config", metavar="CFG", type=existing_file,
                   help="the .cfg (default: beside the module)")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="an environment variable IOEnv gives the spec (repeatable), "
                   "e.g. --env JSON=trace.ndjson")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 on a warning too (log lines read but not checked, a log "
                   "cut by the community operators, no POSTCONDITION, a logged field the "
                   "spec never reads)")
    p.add_argument("--max-states", type=bound, default=None, metavar="N",
                   help="more than N distinct states is undecided, exit 3 (default "
                   "1000000; 0 = no bound): a .cfg without the ACTION_CONSTRAINT that ties "
                   "each step to the log searches the spec's whole state space")
    p.add_argument("--max-seconds", type=positive_seconds, default=None, metavar="S",
                   help="a search longer than S seconds is undecided, exit 3 (default: no "
                   "bound, as TLC)")
    p.add_argument("--spec", metavar="DIR", type=existing_dir,
                   help="partial traces: the spec directory (default as for replay)")
    p.add_argument("--revision", metavar="R",
                   help="partial traces: check against revision R instead of the header's")
    p.add_argument("--max-candidates", type=positive_int, default=None, metavar="N",
                   help="partial traces: more candidate states than N at a log line is "
                   "undecided, exit 3 (default 1000)")
    p.add_argument("--cross-check", choices=["tlc"], default=None,
                   help="also run TLC (TLC_JAR) on the same spec and log -- a partial "
                   "trace exported as a TLC trace spec (tlaconf export) -- and report any "
                   "difference in verdict or in the log lines consumed (exit 3)")
    p.add_argument("--tlc-options", metavar="OPTIONS", default="",
                   help="trace specs with --cross-check tlc: options TLC is run with, as "
                   "the project's own scripts give them (e.g. '-lncheck final')")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--html", metavar="DIR", type=Path,
                   help="also write DIR/index.html: the outcome and, at a dead end, each "
                   "branch's blame tree beside the highlighted source")
    p.set_defaults(run=run)


def _env(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise UserError(f"--env {pair!r}: expected NAME=VALUE")
        out[name] = value
    return out


def run(args: argparse.Namespace) -> int:
    from tlaconf.validate.tracespec import DEFAULT_MAX_STATES, Bounds, validate_trace_spec

    tla: Path = args.tracespec
    _refuse_options_of_the_other_kind(args, partial=tla.suffix != ".tla")
    if args.cross_check:  # before the search: TLC and Java are there, or say how
        from tlaconf.replay.tlc.process import find_tlc

        find_tlc()
    if tla.suffix != ".tla":
        return _partial(args, tla)
    env = _env(args.env)
    library = library_path()  # --library first
    cfg: Path | None = args.config

    states = DEFAULT_MAX_STATES if args.max_states is None else args.max_states or None
    with StatusLine(on_terminal(args.json), "validating") as status:
        outcome = validate_trace_spec(
            tla, cfg, library, env, bounds=Bounds(states, args.max_seconds),
            on_level=lambda *figures: status.show(trace_spec_text(*figures)))
    check = None
    if args.cross_check:
        from tlaconf.cli.crosscheck import trace_spec

        check = trace_spec(outcome, tla, cfg, library, env, args.tlc_options.split())
    return _report(args, outcome, check)


def _report(args: argparse.Namespace, outcome: Outcome, check: CrossCheck | None) -> int:
    """Print ``outcome`` (and the cross-check) as asked; the exit code."""
    from tlaconf.validate.outcome import render

    if args.json:
        doc = outcome.to_json()
        if check is not None:
            doc["cross_check"] = check.to_json()
        print(json.dumps(doc, indent=1))
    else:
        from tlaconf.environment import columns
        from tlaconf.report.validation import branch_text

        width = columns()
        text = render(outcome, lambda b: branch_text(b, width))
        print(text + ("" if check is None else "\n" + check.render()))
    if args.html is not None:
        from tlaconf.report.validation import write_validation_html

        write_validation_html(outcome, args.html)
    if check is not None and check.differences:
        return 3
    return outcome.exit_code(args.strict)


_SPEC_ONLY = (("config", "-c/--config"), ("env", "--env"), ("max_states", "--max-states"),
              ("max_seconds", "--max-seconds"), ("tlc_options", "--tlc-options"))
_PARTIAL_ONLY = (("spec", "--spec"), ("revision", "--revision"),
                 ("max_candidates", "--max-candidates"))


def _refuse_options_of_the_other_kind(args: argparse.Namespace, partial: bool) -> None:
    """A trace-spec option given with a partial trace, or the other way round, is refused
    (it would be ignored)."""
    given = [flag for name, flag in (_SPEC_ONLY if partial else _PARTIAL_ONLY)
             if getattr(args, name) not in (None, [], "")]
    if given:
        what = ("a partial trace (.jsonl)" if partial else "a trace-validation spec (.tla)")
        applies = "trace-validation specs" if partial else "partial traces"
        raise UserError(f"{', '.join(given)} does not apply to {what}: it applies to "
                        f"{applies}")


def _partial(args: argparse.Namespace, path: Path) -> int:
    from tlaconf.api import validate
    from tlaconf.validate.partial import DEFAULT_MAX_CANDIDATES

    with StatusLine(on_terminal(args.json), "validating") as status:
        outcome = validate(path, spec=args.spec, revision=args.revision,
                           max_candidates=args.max_candidates or DEFAULT_MAX_CANDIDATES,
                           on_line=lambda *figures: status.show(log_lines_text(*figures)))
    check = None
    if args.cross_check:
        from tlaconf.cli.crosscheck import partial_trace

        check = partial_trace(outcome, path, args.spec, args.revision)
    return _report(args, outcome, check)
