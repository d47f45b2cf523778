"""JUnit XML: one test case per trace; a violation or vacuous trace is a failure whose text
is the blame tree, an ``error`` verdict is an error.  The suite's properties give the
invariants checked per module (``invariants.<module>``) and each ``warning``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from tlaconf.files import write_text
from tlaconf.replay.result import TraceResult, invariant_counts, warnings


def failure_text(result: TraceResult) -> str:
    """The plain-text body of a failure: where, why, the blame tree and the state diff."""
    f = result.failure
    if f is None:
        return ""
    lines = [f"step {f.step} (line {f.line}): {f.reason}"]
    if f.call is not None:
        lines.append(f"action: {f.call}")
    if f.blame is not None:
        lines.append("blame:")
        lines += f.blame.lines("  ")
    if f.diff:
        lines.append("state diff (s -> s'):")
        for c in f.diff:
            lines.append(f"  {c.path}: {c.before or '(absent)'} -> {c.after or '(absent)'}")
    return "\n".join(lines)


def junit_xml(
    results: Sequence[TraceResult], suite: str = "tlaconf", revision: str | None = None
) -> ET.Element:
    """The ``<testsuites>`` element for ``results``; a run given ``--revision R`` says so in
    the suite's name and a ``revision`` property."""
    failures = sum(r.verdict in ("violation", "vacuous", "crash") for r in results)
    errors = sum(r.verdict == "error" for r in results)
    total = f"{sum(r.seconds for r in results):.3f}"
    root = ET.Element("testsuites", tests=str(len(results)), failures=str(failures),
                      errors=str(errors), time=total)  # fmt: skip
    name = suite if revision is None else f"{suite} (revision {revision})"
    ts = ET.SubElement(root, "testsuite", name=name, tests=str(len(results)),
                       failures=str(failures), errors=str(errors), time=total)  # fmt: skip
    props = ET.SubElement(ts, "properties")
    if revision is not None:
        ET.SubElement(props, "property", name="revision", value=revision)
    for module, n in invariant_counts(results).items():
        ET.SubElement(props, "property", name=f"invariants.{module}", value=str(n))
    for text in warnings(results):
        ET.SubElement(props, "property", name="warning", value=text)
    for r in results:
        case = ET.SubElement(ts, "testcase", classname=r.module or "unknown", name=r.path,
                             time=f"{r.seconds:.3f}")  # fmt: skip
        if r.verdict == "conforms":
            continue
        tag = "error" if r.verdict == "error" else "failure"
        reason = r.failure.reason if r.failure else r.verdict
        el = ET.SubElement(case, tag, message=f"{r.verdict}: {reason}", type=r.verdict)
        el.text = failure_text(r)
    return root


def write_junit(
    path: str | Path, results: Sequence[TraceResult], revision: str | None = None
) -> None:
    """Write the JUnit XML file ``path``."""
    element = junit_xml(results, revision=revision)
    ET.indent(element)
    xml = ET.tostring(element, encoding="utf-8", xml_declaration=True)
    write_text(path, xml.decode("utf-8") + "\n", "JUnit XML")
