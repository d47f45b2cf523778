"""Where the traces of a run are replayed: an :class:`Executor`, in this process and its
worker processes (``-j N``, :class:`tlaconf.replay.runner.Local`) or on the workers of a
Dask cluster (``--cluster``, :class:`tlaconf.replay.cluster.DaskCluster`), and what both
share: the :class:`Settings` of a run, the Replayer they build, the chunks and the merge of
their results in the order of the traces."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tlaconf.errors import UserError
from tlaconf.replay.backend import CHECKERS, get_backend, get_checker
from tlaconf.replay.engine import Replayer, StepObserver
from tlaconf.replay.result import TraceResult

OnStart = Callable[[Path], None]
OnSteps = Callable[[Path, int], None]
OnResult = Callable[[TraceResult], None]


class Executor(Protocol):
    """Replays the traces of a run somewhere."""

    def replay(self, paths: Sequence[Path], spec_dir: Path,
               on_result: OnResult | None = None) -> list[TraceResult]:
        """The results of ``paths`` against the spec in ``spec_dir``, in their order;
        ``on_result`` is told each result as it comes."""
        ...


def setup(backend: str, cross_check: str | None = None,
          observers: Sequence[StepObserver] = (), timeout: float | None = None,
          debug: bool = False) -> Replayer:
    """A :class:`Replayer` with the evaluating backend, the external checker (if any) and
    whether to cross-check; UserError when one is unavailable.

    ``--backend tlc|apalache``: the checker decides, the embedded evaluator explains;
    ``--cross-check C``: ``backend`` and C both decide every trace; ``timeout``
    (``--checker-timeout``): the checker's seconds per trace.  The Replayer's one
    checker serves every trace it replays (one Apalache server for a run).  ``debug``
    (``--debug``): an internal error's traceback is printed to stderr too.
    """
    if timeout is not None and backend not in CHECKERS and cross_check is None:
        raise UserError("--checker-timeout limits an external checker: use it with "
                        f"--backend {' or '.join(CHECKERS)} or --cross-check")  # fmt: skip
    if backend in CHECKERS:
        if cross_check is not None:
            raise UserError(
                "--cross-check compares the embedded evaluator with a checker: "
                f"use it without --backend {backend}"
            )
        return Replayer(get_backend("embedded"), get_checker(backend, timeout), False,
                        observers, debug)
    if cross_check is not None:
        return Replayer(get_backend(backend), get_checker(cross_check, timeout), True,
                        observers, debug)
    return Replayer(get_backend(backend), None, False, observers, debug)


@dataclass(frozen=True, slots=True)
class Settings:
    """What a worker needs to build the :class:`Replayer` of a run (see :func:`setup`)."""

    backend: str
    revision: str | None = None
    cross_check: str | None = None
    checker_timeout: float | None = None

    def replayer(self) -> Replayer:
        return setup(self.backend, self.cross_check, timeout=self.checker_timeout)


def merge(results: list[TraceResult | None], chunk: Sequence[int],
          done: Sequence[TraceResult], on_result: OnResult | None) -> None:
    """Put a chunk's results in their places (``chunk``: their indices), telling ``on_result``."""
    for i, result in zip(chunk, done, strict=True):
        results[i] = result
        if on_result is not None:
            on_result(result)


def chunk_indices(count: int, jobs: int) -> list[list[int]]:
    """``range(count)`` in about ``CHUNKS_PER_JOB * jobs`` consecutive chunks."""
    size = max(1, -(-count // (jobs * CHUNKS_PER_JOB)))
    return [list(range(i, min(i + size, count))) for i in range(0, count, size)]


CHUNKS_PER_JOB = 4
"""With ``-j N``, the traces go to the workers in about ``4 N`` chunks: few enough that a
module loads a few times per worker, enough to balance the load."""
