"""The gate's verdict-change table as text (rich), JSON and JUnit XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.table import Table

from tlaconf.errors import UserError
from tlaconf.gate.changes import KINDS, VerdictChanges
from tlaconf.gate.golden import relative_key
from tlaconf.replay.result import TraceResult

_STYLE = {"newly violates": "bold red", "newly conforms": "yellow", "error": "bold magenta"}


def change_table(vc: VerdictChanges) -> Table:
    """One row per changed trace: change, expected, now, step, action, blamed conjunct."""
    title = "gate: verdict changes" + (
        f" against revision {vc.revision}" if vc.revision is not None else ""
    )
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    for name in ("trace", "change", "expected", "now", "step", "action", "blamed conjunct"):
        table.add_column(name, overflow="fold", no_wrap=name != "blamed conjunct")
    for c in vc.changes:
        table.add_row(
            c.path, c.kind, c.expected, c.actual, "" if c.step is None else str(c.step),
            c.action or "", c.conjunct or (c.reason if c.kind == "error" else ""),
            style=_STYLE.get(c.kind, ""),
        )  # fmt: skip
    return table


def change_summary(vc: VerdictChanges) -> str:
    """``gate against revision 3: 41 golden traces, 3 changed (2 newly violates, ...), 38
    unchanged``."""
    counts = [f"{n} {k}" for k in KINDS if (n := sum(c.kind == k for c in vc.changes))]
    where = f" against revision {vc.revision}" if vc.revision is not None else ""
    total = vc.to_json()["traces"]
    changed = f"{len(vc.changes)} changed ({', '.join(counts)})" if counts else "0 changed"
    return f"gate{where}: {total} golden traces, {changed}, {vc.unchanged} unchanged"


def changes_junit(
    vc: VerdictChanges, root: Path, results: Sequence[TraceResult]
) -> ET.Element:
    """One test case per golden trace; a changed one fails with what changed."""
    by_path = {c.path: c for c in vc.changes}
    name = "tlaconf gate" + (f" (revision {vc.revision})" if vc.revision is not None else "")
    failures = str(len(vc.changes))
    cases = [(relative_key(root, r.path), r.module or "unknown", r.seconds) for r in results]
    cases += [(c.path, "unknown", 0.0) for c in vc.changes if c.kind == "missing"]
    root_el = ET.Element("testsuites", tests=str(len(cases)), failures=failures, errors="0")
    suite = ET.SubElement(root_el, "testsuite", name=name, tests=str(len(cases)),
                          failures=failures, errors="0")  # fmt: skip
    if vc.revision is not None:
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="revision", value=vc.revision)
    for path, module, seconds in cases:
        case = ET.SubElement(suite, "testcase", classname=module, name=path,
                             time=f"{seconds:.3f}")  # fmt: skip
        c = by_path.get(path)
        if c is None:
            continue
        el = ET.SubElement(case, "failure", type=c.kind,
                           message=f"{c.kind}: expected {c.expected}, now {c.actual}")  # fmt: skip
        lines = [c.reason] if c.reason else []
        if c.action is not None:
            lines.append(f"action: {c.action} (step {c.step})")
        if c.conjunct is not None:
            lines.append(f"blamed conjunct: {c.conjunct}")
        el.text = "\n".join(lines)
    return root_el


def write_changes_junit(
    path: str | Path, vc: VerdictChanges, root: Path, results: Sequence[TraceResult]
) -> None:
    tree = ET.ElementTree(changes_junit(vc, root, results))
    ET.indent(tree)
    try:
        tree.write(path, encoding="utf-8", xml_declaration=True)
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror}") from None
