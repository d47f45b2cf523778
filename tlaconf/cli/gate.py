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
from tlaconf.errors import UserError
from tlaconf.files import check_output
from tlaconf.gate.changes import VerdictChanges, verdict_changes
from tlaconf.gate.changes_report import change_lines, change_summary, write_changes_junit
from tlaconf.gate.golden import (
    VERDICTS_FILE,
    Difference,
    assemble,
    compare,
    decisive,
    default_traces_dir,
    golden_traces,
    load_verdicts,
    relative_key,
    updated_verdicts,
    write_verdicts,
)
from tlaconf.replay.result import TraceResult, warnings
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


def run(args: argparse.Namespace) -> int:
    root = Path(args.traces) if args.traces else default_traces_dir()
    if not root.is_dir():
        raise UserError(f"traces directory {root} does not exist")
    verdicts_path = root / VERDICTS_FILE
    check_outputs(args)
    if args.update or args.assemble:
        check_output(verdicts_path, "--update" if args.update else "--assemble")
    console = make_console()
    if args.assemble:
        verdicts = assemble(root)
        write_verdicts(verdicts_path, verdicts)
        console.print(f"wrote {verdicts_path} ({len(verdicts)} traces)")
        return 0
    paths = golden_traces(root)
    if not paths:
        raise UserError(f"no golden traces (*.trace.jsonl) under {root}")
    if not verdicts_path.exists() and not args.update:
        raise UserError(
            f"{verdicts_path} does not exist: write it with 'tlaconf gate --assemble' (from the "
            "areas' expected.json) or 'tlaconf gate --update' (from this run)"
        )
    old = load_verdicts(verdicts_path) if verdicts_path.exists() else {}
    results = replay_paths(paths, args, quiet=False)
    internal = [r for r in results if r.internal_error or r.undecided]
    notes = make_console(sys.stderr) if args.json else console  # stdout holds the JSON
    if internal:  # tlaconf could not decide: nothing is compared, nothing is recorded
        for r in internal:
            notes.print(render_failure(r))
        text = (f"gate: {len(internal)} trace(s) undecided (an internal error, or an external "
                "checker that failed or disagreed); nothing compared")
        _json_error(args, text, [r.path for r in internal])
        notes.print(text, style="bold red")
        return 3
    if args.html:
        write_html(results, args.html, "tlaconf gate")
    for text in warnings(results):
        notes.print(f"warning: {text}", style="yellow")
    strict_code = 1 if strict(args) and warnings(results) else 0
    if not decisive(results):
        text = (f"gate: none of the {len(results)} golden traces under {root} reached conforms "
                "or violation: the corpus checks nothing"
                + (f"; {verdicts_path} was not written" if args.update else ""))
        _json_error(args, text, [r.path for r in results])
        notes.print(text, style="bold red")
        return 1
    if args.update:
        new = updated_verdicts(root, results, old)
        write_verdicts(verdicts_path, new)
        changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        console.print(f"wrote {verdicts_path}: {len(new)} traces, {len(changed)} changed")
        for key in changed:
            before = str(old[key]) if key in old else "(none)"
            after = str(new[key]) if key in new else "(removed)"
            console.print(f"  {key}: {before} -> {after}")
        return 0
    changes = verdict_changes(root, results, old, args.revision)
    if args.junit:
        write_changes_junit(args.junit, changes, root, results)
    if args.json:
        json.dump(changes.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 1 if changes.changes else strict_code
    if args.revision is not None:
        return _report_changes(changes, root, results) or strict_code
    diffs = compare(root, results, old)
    if not diffs:
        console.print(f"gate: {len(results)} golden traces, all as expected", style="green")
        return strict_code
    console.print(diff_table(diffs))
    differing = {d.path for d in diffs}
    for r in results:
        if relative_key(root, r.path) in differing and r.failure is not None:
            console.print(render_failure(r))
    console.print(
        f"gate: {len(results)} golden traces, {len(diffs)} difference(s)", style="bold red"
    )
    return 1


def _json_error(args: argparse.Namespace, text: str, traces: list[str]) -> None:
    """Under ``--json``, a gate that stops before comparing still prints one document."""
    if args.json:
        json.dump({"error": text, "traces": traces}, sys.stdout, indent=2)
        sys.stdout.write("\n")


def _report_changes(changes: VerdictChanges, root: Path, results: list[TraceResult]) -> int:
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
    return 1 if changes.changes else 0
