"""Checking a trace while it is recorded: ``tlaconf.Recorder(..., check=True)``.

Each line the recorder writes is judged at once, by the code that judges a trace file:
a full trace by the step-by-step replay (:class:`~tlaconf.replay.engine.TraceCheck`), a
partial one by the candidate-set search (:class:`~tlaconf.validate.partial.PartialSearch`,
the set of candidate states kept from one event to the next).  The first event that
does not conform raises :class:`ConformanceError` inside the implementation's call that
recorded it, so its traceback is the implementation's stack; the verdict, step and blame
are those ``tlaconf replay`` gives for the file written so far.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tlaconf.errors import UserError
from tlaconf.evaluate import budget
from tlaconf.replay.backend import get_backend
from tlaconf.replay.engine import Replayer, TraceCheck
from tlaconf.replay.result import TraceResult
from tlaconf.spec import lookup
from tlaconf.tla import library as library_path
from tlaconf.trace.models import StateLine, StepLine, TraceHeader, UnlabeledStepLine
from tlaconf.trace.partial import PartialStep, initial_line, step_line
from tlaconf.trace.reader import Step, TraceFormatError, describe_validation_error
from tlaconf.validate.partial import (
    DEFAULT_MAX_CANDIDATES,
    PartialReplay,
    PartialSearch,
    error_result,
    outcome_result,
)
from tlaconf.values import strict_json

__all__ = ["ConformanceError", "OnlineCheck"]


class ConformanceError(Exception):
    """A recorded event the conformance module does not allow (``result.verdict`` is
    ``violation``), or one that could not be checked (``error``: bad input, such as an
    unknown action; undecided: too many candidate states).  ``result`` is the trace's
    result as ``tlaconf replay`` gives it for the file written so far, ``failure`` its
    failure: the log line, the reason and the blame."""

    def __init__(self, result: TraceResult) -> None:
        self.result = result
        self.failure = result.failure
        f = result.failure
        where = f"{result.path}:{f.line}" if f is not None else result.path
        text = f"{where}: {result.verdict}: {f.reason if f is not None else ''}"
        if f is not None and f.blame is not None:
            text += "\n" + _render(f.blame)
        super().__init__(text)


def _render(node: Any, depth: int = 1) -> str:
    """A blame tree as indented text (its values below each node)."""
    pad = "  " * depth
    where = f"  [{node.location}]" if node.location else ""
    lines = [f"{pad}{node.text}  -- {node.reason}{where}"]
    lines += [f"{pad}    {n} = {v}" for n, v in node.bindings]
    lines += [_render(c, depth + 1) for c in node.children]
    return "\n".join(lines)


class OnlineCheck:
    """The check of one trace fed its lines as they are written (``feed``): the header,
    the initial state, then one line per event.  ``path`` is where the trace will be
    (the name its failures carry); ``spec``, ``revision``, ``library``, ``eval_budget``
    and ``max_candidates`` are ``tlaconf.replay``'s."""

    def __init__(self, path: Path, spec: Path | None = None, revision: str | None = None,
                 library: tuple[Path, ...] = (), eval_budget: float | None = None,
                 max_candidates: int = DEFAULT_MAX_CANDIDATES) -> None:
        self.path = path
        self.spec_dir = lookup.resolve_spec_dir(spec)
        self.revision, self.library, self.eval_budget = revision, library, eval_budget
        self.max_candidates = max_candidates
        self.lines = 0
        self.start = time.perf_counter()
        self.full: TraceCheck | None = None
        self.search: PartialSearch | None = None
        self.last: tuple[int, str, PartialStep | None] = (0, "", None)
        self.result: TraceResult | None = None
        """Set once decided: the failure, or (``finish``) the verdict of the whole trace."""

    def feed(self, text: str) -> None:
        """Judge the next line (JSON ``text``); ConformanceError when it fails."""
        if self.result is not None:
            raise ValueError(f"the check of {self.path} is decided: nothing more is judged")
        self.lines += 1
        with library_path.given(self.library), budget.run(self.eval_budget):
            result = self._judge(strict_json.loads(text), text)
        if result is not None:
            self.result = result
            raise ConformanceError(result)

    def finish(self) -> TraceResult:
        """The trace's result once every line is in (conforms, or vacuous without steps)."""
        if self.result is None:
            if self.full is not None:
                self.result = self.full.finished()
            elif self.search is not None:
                o = self.search.out
                o.seconds = time.perf_counter() - self.start
                self.result = outcome_result(self.path, o, None, self._line, o.seconds)
            else:
                raise ValueError("the trace has no initial state: nothing was checked")
        return self.result

    def _line(self, n: int) -> str:
        return self.last[1] if self.last[0] == n else ""

    def _judge(self, obj: Any, text: str) -> TraceResult | None:
        n = self.lines
        self.last = (n, text, None)
        if n == 1:
            header = TraceHeader.model_validate(obj)
            if header.partial:
                return self._partial(lambda: self._start_partial(header))
            full = TraceCheck(Replayer(get_backend("embedded")), self.path, self.spec_dir,
                              self.revision)
            self.full = full
            return self._whole(lambda: full.load(header))
        if self.search is not None:
            search = self.search
            if n == 2:
                def first() -> bool:
                    logged = initial_line(obj, self.path)
                    search.r.check_names(logged, 2)
                    return search.initial(logged)
                return self._partial(first)
            step = step_line(obj, self.path, n)
            self.last = (n, text, step)

            def advance() -> bool:
                search.r.check_names(step.state, n)
                return search.step(step)
            return self._partial(advance)
        whole = self.full
        assert whole is not None
        if n == 2:
            return self._whole(lambda: whole.initial(_model(StateLine, obj, self.path, n).state))
        return self._whole(lambda: whole.step(_full_step(obj, self.path, n)))

    def _start_partial(self, header: TraceHeader) -> bool:
        r = PartialReplay(header, self.path, self.spec_dir, self.revision)
        self.search = PartialSearch(r, self.max_candidates)
        return True

    def _partial(self, judge: Callable[[], bool]) -> TraceResult | None:
        try:
            if judge():
                return None
        except UserError as err:
            return error_result(self.path, err, time.perf_counter() - self.start)
        assert self.search is not None
        o = self.search.out
        o.seconds = time.perf_counter() - self.start
        return outcome_result(self.path, o, self.last[2], self._line, o.seconds)

    def _whole(self, judge: Callable[[], object]) -> TraceResult | None:
        assert self.full is not None
        try:
            judge()
        except Exception as exc:  # a failure, bad input or a bug: as the file's replay says
            return self.full.stopped(exc)
        return None


def _model(model: Any, obj: Any, path: Path, n: int) -> Any:
    try:
        return model.model_validate(obj)
    except ValidationError as err:
        raise TraceFormatError(describe_validation_error(err), path, n) from None


def _full_step(obj: Any, path: Path, n: int) -> Step:
    if isinstance(obj, dict) and "action" not in obj and "params" not in obj:
        u = _model(UnlabeledStepLine, obj, path, n)
        return Step(n, None, None, u.outcome, u.state)
    m = _model(StepLine, obj, path, n)
    return Step(n, m.action, m.params, m.outcome, m.state)
