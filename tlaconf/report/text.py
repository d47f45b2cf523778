"""The report a person reads: progress, a summary table, and a panel per failure.

Colour and the progress display appear only on a terminal; ``NO_COLOR`` turns
colour off (rich honours it).  Off a terminal the output is plain text.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from tlaconf.environment import columns
from tlaconf.replay.result import (
    BlameNode,
    Change,
    TraceResult,
    Witness,
    exit_code,
    invariant_names,
    warnings,
)

VERDICT_STYLE = {
    "conforms": "green",
    "violation": "bold red",
    "vacuous": "yellow",
    "error": "bold magenta",
    "crash": "bold red",
}
_PLAIN_WIDTH = 120
_MAX_SOURCE_LINES = 6
_MAX_FORMULA = 160
_MAX_VALUE = 240
_MAX_TITLE_PATH = 56


def make_console(file: IO[str] | None = None, width: int | None = None) -> Console:
    """A console on ``file`` (stdout): rich on a terminal, plain text elsewhere; ``width``
    (say pytest's terminal width) overrides the detected one."""
    out = file if file is not None else sys.stdout
    probe = Console(file=out, width=width)
    if probe.is_terminal:
        return probe
    if width is None:
        width = columns() or _PLAIN_WIDTH
    return Console(file=out, width=width, no_color=True, highlight=False, emoji=False)


def elide(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` characters by an ellipsis in the middle (paths keep
    their first folders and their file name)."""
    if len(text) <= limit:
        return text
    if limit < 5:
        return text[-limit:]
    name = "/" + text.rsplit("/", 1)[-1]
    tail = len(name) if len(name) + 4 <= limit else (limit - 1) * 2 // 3
    return text[: limit - 1 - tail] + "…" + text[len(text) - tail:]


def _verdict(verdict: str) -> Text:
    return Text(verdict, style=VERDICT_STYLE.get(verdict, ""))


def against(revision: str | None) -> str:
    """How a report says the run was given ``--revision R`` ("" when it was not)."""
    if revision is None:
        return ""
    return f"against revision {revision} of the profile (--revision), not the traces' own"


def summary_table(
    results: Sequence[TraceResult], revision: str | None = None, width: int | None = None
) -> Table:
    """One row per trace: trace, module, steps, verdict, time.  With ``width`` (the
    console's), long trace paths are elided in the middle so that the verdict is never cut."""
    title = f"replay {against(revision)}".rstrip()
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    rows: list[tuple[str, str, str, Text, str]] = []
    for r in results:
        where = "" if r.failure is None or r.verdict == "conforms" else f" @ {r.failure.step}"
        rows.append((r.path, r.module or "?", str(r.steps), _verdict(r.verdict) + where,
                     f"{r.seconds:.2f}s"))
    limit = None
    if width is not None and rows:
        others = [max(len(str(row[i])) for row in [("", "module", "steps", "verdict", "time"),
                                                     *rows]) for i in range(1, 5)]
        limit = max(width - sum(others) - 3 * 5 - 1, 16)  # cell padding and edges
    def least(i: int, head: str) -> int:
        return max([len(head), *(len(str(row[i])) for row in rows)])

    table.add_column("trace", no_wrap=True)
    table.add_column("module", no_wrap=True)
    table.add_column("steps", justify="right", no_wrap=True, min_width=least(2, "steps"))
    table.add_column("verdict", no_wrap=True, min_width=least(3, "verdict"))
    table.add_column("time", justify="right", no_wrap=True, min_width=least(4, "time"))
    for path, module, steps, verdict, seconds in rows:
        shown = path if limit is None else elide(path, limit)
        table.add_row(shown, module, steps, verdict, seconds)
    return table


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def around(text: str, part: str, limit: int) -> str:
    """``text`` (whitespace collapsed) in at most ``limit`` characters: whole when it fits,
    else elided on both sides of ``part`` (the failing sub-formula) when it holds it, else
    clipped at the end."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    part = " ".join(part.split())
    at = text.find(part) if part else -1
    if at < 0 or limit < 8:
        return _clip(text, limit)
    if len(part) + 2 >= limit:
        return "…" + _clip(part, limit - 1)
    room = limit - len(part) - 2  # an ellipsis on each side
    before = min(at, room // 2)
    after = min(len(text) - at - len(part), room - before)
    before = min(at, room - after)
    start, end = at - before, at + len(part) + after
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


_GUIDE = 4
"""Columns a rich tree indents each level by."""


def blame_tree(blame: BlameNode, width: int | None = None) -> Tree:
    """The blame as a rich tree: each sub-formula, why it failed, where, the values it used.

    With ``width`` (the columns it is printed in), each formula fits its line: a long
    conjunction is elided around the part that failed (its first child); without, long
    formulas are clipped.  Values are clipped too; the JSON report has both whole.
    """

    def label(node: BlameNode, depth: int) -> Text:
        room = _MAX_FORMULA if width is None else max(width - _GUIDE * depth, 24)
        part = node.children[0].text if node.children else ""
        text = Text(around(node.text, part, room), style="bold")
        text.append(f"  {node.reason}", style="red")
        if node.location:
            text.append(f"  {node.location}", style="dim")
        for name, value in node.bindings:
            text.append("\n  ")
            text.append(name, style="cyan")
            shown = _MAX_VALUE if width is None else max(room - len(name) - 5, 16)
            text.append(f" = {_clip(value, min(shown, _MAX_VALUE))}")
        return text

    def grow(tree: Tree, node: BlameNode, depth: int) -> None:
        for child in node.children:
            grow(tree.add(label(child, depth + 1)), child, depth + 1)

    root = Tree(label(blame, 0))
    grow(root, blame, 0)
    return root


def _window(src: str, start: int, end: int, room: int) -> tuple[str, int, int]:
    """``src`` cut to about ``room`` characters around ``[start, end)``, an ellipsis where
    it was cut, and the span's offsets in the cut text."""
    if len(src) <= room or room < 8:
        return src, start, end
    keep = max(room - 2, end - start)
    left = max(0, min(start - (keep - (end - start)) // 2, len(src) - keep))
    right = min(len(src), left + keep)
    head = "…" if left > 0 else ""
    cut = head + src[left:right] + ("…" if right < len(src) else "")
    return cut, start - left + len(head), end - left + len(head)


def source_excerpt(node: BlameNode, width: int | None = None) -> Text | None:
    """The lines of ``node``'s span (a ``.tla`` file, or a trace's log line), the span
    highlighted (and underlined by carets); with ``width``, a line longer than it is cut
    around the span."""
    if not node.file or node.line <= 0:
        return None
    try:
        lines = Path(node.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    last = min(max(node.end_line, node.line), node.line + _MAX_SOURCE_LINES - 1, len(lines))
    if node.line > len(lines):
        return None
    out = Text()
    out.append(f"{node.file}\n", style="dim")
    number = len(str(last))
    for n in range(node.line, last + 1):
        src = lines[n - 1]
        start = node.col - 1 if n == node.line else len(src) - len(src.lstrip())
        end = node.end_col if n == node.end_line else len(src)
        start, end = max(start, 0), max(min(end, len(src)), start + 1)
        if width is not None:
            src, start, end = _window(src, start, end, width - number - 3)
        out.append(f"{n:>{number}} | ", style="dim")
        out.append(src[:start])
        out.append(src[start:end], style="bold red reverse")
        out.append(src[end:] + "\n")
        if n == node.line and node.end_line <= node.line:
            out.append(" " * (number + 3 + start) + "^" * (end - start) + "\n", style="red")
    out.rstrip()
    return out


def diff_table(
    changes: Sequence[Change], title: str = "state diff (s -> s')", after: str = "s'"
) -> Table:
    """What changed from s to ``after`` (only the variables and keys that differ)."""
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    table.add_column("variable / key", style="cyan", overflow="fold")
    table.add_column("s", overflow="fold")
    table.add_column(after, overflow="fold")
    for c in changes:
        table.add_row(c.path, c.before or "(absent)", c.after or "(absent)")
    return table


def witness_part(witness: Witness) -> Group:
    """The successor the spec allows from s (as a diff) and the guards that held."""
    parts: list[RenderableType] = [diff_table(
        witness.diff, "witness: a successor the spec allows from s", "allowed s'")]
    if witness.guards:
        guards = Text("guards that held in s:", style="bold")
        for g in witness.guards:
            guards.append(f"\n  {_clip(g, _MAX_FORMULA)}")
        parts.append(guards)
    return Group(*parts)


def render_failure(result: TraceResult) -> FailurePanel:
    """The panel of one failing trace: step, action and params, blame, source, state diff,
    laid out for the width it is printed in."""
    return FailurePanel(result)


class FailurePanel:
    """A failing trace's panel; its blame and source lines fit the console it is printed
    on (long formulas elided around the failing part, long lines around the span)."""

    def __init__(self, result: TraceResult) -> None:
        self.result = result

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.panel(options.max_width)

    def panel(self, width: int | None = None) -> Panel:
        """The panel for ``width`` columns (None: formulas clipped, lines whole)."""
        result = self.result
        f = result.failure
        assert f is not None
        inner = None if width is None else width - 4  # the panel's border and padding
        parts: list[RenderableType] = []
        head = Text()
        head.append("step ", style="bold")
        head.append(f"{f.step}" + (" (initial state)" if f.step == 0 else ""))
        head.append(f"   line {f.line}", style="dim")
        parts.append(head)
        if f.call is not None:
            parts.append(Text.assemble(("action ", "bold"), f.call))
        parts.append(Text.assemble(("reason ", "bold"), (f.reason, "red")))
        if f.blame is not None:
            parts.append(Text("blame", style="bold"))
            parts.append(blame_tree(f.blame, inner))
            shown: set[tuple[str, int]] = set()
            for node in (f.blame, f.blame.innermost()):
                if (node.file, node.line) in shown:
                    continue
                shown.add((node.file, node.line))
                excerpt = source_excerpt(node, inner)
                if excerpt is not None:
                    parts.append(excerpt)
        if f.diff:
            parts.append(diff_table(f.diff))
        if f.witness is not None:
            parts.append(witness_part(f.witness))
        title = Text.assemble(elide(result.path, _MAX_TITLE_PATH), "  ",
                              _verdict(result.verdict))
        return Panel(Group(*parts), title=title, title_align="left", box=box.ROUNDED)


def render_report(
    console: Console, results: Sequence[TraceResult], revision: str | None = None,
    strict: bool = False,
) -> None:
    """Summary table, a panel for every trace that did not conform, the invariants checked
    per module, the warnings, then a total line (saying so when the run was given
    ``--revision``; FAILED on a warning when ``strict``)."""
    console.print(summary_table(results, revision, console.width))
    for r in results:
        if r.verdict != "conforms" and r.failure is not None:
            console.print(render_failure(r))
    counts = {v: sum(r.verdict == v for r in results) for v in VERDICT_STYLE}
    line = Text(f"{len(results)} trace(s), {sum(r.steps for r in results)} step(s), "
                f"{sum(r.states for r in results)} state(s) seen")
    line.append(f" {against(revision)}: " if revision else ": ")
    line += Text(", ").join(
        Text(f"{n} {v}", style=VERDICT_STYLE[v]) for v, n in counts.items() if n
    )
    names = invariant_names(results)
    if names:
        console.print("invariants checked in every state: " + "; ".join(
            f"{module} {len(found)}" + (f" ({', '.join(found)})" if found else "")
            for module, found in names.items()))
    for text in warnings(results):
        console.print(Text(f"warning: {text}", style="yellow"))
    code = exit_code(results, strict)
    if code == 0:
        line.append("  OK", style="bold green")
    else:
        line.append("  FAILED", style="bold red")
    console.print(line)


class ProgressDisplay:
    """A progress bar over traces and over the steps of the current trace (terminal only)."""

    def __init__(self, console: Console, traces: int) -> None:
        self.enabled = console.is_terminal
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._traces: TaskID | None = None
        self._steps: TaskID | None = None
        self._total = traces

    def __enter__(self) -> ProgressDisplay:
        if self.enabled:
            self._progress.start()
            self._traces = self._progress.add_task("traces", total=self._total, rate="")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled:
            self._progress.stop()

    def on_start(self, path: Path) -> None:
        if not self.enabled:
            return
        if self._steps is not None:
            self._progress.remove_task(self._steps)
        self._steps = self._progress.add_task(f"  {path.name}", total=None, rate="")

    def on_steps(self, path: Path, steps: int) -> None:
        if self.enabled and self._steps is not None:
            speed = next(t.speed for t in self._progress.tasks if t.id == self._steps)
            rate = f"{speed:,.0f} steps/s" if speed else ""
            self._progress.update(self._steps, completed=steps, rate=rate)

    def on_result(self, result: TraceResult) -> None:
        if self.enabled and self._traces is not None:
            self._progress.advance(self._traces)
