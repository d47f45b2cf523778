"""The gate's verdict-change table as text lines and JUnit XML (its JSON is ``to_json``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from tlaconf.files import write_text
from tlaconf.gate.changes import KINDS, VerdictChanges
from tlaconf.gate.golden import relative_key
from tlaconf.replay.result import TraceResult

_STYLE = {"newly violates": "bold red", "newly conforms": "yellow", "error": "bold magenta"}


def change_lines(vc: VerdictChanges) -> list[tuple[str, str]]:
    """The verdict-change table as (line, style) pairs: one group per kind of change, one row
    per trace with its failing step, action and blamed conjunct (or what it was)."""
    where = f" against revision {vc.revision}" if vc.revision is not None else ""
    out = [(f"gate: verdict changes{where}", "bold")]
    width = max((len(c.path) for c in vc.changes), default=0)
    for kind in KINDS:
        rows = [c for c in vc.changes if c.kind == kind]
        if not rows:
            continue
        out.append((f"  {kind} ({len(rows)})", _STYLE.get(kind, "")))
        for c in rows:
            cells = [] if c.step is None else [f"step {c.step}"]
            cells += [c.action] if c.action else []
            if c.conjunct:
                cells.append(f"blames {c.conjunct}")
            elif c.reason and c.kind != "newly conforms":
                cells.append(c.reason)
            if c.kind in ("newly conforms", "violates differently", "missing"):
                blaming = f", blaming {c.expected_conjunct}" if c.expected_conjunct else ""
                cells.append(f"(expected {c.expected}{blaming})")
            out.append((f"    {c.path.ljust(width)}  {'  '.join(cells)}".rstrip(), ""))
    return out


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
        now = c.actual if c.step is None else f"{c.actual} @ step {c.step}"
        el = ET.SubElement(case, "failure", type=c.kind,
                           message=f"{c.kind}: expected {c.expected}, now {now}")  # fmt: skip
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
    element = changes_junit(vc, root, results)
    ET.indent(element)
    xml = ET.tostring(element, encoding="utf-8", xml_declaration=True)
    write_text(path, xml.decode("utf-8") + "\n", "JUnit XML")
