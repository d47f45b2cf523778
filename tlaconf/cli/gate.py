"""``tlaconf gate [--update] [--assemble] [--traces DIR] [--revision R]``: the golden-trace CI gate.

With ``--revision R`` every golden trace is replayed against revision R of the
profile and the report is the verdict-change table against ``verdicts.json``
(newly violates, newly conforms, violates differently, error; the unchanged
count).  ``--json`` prints that table as one object and ``--junit FILE``
writes it as one test case per trace, with or without ``--revision``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich import box
from rich.table import Table

from tlaconf.cli.inputs import existing_dir
from tlaconf.cli.replay import (
    add_output_options,
    add_run_options,
    check_outputs,
    replay_paths,
    strict,
)
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import check_output, unreadable_path
from tlaconf.gate.changes import VerdictChanges
from tlaconf.gate.changes_report import change_lines, change_summary, write_changes_junit
from tlaconf.gate.golden import (
    EXPECTED_FILE,
    VERDICTS_FILE,
    Difference,
    assemble,
    default_traces_dir,
    relative_key,
    write_verdicts,
)
from tlaconf.gate.policy import decide_gate, gate_corpus
from tlaconf.replay.result import TraceResult
from tlaconf.report import make_console, render_failure, write_html


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Replay every *.trace.jsonl under the traces directory and compare each "
        "verdict and failing step with verdicts.json (keys: paths relative to the traces "
        "directory). Exit 1 on any difference, or when no trace reaches conforms or violation "
        "(then --update writes nothing). With --revision R the traces are checked "
        "against revision R of the profile and the report is the verdict-change table: "
        "traces that newly violate (step, action, blamed conjunct), newly conform, violate "
        "differently or error, and how many are unchanged."
    )
    p.add_argument("--traces", metavar="DIR", type=existing_dir,
                   help="golden traces (default: ./traces)")
    p.add_argument("--update", action="store_true", help="rewrite verdicts.json from this run")
    p.add_argument(
        "--assemble",
        action="store_true",
        help="write verdicts.json from the areas' expected.json files (no replay)",
    )
    add_run_options(p)
    add_output_options(p)
    p.set_defaults(run=run)


def diff_table(diffs: list[Difference]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="gate: differences", title_justify="left")
    table.add_column("trace", no_wrap=True)
    table.add_column("expected")
    table.add_column("actual", style="red")
    table.add_column("note", overflow="fold")
    for d in diffs:
        table.add_row(d.path, d.expected, d.actual, d.note)
    return table


_REPLAY_OPTIONS: tuple[tuple[str, str, object], ...] = (
    ("update", "--update", False), ("spec", "--spec", None),
    ("backend", "--backend", "embedded"), ("cross_check", "--cross-check", None),
    ("checker_timeout", "--checker-timeout", None), ("jobs", "-j", 1),
    ("cluster", "--cluster", None), ("revision", "--revision", None),
    ("strict", "--strict", False), ("json", "--json", False), ("junit", "--junit", None),
    ("html", "--html", None), ("library", "--library", []),
    ("eval_budget", "--eval-budget", None))
"""(attribute, option, default) of every option of a replay."""


def _refuse_replay_options(args: argparse.Namespace) -> None:
    """--assemble replays nothing: an option of a replay given with it would be ignored."""
    given = [flag for name, flag, default in _REPLAY_OPTIONS
             if getattr(args, name, default) != default]
    if given:
        raise UserError(f"{', '.join(given)} do{'es' if len(given) == 1 else ''} not apply "
                        "to --assemble (it writes verdicts.json from the areas' expected.json "
                        "files and replays nothing)")


def _check_expected_files(root: Path) -> None:
    """UserError for an area's ``expected.json`` that is not a readable JSON file (a
    folder or a named pipe of that name was passed over without a word)."""
    for path in sorted(root.rglob(EXPECTED_FILE)):
        why = unreadable_path(path)
        if why is not None:
            raise UserError(f"{path}: it {why}: an area's {EXPECTED_FILE} must be a JSON file "
                            "(what each golden trace beside it must give)")


def run(args: argparse.Namespace) -> ExitCode:
    root = Path(args.traces) if args.traces else default_traces_dir()
    if not root.is_dir():
        raise UserError(f"traces directory {root} does not exist")
    verdicts_path = root / VERDICTS_FILE
    _check_expected_files(root)
    if args.assemble:
        _refuse_replay_options(args)
    if args.junit is not None and Path(args.junit).resolve() == verdicts_path.resolve():
        raise UserError(f"--junit {args.junit}: it is the corpus's {VERDICTS_FILE}: writing "
                        "it would destroy the recorded verdicts")
    check_outputs(args)
    if args.update or args.assemble:
        check_output(verdicts_path, "--update" if args.update else "--assemble")
    console = make_console()
    if args.assemble:
        verdicts = assemble(root)
        if not verdicts:  # a mistyped --traces: nothing to record, not an empty record
            raise UserError(f"no golden traces (*.trace.jsonl) under {root}: --assemble "
                            f"writes no empty {VERDICTS_FILE}")
        write_verdicts(verdicts_path, verdicts)
        console.print(f"wrote {verdicts_path} ({len(verdicts)} traces)")
        return ExitCode.OK
    corpus = gate_corpus(root, args.update)
    results = replay_paths(corpus.paths, args, quiet=args.json)
    outcome = decide_gate(corpus, results, update=args.update, revision=args.revision,
                          strict=strict(args))
    notes = make_console(sys.stderr) if args.json else console  # stdout holds the JSON
    if outcome.kind == "undecided":  # nothing is compared, nothing is recorded
        for r in outcome.undecided:
            notes.print(render_failure(r))
        _json_error(args, outcome.message, [r.path for r in outcome.undecided])
        notes.print(outcome.message, style="bold red")
        return outcome.code
    if args.html:
        write_html(results, args.html, "tlaconf gate")
    for text in outcome.warnings:
        notes.print(f"warning: {text}", style="yellow")
    if outcome.kind == "checks-nothing":
        _json_error(args, outcome.message, [r.path for r in results])
        notes.print(outcome.message, style="bold red")
        return outcome.code
    if outcome.kind == "updated":
        assert outcome.new_verdicts is not None
        write_verdicts(verdicts_path, outcome.new_verdicts)
        console.print(outcome.message)
        old, new = corpus.recorded, outcome.new_verdicts
        for key in outcome.updated:
            before = str(old[key]) if key in old else "(none)"
            after = str(new[key]) if key in new else "(removed)"
            console.print(f"  {key}: {before} -> {after}")
        return outcome.code
    changes = outcome.changes
    assert changes is not None
    if args.junit:
        write_changes_junit(args.junit, changes, root, results)
    if args.json:
        json.dump(changes.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.revision is not None:
        _report_changes(changes, root, results)
    elif outcome.differences:
        console.print(diff_table(outcome.differences))
        differing = {d.path for d in outcome.differences}
        for r in results:
            if relative_key(root, r.path) in differing and r.failure is not None:
                console.print(render_failure(r))
        console.print(outcome.message, style="bold red")
    else:
        console.print(outcome.message, style="green")
    return outcome.code


def _json_error(args: argparse.Namespace, text: str, traces: list[str]) -> None:
    """Under ``--json``, a gate that stops before comparing still prints one document."""
    if args.json:
        json.dump({"error": text, "traces": traces}, sys.stdout, indent=2)
        sys.stdout.write("\n")


def _report_changes(changes: VerdictChanges, root: Path, results: list[TraceResult]) -> None:
    """The verdict-change table, a failure panel per changed trace, the summary line."""
    console = make_console()
    if changes.changes:
        for line, style in change_lines(changes):
            console.print(line, style=style, highlight=False)
        changed = {c.path for c in changes.changes}
        for r in results:
            if relative_key(root, r.path) in changed and r.failure is not None:
                console.print(render_failure(r))
    style = "bold red" if changes.changes else "green"
    console.print(change_summary(changes), style=style)
