"""Progress of a long run, on a terminal only.

A progress display goes to stderr while ``validate``, ``replay``, ``gate``, ``mbt`` or
``explore`` runs, is rewritten in place and erased at the end; the report itself goes
to stdout as without it.  It is shown only when stderr is a terminal and the command
prints no ``--json`` document: a CI log or a pipe gets the report alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

__all__ = ["ExamplesProgress", "StatusLine", "log_lines_text", "on_terminal",
           "trace_spec_text"]


def on_terminal(json: bool = False) -> bool:
    """Whether to show progress: stderr is a terminal and no ``--json`` document is
    printed."""
    return not json and sys.stderr.isatty()


def _console() -> Console:
    return Console(stderr=True)


class StatusLine:
    """One line on stderr (a spinner, ``show``'s text, the time elapsed), rewritten in
    place and erased on exit; every call is a no-op unless ``enabled``."""

    def __init__(self, enabled: bool, text: str = "") -> None:
        self._progress = (Progress(SpinnerColumn(), TextColumn("{task.description}"),
                                   TimeElapsedColumn(), console=_console(), transient=True)
                          if enabled else None)
        self._text = text
        self._task: TaskID | None = None

    def __enter__(self) -> StatusLine:
        if self._progress is not None:
            self._progress.start()
            self._task = self._progress.add_task(self._text, total=None)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def show(self, text: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=text)


def trace_spec_text(level: int, alive: int, distinct: int, log_lines: int) -> str:
    """A TLC trace spec's search after ``level`` (log entry ``level`` is explained by
    the steps out of it): the log lines consumed of those read, the candidate states
    of the next level, the distinct states so far."""
    done = min(level, log_lines) if log_lines else level
    of = f" of {log_lines:,}" if log_lines else ""
    return (f"log line {done:,}{of}, {alive:,} candidate state{'s' * (alive != 1)} "
            f"alive, {distinct:,} distinct states")


def log_lines_text(line: int, total: int, alive: int) -> str:
    """A partial trace after log line ``line`` of ``total``, ``alive`` candidates."""
    return (f"log line {line:,} of {total:,}, {alive:,} candidate state"
            f"{'s' * (alive != 1)} alive")


class ExamplesProgress:
    """``mbt``: a bar of the examples run of ``examples`` per driver, with the steps
    taken; every call is a no-op unless ``enabled``."""

    def __init__(self, enabled: bool, examples: int) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[steps]:,} steps"), TimeElapsedColumn(),
            console=_console(), transient=True, disable=not enabled)
        self.examples = examples

    def __enter__(self) -> ExamplesProgress:
        self._progress.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._progress.stop()

    @contextmanager
    def driver(self, module: str) -> Iterator[Callable[[int, int], None]]:
        """A bar for the driver of ``module`` while it runs; yields ``update(examples,
        steps)``."""
        task = self._progress.add_task(f"mbt {module}", total=self.examples, steps=0)

        def update(examples: int, steps: int) -> None:
            self._progress.update(task, completed=min(examples, self.examples), steps=steps)

        try:
            yield update
        finally:
            self._progress.remove_task(task)
