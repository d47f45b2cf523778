"""Replay many traces, in this process, on N worker processes (``-j N``) or on a Dask
cluster (``--cluster ADDRESS``, :mod:`tlaconf.replay.cluster`, imported only then)."""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from tlaconf.errors import UserError
from tlaconf.replay.backend import CHECKERS, get_backend, get_checker
from tlaconf.replay.engine import PoolObserver, Replayer, StepObserver
from tlaconf.replay.result import TraceResult
from tlaconf.signals import raise_on_signals

TRACE_SUFFIX = ".trace.jsonl"

OnStart = Callable[[Path], None]
OnSteps = Callable[[Path, int], None]
OnResult = Callable[[TraceResult], None]


def collect_traces(args: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Trace files named on the command line; a directory stands for its ``*.trace.jsonl``."""
    paths: list[Path] = []
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            found = sorted(path.rglob(f"*{TRACE_SUFFIX}"))
            if not found:
                raise UserError(f"no *{TRACE_SUFFIX} files under {path}")
            paths.extend(found)
        elif path.exists():
            paths.append(path)
        else:
            raise UserError(f"trace {path} does not exist")
    return paths


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


def check_parallel(jobs: int, cluster: str | None) -> None:
    """UserError unless ``jobs`` (``-j``) is positive, and 1 with a ``cluster``."""
    if jobs < 1:
        raise UserError(f"-j takes a positive number of processes, not {jobs}")
    if cluster is not None and jobs != 1:
        raise UserError(f"--cluster and -j {jobs}: the cluster's workers replay in parallel, "
                        "use one or the other")


def _replay_in_worker(
    paths: Sequence[Path], spec_dir: Path, backend: str, revision: str | None,
    cross_check: str | None, timeout: float | None = None,
    observers: Sequence[PoolObserver] = (), debug: bool = False,
) -> tuple[list[TraceResult], Sequence[PoolObserver]]:
    """A chunk of traces in a worker process, with one Replayer (modules load once); the
    results and the observers (forks) that rode on it."""
    replayer = setup(backend, cross_check, observers, timeout, debug)
    return [replayer.replay(path, spec_dir, None, revision) for path in paths], observers


def _stop(workers: set[multiprocessing.process.BaseProcess]) -> None:
    """SIGTERM to each worker (it unwinds as the parent does: its checker's files and
    child processes go), then wait for them."""
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(5)
        if worker.is_alive():
            worker.kill()
            worker.join()


def run_traces(
    paths: Sequence[Path],
    spec_dir: Path,
    backend: str | Replayer = "embedded",
    jobs: int = 1,
    on_start: OnStart | None = None,
    on_steps: OnSteps | None = None,
    on_result: OnResult | None = None,
    revision: str | None = None,
    cross_check: str | None = None,
    checker_timeout: float | None = None,
    observers: Sequence[PoolObserver] = (),
    debug: bool = False,
    cluster: str | None = None,
) -> list[TraceResult]:
    """Replay ``paths`` (results in the same order); ``jobs > 1`` uses worker processes,
    each replaying chunks of traces; ``cluster`` (a scheduler's address) the workers of
    a Dask cluster instead.

    ``backend``: a backend's name, or a :class:`Replayer` (in this process only: then
    ``cross_check`` is its own).  ``revision`` replaces the revision each trace's header
    names; ``checker_timeout`` is the external checker's seconds per trace.  The
    callbacks feed a progress display: ``on_steps`` (steps replayed so far in one trace)
    is only called when replaying in this process.  ``observers`` ride on the replays
    (a Replayer has its own): with ``jobs > 1`` each chunk's forks are joined back in
    the order of the traces.  ``debug``: see :func:`setup`.
    """
    check_parallel(jobs, cluster)
    if isinstance(backend, Replayer) and (observers or debug):
        raise ValueError("a Replayer has its own observers and settings")
    if cluster is not None and (isinstance(backend, Replayer) or observers):
        raise ValueError("a cluster replays elsewhere: pass the backend's name, no observers")
    replayer = (backend if isinstance(backend, Replayer)
                else setup(backend, cross_check, observers, checker_timeout, debug))  # fmt: skip
    if cluster is not None:
        assert not isinstance(backend, Replayer)
        return _cluster().replay_on_cluster(
            paths, spec_dir, cluster, replayer,
            Settings(backend, revision, cross_check, checker_timeout), on_result)
    results: list[TraceResult | None] = [None] * len(paths)
    if jobs == 1 or len(paths) <= 1 or isinstance(backend, Replayer):
        for i, path in enumerate(paths):
            if on_start is not None:
                on_start(path)
            progress = None if on_steps is None else (lambda n, p=path: on_steps(p, n))
            results[i] = result = replayer.replay(path, spec_dir, progress, revision)
            if on_result is not None:
                on_result(result)
    else:
        chunks = chunk_indices(len(paths), jobs)
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(chunks)),
                                   initializer=raise_on_signals)
        forks: list[Sequence[PoolObserver]] = [()] * len(chunks)
        try:
            futures = {
                pool.submit(_replay_in_worker, [paths[i] for i in chunk], spec_dir, backend,
                            revision, cross_check, checker_timeout,
                            [o.fork() for o in observers], debug): n
                for n, chunk in enumerate(chunks)
            }
            for future in as_completed(futures):
                n = futures[future]
                done, forks[n] = future.result()
                merge(results, chunks[n], done, on_result)
        except BaseException:  # SIGINT/SIGTERM or a failure: stop the workers now
            pool.shutdown(wait=False, cancel_futures=True)
            _stop(set(multiprocessing.active_children()) - before)
            raise
        pool.shutdown()
        for observed in forks:
            for o, fork in zip(observers, observed, strict=True):
                o.join(fork)
    return [r for r in results if r is not None]


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


@dataclass(frozen=True, slots=True)
class Settings:
    """What a worker needs to build the :class:`Replayer` of a run (see :func:`setup`)."""

    backend: str
    revision: str | None = None
    cross_check: str | None = None
    checker_timeout: float | None = None

    def replayer(self) -> Replayer:
        return setup(self.backend, self.cross_check, timeout=self.checker_timeout)


def _cluster() -> ModuleType:
    """:mod:`tlaconf.replay.cluster`, imported now (it imports Dask); UserError without Dask."""
    try:
        return importlib.import_module("tlaconf.replay.cluster")
    except ImportError as err:
        if err.name is None or err.name.split(".")[0] not in ("dask", "distributed"):
            raise
        raise UserError("--cluster needs Dask (dask.distributed), which is not installed: "
                        "pip install 'tlaconf[dask]'") from None


CHUNKS_PER_JOB = 4
"""With ``-j N``, the traces go to the workers in about ``4 N`` chunks: few enough that a
module loads a few times per worker, enough to balance the load."""
