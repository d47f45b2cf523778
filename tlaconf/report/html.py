"""A self-contained HTML page of a run: the summary table and, per failing trace, the
step timeline with each step's state diff, the blame tree beside the highlighted ``.tla``
source, and the witness of a rejected step the specification allowed.

The page has no script and no external resource: it opens from disk anywhere.
"""

from __future__ import annotations

import html
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import write_text
from tlaconf.replay.result import BlameNode, Change, Failure, TraceResult, Witness, state_diff
from tlaconf.trace.reader import open_trace
from tlaconf.values import to_tla

PAGE = "index.html"
TIMELINE_STEPS = 40
"""How many steps before the failing one the timeline shows."""
_SOURCE_CONTEXT = 2
_MAX_SOURCE_LINES = 60
_MAX_VALUE = 400

_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d0d0d7; padding: .25em .6em; text-align: left;
         vertical-align: top; }
th { background: #f2f2f7; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
                   font-size: 13px; }
.v-conforms { color: #137333; font-weight: 600; }
.v-violation, .v-crash { color: #c5221f; font-weight: 700; }
.v-vacuous { color: #a05a00; font-weight: 600; }
.v-error { color: #8e24aa; font-weight: 700; }
.reason { color: #c5221f; font-weight: 600; }
.trace { border: 1px solid #d0d0d7; border-radius: 8px; padding: 0 1em 1em;
         margin-top: 1.5em; }
.columns { display: flex; gap: 1.5em; flex-wrap: wrap; align-items: flex-start; }
.columns > div { flex: 1 1 28em; min-width: 0; }
.blame ul { list-style: none; padding-left: 1.2em; border-left: 2px solid #e4e4ea;
            margin: .2em 0; }
.blame > ul { border-left: none; padding-left: 0; }
.blame .why { color: #c5221f; }
.blame .where { color: #6e6e73; }
.blame .binding { color: #0b57d0; }
.leaf > .formula { background: #ff0066; color: #ffffff; padding: 0 .2em;
                   border-radius: 3px; }
pre.source { background: #fafafa; border: 1px solid #e4e4ea; padding: .5em; white-space: pre-wrap;
             overflow-x: auto; }
pre.source .ln { color: #9a9aa0; user-select: none; }
pre.source .hit { background: #ffe1e1; }
pre.source .leafhit { background: #ff0066; color: #ffffff; }
tr.failing td { background: #ffe1e1; }
tr.failing td.step { border-left: 4px solid #ff0066; }
.diff { margin: 0; padding-left: 1em; }
.muted { color: #6e6e73; }
"""


def write_html(results: Sequence[TraceResult], out_dir: str | Path, title: str) -> Path:
    """Write ``out_dir/index.html`` for ``results`` (all or nothing); return its path."""
    return write_page(render_page(results, title), out_dir)


def write_page(text: str, out_dir: str | Path) -> Path:
    """Write the page ``text`` as ``out_dir/index.html`` (all or nothing); its path."""
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"--html {folder}: not a directory")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        reason = err.strerror or str(err)
        raise UserError(f"--html {folder}: cannot write the report: {reason}") from None
    target = folder / PAGE
    write_text(target, text, "the HTML report")
    return target


def render_page(results: Sequence[TraceResult], title: str) -> str:
    """The whole page as a string."""
    failing = [r for r in results if r.verdict != "conforms" and r.failure is not None]
    body = [f"<h1>{_e(title)}</h1>", _counts(results), _summary(results)]
    body += [_trace_section(i, r) for i, r in enumerate(failing)]
    return page(title, body)


def page(title: str, body: Sequence[str]) -> str:
    """A whole page: ``body``'s parts under ``title``, with the report's style."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def blame_columns(blame: BlameNode) -> str:
    """The blame tree beside the ``.tla`` source it points into, highlighted."""
    return ('<div class="columns"><div class="blame"><h3>blame</h3><ul>'
            f"{_blame_item(blame)}</ul></div>"
            f"<div><h3>source</h3>{_sources(blame)}</div></div>")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _clip(text: str, limit: int = _MAX_VALUE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _verdict(verdict: str) -> str:
    return f'<span class="v-{_e(verdict)}">{_e(verdict)}</span>'


def _counts(results: Sequence[TraceResult]) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    parts = ", ".join(f"{n} {_verdict(v)}" for v, n in counts.items())
    steps = sum(r.steps for r in results)
    return f"<p>{len(results)} trace(s), {steps} step(s): {parts or 'none'}</p>"


def _summary(results: Sequence[TraceResult]) -> str:
    rows = []
    failing = 0
    for r in results:
        where, link = "", _e(r.path)
        if r.verdict != "conforms" and r.failure is not None:
            where = f" @ step {r.failure.step}"
            link = f'<a href="#trace-{failing}">{_e(r.path)}</a>'
            failing += 1
        rows.append(
            f"<tr><td class=\"mono\">{link}</td><td>{_e(r.module or '?')}</td>"
            f"<td>{r.steps}</td><td>{_verdict(r.verdict)}{_e(where)}</td>"
            f"<td>{r.seconds:.2f}s</td></tr>"
        )
    return (
        "<table class=\"summary\"><tr><th>trace</th><th>module</th><th>steps</th>"
        "<th>verdict</th><th>time</th></tr>" + "".join(rows) + "</table>"
    )


def _trace_section(index: int, result: TraceResult) -> str:
    f = result.failure
    assert f is not None
    parts = [
        f'<section class="trace" id="trace-{index}">',
        f"<h2 class=\"mono\">{_e(result.path)} — {_verdict(result.verdict)}</h2>",
        f"<p><b>step {f.step}</b>{' (initial state)' if f.step == 0 else ''}"
        f" <span class=\"muted\">line {f.line}</span>",
    ]
    if f.call is not None:
        parts.append(f"<br><b>action</b> <code>{_e(_clip(f.call))}</code>")
    parts.append(f"<br><b>reason</b> <span class=\"reason\">{_e(f.reason)}</span></p>")
    if f.blame is not None:
        parts.append(blame_columns(f.blame))
    if f.witness is not None:
        parts.append(_witness(f.witness))
    parts.append(_timeline(result))
    parts.append("</section>")
    return "\n".join(parts)


def _blame_item(node: BlameNode) -> str:
    cls = "leaf" if not node.children else "node"
    where = f' <span class="where">{_e(node.location)}</span>' if node.location else ""
    text = _e(_clip(" ".join(node.text.split())))
    out = [f'<li class="{cls}"><code class="formula">{text}</code> '
           f'<span class="why">{_e(node.reason)}</span>{where}']
    for name, value in node.bindings:
        out.append(f'<div class="mono"><span class="binding">{_e(name)}</span>'
                   f" = {_e(_clip(value))}</div>")
    if node.children:
        out.append("<ul>" + "".join(_blame_item(c) for c in node.children) + "</ul>")
    out.append("</li>")
    return "".join(out)


@dataclass(frozen=True)
class _Mark:
    line: int
    col: int
    end_line: int
    end_col: int
    leaf: bool


def _nodes(node: BlameNode) -> Iterable[BlameNode]:
    yield node
    for child in node.children:
        yield from _nodes(child)


def _sources(blame: BlameNode) -> str:
    """Each ``.tla`` file the blame points into, its blamed lines highlighted."""
    by_file: dict[str, list[_Mark]] = {}
    for n in _nodes(blame):
        if n.file and n.line > 0:
            by_file.setdefault(n.file, []).append(
                _Mark(n.line, n.col, max(n.end_line, n.line), n.end_col, not n.children))
    if not by_file:
        return '<p class="muted">(no source location)</p>'
    return "".join(_source_file(file, marks) for file, marks in by_file.items())


def _source_file(file: str, marks: list[_Mark]) -> str:
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return f'<p class="muted">{_e(file)} (cannot be read)</p>'
    leaves = [m for m in marks if m.leaf] or marks
    first = max(min(m.line for m in leaves) - _SOURCE_CONTEXT, 1)
    last = min(max(m.end_line for m in leaves) + _SOURCE_CONTEXT, len(lines),
               first + _MAX_SOURCE_LINES - 1)
    width = len(str(last))
    out = [f'<div class="muted mono">{_e(file)}</div><pre class="source">']
    for n in range(first, last + 1):
        src = lines[n - 1] if n <= len(lines) else ""
        level = [0] * len(src)
        for m in marks:
            if not m.line <= n <= m.end_line:
                continue
            start = m.col - 1 if n == m.line else 0
            end = m.end_col if n == m.end_line else len(src)
            for i in range(max(start, 0), min(end, len(src))):
                level[i] = max(level[i], 2 if m.leaf else 1)
        out.append(f'<span class="ln">{n:>{width}} </span>{_runs(src, level)}\n')
    out.append("</pre>")
    return "".join(out)


def _runs(src: str, level: list[int]) -> str:
    out, i = [], 0
    while i < len(src):
        j = i
        while j < len(src) and level[j] == level[i]:
            j += 1
        chunk = _e(src[i:j])
        cls = ("", "hit", "leafhit")[level[i]]
        out.append(f'<span class="{cls}">{chunk}</span>' if cls else chunk)
        i = j
    return "".join(out)


def _diff_list(changes: Sequence[Change]) -> str:
    if not changes:
        return '<span class="muted">no change</span>'
    items = "".join(
        f"<li><code>{_e(c.path)}</code>: {_e(_clip(c.before or '(absent)', 120))} → "
        f"{_e(_clip(c.after or '(absent)', 120))}</li>" for c in changes)
    return f'<ul class="diff mono">{items}</ul>'


def _witness(witness: Witness) -> str:
    guards = "".join(f"<li><code>{_e(_clip(g))}</code></li>" for g in witness.guards)
    return ('<h3 id="witness">witness: a successor the specification allows from s</h3>'
            + _diff_list(witness.diff)
            + (f"<p>guards that held in s:</p><ul class=\"mono\">{guards}</ul>" if guards else ""))


@dataclass(frozen=True)
class _Row:
    step: int
    call: str
    outcome: str
    changes: tuple[Change, ...]


def _timeline(result: TraceResult) -> str:
    """The steps up to the failing one (the last :data:`TIMELINE_STEPS`), each with its diff."""
    f = result.failure
    assert f is not None
    rows = _steps_before(Path(result.path), f)
    if rows is None:
        return ""
    skipped = f.step - len(rows) if rows else 0
    head = (f'<p class="muted">{skipped} earlier step(s) not shown</p>' if skipped > 0 else "")
    body = []
    for row in rows:
        cls = ' class="failing" id="failing-step"' if row.step == f.step else ""
        body.append(
            f"<tr{cls}><td class=\"step\">{row.step}</td><td class=\"mono\">{_e(_clip(row.call))}"
            f"</td><td>{_e(row.outcome)}</td><td>{_diff_list(row.changes)}</td></tr>")
    return ("<h3>timeline</h3>" + head + "<table class=\"timeline\"><tr><th>step</th>"
            "<th>action</th><th>outcome</th><th>state diff (s → s')</th></tr>"
            + "".join(body) + "</table>")


def _steps_before(path: Path, failure: Failure) -> list[_Row] | None:
    """The timeline rows up to ``failure.step``, or None when the trace cannot be read again."""
    rows: deque[_Row] = deque(maxlen=TIMELINE_STEPS + 1)
    try:
        with open_trace(path) as trace:
            before = trace.initial
            rows.append(_Row(0, "(initial state)", "", ()))
            for n, step in enumerate(trace.steps(), start=1):
                if n > failure.step:
                    break
                call = step.action or "(no action label)"
                if step.action is not None and step.params is not None:
                    call = f"{step.action}({to_tla(step.params)})"
                rows.append(_Row(n, call, step.outcome or "", state_diff(before, step.state)))
                before = step.state
    except (UserError, OSError):
        return None
    return list(rows)
