"""tlaconf diff-spec OLD_DIR NEW_DIR: operators changed between two spec/ trees or revisions.

OLD_DIR and NEW_DIR are two spec/ trees, or two revision folders
(spec/reference-profile/rev2 spec/reference-profile/rev3: each side is then
conformance/, tcs/ and that revision).  Definitions are compared as ASTs
(source positions, comments and layout do not count); a definition that uses a
changed one, directly or not, is reported as affected; golden traces (--traces
DIR, default: traces/ beside the NEW spec/ tree) whose conformance module has a
changed or affected definition are listed.  For every modified definition it
also says whether some golden trace tells the old and new definitions apart (a
step whose outcome differs when only that definition is changed) or that none
does: the gate's power against that change (--no-power skips it).  Exit 0
after reporting, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir, spec_dir
from tlaconf.errors import ExitCode, UserError
from tlaconf.gate.diff_spec import (
    Key,
    SpecDiff,
    TraceImpact,
    affected_traces,
    diff_trees,
    load_pair,
    traces_using,
)
from tlaconf.gate.power import Power, gate_power
from tlaconf.replay.backend import get_backend


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("old", metavar="OLD_DIR", type=spec_dir, help="the spec/ directory before")
    p.add_argument("new", metavar="NEW_DIR", type=spec_dir, help="the spec/ directory after")
    p.add_argument("--traces", metavar="DIR", type=existing_dir,
                   help="golden traces (default: traces/ beside NEW_DIR, if any)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--no-power",
        action="store_true",
        help="do not replay the golden traces to find which changes they tell apart",
    )
    p.set_defaults(run=run)


def _key(k: Key) -> dict[str, str]:
    return {"module": k[0], "operator": k[1]}


def to_json(
    diff: SpecDiff, traces: list[TraceImpact] | None, power: list[Power] | None = None
) -> dict[str, Any]:
    return {
        "modified": [_key(k) for k in diff.modified],
        "added": [_key(k) for k in diff.added],
        "removed": [_key(k) for k in diff.removed],
        "affected": [
            {**_key(k), "uses": [_key(u) for u in uses]}
            for k, uses in sorted(diff.affected.items())
        ],
        "cfg_changed": list(diff.cfg_changed),
        "traces": None if traces is None else [
            {"path": t.path, "module": t.module, "reasons": list(t.reasons)} for t in traces
        ],
        "power": None if power is None else [p.to_json() for p in power],
    }  # fmt: skip


def power_text(power: list[Power], traces_dir: Path) -> list[str]:
    lines = [f"gate power: {len(power)} modified definition(s)"]
    for p in power:
        head = f"  {p.key[0]}  {p.key[1]}: "
        if p.told_apart and p.trace is not None:
            trace = Path(p.trace).relative_to(traces_dir).as_posix()
            lines.append(f"{head}told apart by {trace} step {p.step} (old: {p.old}; new: {p.new})")
        elif p.note:
            lines.append(f"{head}{p.note}")
        else:
            lines.append(f"{head}no golden trace tells the old and new definitions apart")
    return lines


def to_text(diff: SpecDiff, traces: list[TraceImpact] | None) -> str:
    lines = [
        f"{len(diff.modified)} modified, {len(diff.added)} added, {len(diff.removed)} removed, "
        f"{len(diff.affected)} affected through uses"
    ]
    for kind, keys in (("modified", diff.modified), ("added", diff.added),
                       ("removed", diff.removed)):  # fmt: skip
        lines += [f"  {kind:<9} {path}  {name}" for path, name in keys]
    for (path, name), uses in sorted(diff.affected.items()):
        via = ", ".join(n for _, n in uses)
        lines.append(f"  {'affected':<9} {path}  {name}  (uses {via})")
    lines += [f"  {'cfg':<9} {path}" for path in diff.cfg_changed]
    if traces is not None:
        lines.append(f"{len(traces)} golden trace(s) affected")
        for t in traces:
            lines.append(f"  {t.path}  [{t.module}]  " + "; ".join(t.reasons))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> ExitCode:
    old, new = load_pair(args.old, args.new)
    diff = diff_trees(old, new)
    traces_dir: Path | None = args.traces
    if traces_dir is None and (new.root.resolve().parent / "traces").is_dir():
        traces_dir = new.root.resolve().parent / "traces"
    if traces_dir is not None and not traces_dir.is_dir():
        raise UserError(f"traces directory {traces_dir} does not exist")
    traces = None if traces_dir is None else affected_traces(diff, new.root, traces_dir,
                                                             new.revision)  # fmt: skip
    power = None
    if traces_dir is not None and not args.no_power:
        using = traces_using(new, traces_dir, new.revision)
        power = gate_power(old, new, diff.modified, using, get_backend("embedded"))
    if args.json:
        print(json.dumps(to_json(diff, traces, power), indent=2))
        return ExitCode.OK
    text = to_text(diff, traces)
    if power is not None and traces_dir is not None:
        text += "\n" + "\n".join(power_text(power, traces_dir))
    print(text)
    return ExitCode.OK
