"""A validation's outcome for people: the diagnosed branches as ``replay`` prints a blame
(:func:`branch_text`), and ``tlaconf validate --html DIR``, a self-contained page.

The verdict, the log read and the search, then for each candidate state diagnosed at a
dead end: a successor dropped as already visited (in words), and each branch of the
next-state relation whose guards hold at the log line, its blame tree beside the
highlighted ``.tla`` source (the same tree and source view as ``replay --html``).
"""

from __future__ import annotations

import html
import io
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from tlaconf.replay.result import BlameNode
from tlaconf.report.html import blame_columns, page, write_page
from tlaconf.report.text import blame_tree, source_excerpt
from tlaconf.validate.outcome import Branch, Outcome

_WIDTH = 120
"""Columns of the text when they are not known (not a terminal, no COLUMNS)."""


def write_validation_html(outcome: Outcome, out_dir: str | Path) -> Path:
    """Write ``out_dir/index.html`` for ``outcome``; return its path."""
    return write_page(render_validation(outcome), out_dir)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_validation(o: Outcome) -> str:
    """The page as a string."""
    head = f"{o.module}: {o.result}"
    if o.result != "accepted" and o.failing_entry is not None:
        head += f" at log entry {o.failing_entry}" + (f" ({o.log_line})" if o.log_line else "")
    cls = {"accepted": "v-conforms", "rejected": "v-violation"}.get(o.result, "v-vacuous")
    body = [f'<h1 class="{cls}">{_e(head)}</h1>']
    if o.reason:
        body.append(f'<p class="reason">{_e(o.reason)}</p>')
    files = ", ".join(f"{p}: {n}" for p, n in o.reads) or "none read through Json"
    body.append(f"<p>log: {o.lines_read} line(s) read ({_e(files)}); {o.entries_checked} "
                f"entries checked<br>search: {o.distinct_states} distinct states, depth "
                f"{o.depth}, at most {max(o.alive, default=0)} candidate(s) per entry</p>")
    for i, c in enumerate(o.candidates, 1):
        body.append(f'<section class="trace"><h2>candidate {i} of {len(o.candidates)}</h2>')
        if c.log_line:
            body.append(f'<p class="mono">log line {_e(c.log_line)}</p>')
        if c.revisited:
            body.append(f'<p class="reason">{_e(c.revisited)}</p>')
        body += [_branch(b) for b in c.branches]
        if not c.branches and c.blame is not None:
            body.append(blame_columns(BlameNode.from_blame(c.blame)))
        body.append("</section>")
    body += [f'<p class="v-vacuous">warning: {_e(w)}</p>' for w in o.warnings]
    return page(f"tlaconf validate: {o.module}", body)


def branch_text(b: Branch, width: int | None = None) -> str:
    """A diagnosed branch as ``replay`` prints a blame: the tree with each formula elided
    around the part that failed to fit ``width``, the values it read, and the source of
    the conjunct that failed."""
    node = BlameNode.from_blame(b.blame)
    how = "its guards hold" if b.selected else "its guards do not all hold (the nearest)"
    step = f", step tried: {b.step}" if b.step else ""
    parts: list[RenderableType] = [Text(f"    branch {b.location}: {how}{step}")]
    room = None if width is None else width - 4
    parts.append(Padding(blame_tree(node, room), (0, 0, 0, 4)))
    excerpt = source_excerpt(node.innermost(), room)
    if excerpt is not None:
        parts.append(Padding(excerpt, (0, 0, 0, 4)))
    console = Console(width=width or _WIDTH, no_color=True, highlight=False, emoji=False,
                      file=io.StringIO())
    with console.capture() as captured:
        console.print(Group(*parts))
    return "\n".join(line.rstrip() for line in captured.get().rstrip("\n").splitlines())


def _branch(b: Branch) -> str:
    how = "its guards hold" if b.selected else "its guards do not all hold (the nearest)"
    step = f", step tried: <code>{_e(b.step)}</code>" if b.step else ""
    return (f'<h3>branch <span class="mono">{_e(b.location)}</span>: {how}{step}</h3>'
            f"<p><code>{_e(b.text)}</code></p>"
            + blame_columns(BlameNode.from_blame(b.blame)))
