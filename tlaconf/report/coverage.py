"""Reports of coverage (:mod:`tlaconf.replay.coverage`): text, JSON and an HTML page of the
``.tla`` sources coloured by coverage."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tlaconf.evaluate.coverage import STATE_GUARD, Key
from tlaconf.files import write_text
from tlaconf.replay.coverage import Coverage, PointCoverage
from tlaconf.replay.result import display_path

_MAX_TEXT = 100


def location(key: Key) -> str:
    return f"{display_path(key[0])}:{key[1]}:{key[2]}"


def point_text(texts: Mapping[str, str], key: Key) -> str:
    """The source text of a point, on one line."""
    src = texts.get(key[0])
    if src is None:
        return "?"
    lines = src.splitlines()[key[1] - 1 : key[3]]
    if not lines:
        return "?"
    if len(lines) == 1:
        lines[0] = lines[0][key[2] - 1 : key[4]]
    else:
        lines[0] = lines[0][key[2] - 1 :]
        lines[-1] = lines[-1][: key[4]]
    return " ".join(" ".join(x.split()) for x in lines).strip()


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def summary_line(cov: Coverage) -> str:
    """One line: guards covered, points covered, points never reached."""
    f = cov.figures()
    pct = 100.0 * f["guards_covered"] / f["guards"] if f["guards"] else 100.0
    line = (f"coverage: {f['guards_covered']}/{f['guards']} guards ({pct:.0f}%) FALSE on a "
            f"rejected step and TRUE on an accepted one; {f['points_covered']}/{f['points']} "
            f"points both TRUE and FALSE, {f['points_unreached']} never reached; "
            f"{f['state_guards_covered']}/{f['state_guards']} state guards TRUE on an "
            f"accepted step")
    if f["nonconforming_steps"]:
        line += f"; {f['nonconforming_steps']} step(s) do not conform (see tlaconf replay)"
    return line


def unmeasured_lines(cov: Coverage, replayed: Sequence[str | Path]) -> list[str]:
    """Lines saying which of the ``replayed`` traces coverage leaves out and why (one line
    per reason): not measured, measured up to a step, or never replayed step by step."""
    by_reason: dict[str, list[str]] = {}
    for path, why in cov.unmeasured.items():
        by_reason.setdefault(why, []).append(path)
    lines = [f"coverage: {display_path(paths[0])}: {why}" if len(paths) == 1 else
             f"coverage: {len(paths)} traces (the first: {display_path(paths[0])}): {why}"
             for why, paths in by_reason.items()]
    seen = {*cov.traces, *cov.unmeasured}
    left = [str(p) for p in replayed if str(p) not in seen]
    if left:
        lines.append(f"coverage: {len(left)} trace(s) not covered (the first: "
                     f"{display_path(left[0])}): not replayed step by step (a partial trace, "
                     "or one whose module did not load)")
    return lines


def _counts(p: PointCoverage) -> str:
    return (f"accepted {p.accepted_true} TRUE / {p.accepted_false} FALSE, "
            f"rejected {p.rejected_true} TRUE / {p.rejected_false} FALSE")


def hole_reason(p: PointCoverage) -> str:
    """Why a point is not covered."""
    if not p.reached:
        return "never evaluated"
    if p.role == STATE_GUARD:
        return "never TRUE on an accepted step"
    if p.guard:
        missing = []
        if not p.rejected_false:
            missing.append("never FALSE on a rejected step")
        if not p.accepted_true:
            missing.append("never TRUE on an accepted step")
        return " and ".join(missing)
    return "always TRUE" if not (p.accepted_false or p.rejected_false) else "always FALSE"


def render_coverage(console: Console, cov: Coverage, holes: bool = True) -> None:
    """A table per action (steps, guards and points covered), then every uncovered guard
    (and, with ``holes``, every other uncovered point), then the summary line."""
    table = Table(box=box.SIMPLE_HEAD, title="coverage", title_justify="left")
    for col in ("module", "action", "accepted", "rejected", "guards", "points", "unreached"):
        table.add_column(col, justify="left" if col in ("module", "action") else "right")
    for ac in cov.actions.values():
        pts = list(ac.points.values())
        guards = [p for p in pts if p.guard]
        table.add_row(
            ac.module, ac.action, str(ac.accepted), str(ac.rejected),
            f"{sum(p.covered for p in guards)}/{len(guards)}",
            f"{sum(p.covered for p in pts)}/{len(pts)}",
            str(sum(not p.reached for p in pts)),
        )
    console.print(table)
    for ac in cov.actions.values():
        shown = [p for p in ac.points.values()
                 if not p.covered and (p.role != "point" or holes)]
        if not shown:
            continue
        console.print(Text(f"{ac.module}.{ac.action}", style="bold"))
        for p in shown:
            line = Text(f"  {p.role if p.role != 'point' else p.kind} ", style="yellow")
            line.append(_clip(point_text(cov.texts, p.key)), style="bold")
            line.append(f"  {location(p.key)}", style="dim")
            line.append(f"\n    {hole_reason(p)} ({_counts(p)})", style="red")
            console.print(line)
    console.print(summary_line(cov))


def coverage_json(cov: Coverage) -> dict[str, Any]:
    """``{"traces", "summary", "actions": [{"module", "action", "accepted", "rejected",
    "nonconforming", "points": [{"kind", "role", "location", "text", "accepted",
    "rejected", "covered"}]}]}``."""
    return {
        "traces": len(cov.traces),
        "summary": cov.figures(),
        "actions": [
            {
                "module": ac.module,
                "action": ac.action,
                "accepted": ac.accepted,
                "rejected": ac.rejected,
                "nonconforming": ac.nonconforming,
                "points": [
                    {
                        "kind": p.kind,
                        "role": p.role,
                        "location": location(p.key),
                        "text": point_text(cov.texts, p.key),
                        "accepted": {"true": p.accepted_true, "false": p.accepted_false},
                        "rejected": {"true": p.rejected_true, "false": p.rejected_false},
                        "covered": p.covered,
                    }
                    for p in ac.points.values()
                ],
            }
            for ac in cov.actions.values()
        ],
    }


_CSS = """
body { font-family: sans-serif; margin: 1.5em; }
pre { font-family: monospace; background: #fafafa; padding: .8em; border: 1px solid #ddd; }
.covered { background: #c8f0c8; } .partial { background: #fff0a8; }
.unreached { background: #f8c0c0; } .ln { color: #999; user-select: none; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; border-bottom: 1px solid #eee; }
"""

_RANK = {"covered": 0, "partial": 1, "unreached": 2}


def _merged(cov: Coverage) -> dict[Key, tuple[str, str]]:
    """Per span and kind over all actions: the worst status and its hover text."""
    out: dict[Key, tuple[str, str]] = {}
    for ac in cov.actions.values():
        for p in ac.points.values():
            status = "covered" if p.covered else ("partial" if p.reached else "unreached")
            note = (f"{ac.module}.{ac.action}: {p.kind}, {p.role}: "
                    f"{hole_reason(p) if not p.covered else 'covered'} ({_counts(p)})")
            old = out.get(p.key)
            if old is None:
                out[p.key] = (status, note)
            else:
                worst = old[0] if _RANK[old[0]] >= _RANK[status] else status
                out[p.key] = (worst, old[1] + "\n" + note)
    return out


def _page_source(text: str, marks: list[tuple[Key, str, str]]) -> str:
    """``text`` as HTML with every mark's span wrapped (inner spans over outer ones)."""
    lines = text.splitlines()
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    body = "\n".join(lines)
    owner: list[int] = [-1] * len(body)
    order = sorted(range(len(marks)), key=lambda i: -(_offset(starts, marks[i][0], True)
                                                      - _offset(starts, marks[i][0], False)))
    for i in order:
        a, b = _offset(starts, marks[i][0], False), _offset(starts, marks[i][0], True)
        for c in range(max(a, 0), min(b, len(body))):
            owner[c] = i
    out: list[str] = []
    cur = -1
    for c, ch in enumerate(body):
        want = -1 if ch == "\n" else owner[c]
        if want != cur:
            if cur >= 0:
                out.append("</span>")
            if want >= 0:
                _, status, note = marks[want]
                out.append(f'<span class="{status}" title="{html.escape(note)}">')
            cur = want
        out.append(html.escape(ch))
    if cur >= 0:
        out.append("</span>")
    numbered = "".join(out).split("\n")
    return "\n".join(f'<span class="ln">{n:>4} </span>{ln}' for n, ln in enumerate(numbered, 1))


def _offset(starts: list[int], key: Key, end: bool) -> int:
    line, col = (key[3], key[4]) if end else (key[1], key[2] - 1)
    if line - 1 >= len(starts):
        return starts[-1]
    return starts[line - 1] + col


def write_coverage_html(path: Path, cov: Coverage) -> None:
    """The coverage page: summary, a table per action, each ``.tla`` source coloured
    (green covered, yellow reached but not covered, red never reached; hover for counts).
    Written to a temporary file and renamed, so nothing is half-written."""
    merged = _merged(cov)
    parts = [
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>tlaconf coverage</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>tlaconf coverage</h1>",
        f"<p>{html.escape(summary_line(cov))}</p>",
        "<table><tr><th>module</th><th>action</th><th>accepted</th><th>rejected</th>"
        "<th>guards covered</th><th>points covered</th></tr>",
    ]
    for ac in cov.actions.values():
        pts = list(ac.points.values())
        guards = [p for p in pts if p.guard]
        parts.append(
            f"<tr><td>{html.escape(ac.module)}</td><td>{html.escape(ac.action)}</td>"
            f"<td>{ac.accepted}</td><td>{ac.rejected}</td>"
            f"<td>{sum(p.covered for p in guards)}/{len(guards)}</td>"
            f"<td>{sum(p.covered for p in pts)}/{len(pts)}</td></tr>")
    parts.append("</table>")
    files = sorted({k[0] for k in merged})
    for file in files:
        text = cov.texts.get(file)
        if text is None:
            continue
        marks = [(k, status, note) for k, (status, note) in merged.items() if k[0] == file]
        parts.append(f"<h2>{html.escape(display_path(file))}</h2>")
        parts.append(f"<pre>{_page_source(text, marks)}</pre>")
    parts.append("</body></html>\n")
    write_text(path, "".join(parts), "the coverage report")
