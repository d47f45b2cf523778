"""Recording what an implementation did as a trace tlaconf checks: ``Recorder``.

The implementation calls the recorder where it acts; the recorder maps each of its
states onto the conformance module's variables with the **refinement mapping** the user
gives (a function) and writes one line per event.  A full trace logs every variable
after every event; a **partial** trace logs what the implementation knows cheaply (some
variables, and ``Some`` keys of a function or record, nested as deep as needed),
and tlaconf searches for the spec states consistent with it.

The file is written deterministically (sets, maps and variables in canonical order: the
same calls give the same bytes) and atomically: it appears under its name only when the
recorder is closed (the end of its ``with`` block) without an exception.

>>> import tlaconf
>>> with tlaconf.Recorder(tmp / "run.trace.jsonl", "Account",
...                       refine=lambda acct: {"balance": acct["balance"]},
...                       constants={"Limit": 100}) as rec:
...     rec.init({"balance": 0, "owner": "ann"})
...     rec.accepted("Deposit", {"amount": 5}, {"balance": 5, "owner": "ann"})
...     rec.rejected("Withdraw", {"amount": 9}, {"balance": 5, "owner": "ann"})
>>> print((tmp / "run.trace.jsonl").read_text().splitlines()[2])
{"action": "Deposit", "params": {"amount": 5}, "outcome": "accepted", "state": {"balance": 5}}
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, overload

from tlaconf.trace.writer import Outcome, Some, TraceWriter

if TYPE_CHECKING:
    from tlaconf.replay.result import TraceResult
    from tlaconf.validate.online import OnlineCheck

__all__ = ["Observe", "Outcome", "Recorder", "Refine", "Some", "refined"]

S = TypeVar("S")
"""The implementation's state, as the recorder is given it."""

Refine = Callable[[S], Mapping[str, Any]]
"""The refinement mapping: an implementation state -> the module's variables (their
values as TLA+ values or plain Python data: ``set``, ``frozenset``, ``tuple``, ``list``
(a sequence), ``dict`` (a function), ``bool``, ``int``, ``str``)."""

Observe = Callable[[str | None, Mapping[str, Any], S], Mapping[str, Any]]
"""What one event logs (partial traces): ``(action or None, params, state after)`` -> some
of the variables, ``Some({...})`` for some keys of one."""


def refined(state: S, refine: Refine[S] | None) -> Mapping[str, Any]:
    """``state`` mapped onto the module's variables by ``refine`` (None: ``state`` already
    is that mapping), as the recorder maps every state it records; TypeError when the
    result is not a mapping of variables to values."""
    mapped = state if refine is None else refine(state)
    if not isinstance(mapped, Mapping):
        what = "the state" if refine is None else "refine(state)"
        raise TypeError(f"{what} must map the module's variables to values, "
                        f"not {type(mapped).__name__}")
    return mapped


class Recorder(Generic[S]):
    """Record one trace of conformance module ``module`` at ``path``.

    ``refine`` maps an implementation state onto the module's variables (default: the
    state already is that mapping).  With ``partial=True``, or an ``observe`` function,
    the trace is partial: the initial state is ``refine``'s, and each event logs what
    ``observe(action, params, state)`` returns (without ``observe``, what ``refine``
    returns, which may then give some variables only and ``Some`` values).
    ``constants`` are the module's CONSTANT values, ``revision`` the profile revision the
    header names (``"1"`` for a spec without revisions), ``meta`` free-form data (a seed,
    the implementation's version).  ValueError for a value that is not a TLA+ value, a
    name that is not a TLA+ identifier, or calls out of order (a step before ``init``).

    With ``check=True`` every event is checked as it is recorded, full or partial, by
    the code ``tlaconf.replay`` checks the file with (the candidate states of a partial
    trace kept from one event to the next): the first event that does not conform
    raises ``tlaconf.ConformanceError`` (its ``failure``: the log line, the reason, the
    blame) from the call that recorded it, with the implementation's stack, and the
    trace up to that event is written.  ``spec`` (the spec folder), ``library``,
    ``eval_budget`` and ``max_candidates`` are ``tlaconf.replay``'s; ``result`` is the
    verdict.
    """

    @overload
    def __init__(
        self: Recorder[Mapping[str, Any]],
        path: str | os.PathLike[str],
        module: str,
        refine: None = None,
        *,
        observe: Observe[Mapping[str, Any]] | None = None,
        partial: bool | None = None,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = "1",
        check: bool = False,
        spec: str | os.PathLike[str] | None = None,
        library: Sequence[str | os.PathLike[str]] = (),
        eval_budget: float | None = None,
        max_candidates: int = 1000,
    ) -> None: ...

    @overload
    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        refine: Refine[S],
        *,
        observe: Observe[S] | None = None,
        partial: bool | None = None,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = "1",
        check: bool = False,
        spec: str | os.PathLike[str] | None = None,
        library: Sequence[str | os.PathLike[str]] = (),
        eval_budget: float | None = None,
        max_candidates: int = 1000,
    ) -> None: ...

    def __init__(
        self,
        path: str | os.PathLike[str],
        module: str,
        refine: Refine[Any] | None = None,
        *,
        observe: Observe[Any] | None = None,
        partial: bool | None = None,
        constants: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        revision: str = "1",
        check: bool = False,
        spec: str | os.PathLike[str] | None = None,
        library: Sequence[str | os.PathLike[str]] = (),
        eval_budget: float | None = None,
        max_candidates: int = 1000,
    ) -> None:
        if partial is False and observe is not None:
            raise ValueError("observe= logs some variables per event: a partial trace "
                             "(leave partial unset or True)")
        self.refine = refine
        self.observe = observe
        self.partial = observe is not None if partial is None else partial
        self._lock = threading.Lock()
        self.check: OnlineCheck | None = None
        """The online check (``check=True``), else None."""
        if check:
            from tlaconf.validate.online import OnlineCheck

            self.check = OnlineCheck(
                Path(path), None if spec is None else Path(spec), None,
                tuple(Path(p) for p in library), eval_budget, max_candidates)
        feed = None if self.check is None else self.check.feed
        self.writer = TraceWriter(path, module, revision, constants, meta,
                                  partial=self.partial, on_line=feed)
        """The ``TraceWriter`` underneath, to write an
        already-mapped line (``rec.writer.unlabeled_step({...})``)."""

    @property
    def path(self) -> Path:
        """Where the trace appears once the recorder is closed."""
        return self.writer.path

    @property
    def result(self) -> TraceResult | None:
        """With ``check=True``: the trace's result (as ``tlaconf.replay`` gives it) once
        the recorder is closed or an event failed; else None."""
        if self.check is None:
            return None
        if self.check.result is None and self.writer.closed:
            return self.check.finish()
        return self.check.result

    @property
    def steps(self) -> int:
        """How many steps were recorded so far."""
        return self.writer.steps

    def _logged(self, action: str | None, params: Mapping[str, Any], state: S
                ) -> Mapping[str, Any]:
        if self.observe is None:
            return refined(state, self.refine)
        logged = self.observe(action, params, state)
        if not isinstance(logged, Mapping):
            raise TypeError(f"observe(...) must map variables to what the event logs, not "
                            f"{type(logged).__name__}")
        return logged

    def _emit(self, write: Callable[[], None]) -> None:
        """Write a line (one at a time across threads); when the online check fails on
        it, the trace so far is closed into place before its ConformanceError goes up."""
        with self._lock:
            try:
                write()
            except BaseException:
                if self.check is not None and self.check.result is not None:
                    self.writer.close()
                raise

    def init(self, state: S) -> None:
        """Record the initial state (once, before any event)."""
        mapped = refined(state, self.refine)
        self._emit(lambda: self.writer.init(mapped))

    def record(self, action: str, params: Mapping[str, Any], outcome: Outcome,
               state: S) -> None:
        """Record one request (``action`` with ``params``), whether the implementation
        ``accepted`` or ``rejected`` it, and its state after."""
        logged = self._logged(action, params, state)
        self._emit(lambda: self.writer.step(action, params, outcome, logged))

    def accepted(self, action: str, params: Mapping[str, Any], state: S) -> None:
        """Record a request the implementation carried out, and its new state."""
        self.record(action, params, "accepted", state)

    def rejected(self, action: str, params: Mapping[str, Any], state: S) -> None:
        """Record a request the implementation refused, and its state after refusing
        (a correct implementation left it unchanged)."""
        self.record(action, params, "rejected", state)

    def unlabelled(self, state: S, outcome: Outcome = "accepted") -> None:
        """Record an event whose action the implementation does not know (checked against
        the module's ``Next``)."""
        logged = self._logged(None, {}, state)
        self._emit(lambda: self.writer.unlabeled_step(logged, outcome))

    def close(self) -> None:
        """Finish the trace: it appears at ``path`` (with ``check=True``, ``result`` is
        then the whole trace's)."""
        with self._lock:
            self.writer.close()

    def abort(self) -> None:
        """Drop the trace: nothing appears at ``path``."""
        self.writer.abort()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.writer.__exit__(exc_type, exc, tb)
