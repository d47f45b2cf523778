"""Replay many traces on one of two executors (:mod:`tlaconf.replay.executor`): this
process and its worker processes (``-j N``, :class:`Local`), or a Dask cluster
(``--cluster ADDRESS``, :mod:`tlaconf.replay.cluster`, imported only then)."""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from types import ModuleType

from tlaconf.errors import UserError
from tlaconf.replay.engine import PoolObserver, Replayer
from tlaconf.replay.executor import (
    Executor,
    OnResult,
    OnStart,
    OnSteps,
    Settings,
    chunk_indices,
    merge,
    setup,
)
from tlaconf.replay.result import TraceResult
from tlaconf.signals import raise_on_signals

__all__ = ["TRACE_SUFFIX", "Local", "OnResult", "OnStart", "OnSteps", "Settings",
           "check_parallel", "collect_traces", "run_traces", "setup"]

TRACE_SUFFIX = ".trace.jsonl"


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


def check_parallel(jobs: int, cluster: str | None) -> None:
    """UserError unless ``jobs`` (``-j``) is positive, and 1 with a ``cluster``."""
    if jobs < 1:
        raise UserError(f"-j takes a positive number of processes, not {jobs}")
    if cluster is not None and jobs != 1:
        raise UserError(f"--cluster and -j {jobs}: the cluster's workers replay in parallel, "
                        "use one or the other")


def _replay_in_worker(
    paths: Sequence[Path], spec_dir: Path, settings: Settings,
    observers: Sequence[PoolObserver] = (), debug: bool = False,
) -> tuple[list[TraceResult], Sequence[PoolObserver]]:
    """A chunk of traces in a worker process, with one Replayer (modules load once); the
    results and the observers (forks) that rode on it."""
    replayer = setup(settings.backend, settings.cross_check, observers,
                     settings.checker_timeout, debug)
    return [replayer.replay(path, spec_dir, None, settings.revision) for path in paths], observers


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
    """Replay the full traces ``paths`` (results in the same order) on the executor the
    settings choose: :class:`Local` (this process, or ``jobs`` worker processes each
    replaying chunks of traces), or :class:`~tlaconf.replay.cluster.DaskCluster` (the
    workers of the Dask cluster whose scheduler's address is ``cluster``).

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
    executor: Executor
    if cluster is not None:
        assert not isinstance(backend, Replayer)
        settings = Settings(backend, revision, cross_check, checker_timeout)
        executor = _dask().DaskCluster(cluster, replayer, settings)
    elif isinstance(backend, Replayer):
        executor = Local(replayer, revision, on_start=on_start, on_steps=on_steps)
    else:
        executor = Local(replayer, revision, jobs, Settings(backend, revision, cross_check,
                                                            checker_timeout),
                         observers, on_start, on_steps, debug)
    return executor.replay(paths, spec_dir, on_result)


class Local:
    """The :class:`Executor` of this machine: the traces in this process with its
    ``replayer``, or, with ``jobs > 1`` (and ``settings`` to build their Replayers), in
    chunks on worker processes, which SIGINT/SIGTERM stop with the run."""

    def __init__(self, replayer: Replayer, revision: str | None, jobs: int = 1,
                 settings: Settings | None = None, observers: Sequence[PoolObserver] = (),
                 on_start: OnStart | None = None, on_steps: OnSteps | None = None,
                 debug: bool = False) -> None:
        self.replayer = replayer
        self.revision = revision
        self.jobs = jobs if settings is not None else 1
        self.settings = settings
        self.observers = observers
        self.on_start = on_start
        self.on_steps = on_steps
        self.debug = debug

    def replay(self, paths: Sequence[Path], spec_dir: Path,
               on_result: OnResult | None = None) -> list[TraceResult]:
        if self.jobs == 1 or len(paths) <= 1 or self.settings is None:
            return [self._here(p, spec_dir, on_result) for p in paths]
        return self._pool(paths, spec_dir, self.settings, on_result)

    def _here(self, path: Path, spec_dir: Path, on_result: OnResult | None) -> TraceResult:
        if self.on_start is not None:
            self.on_start(path)
        on_steps = self.on_steps
        progress = None if on_steps is None else (lambda n: on_steps(path, n))
        result = self.replayer.replay(path, spec_dir, progress, self.revision)
        if on_result is not None:
            on_result(result)
        return result

    def _pool(self, paths: Sequence[Path], spec_dir: Path, settings: Settings,
              on_result: OnResult | None) -> list[TraceResult]:
        results: list[TraceResult | None] = [None] * len(paths)
        chunks = chunk_indices(len(paths), self.jobs)
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(chunks)),
                                   initializer=raise_on_signals)
        forks: list[Sequence[PoolObserver]] = [()] * len(chunks)
        try:
            futures = {
                pool.submit(_replay_in_worker, [paths[i] for i in chunk], spec_dir, settings,
                            [o.fork() for o in self.observers], self.debug): n
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
            for o, fork in zip(self.observers, observed, strict=True):
                o.join(fork)
        return [r for r in results if r is not None]


def _dask() -> ModuleType:
    """:mod:`tlaconf.replay.cluster`, imported now (it imports Dask); UserError without Dask."""
    try:  # by name: the module (and Dask) is imported afresh when it is not loaded
        cluster = importlib.import_module("tlaconf.replay.cluster")
    except ImportError as err:
        if err.name is None or err.name.split(".")[0] not in ("dask", "distributed"):
            raise
        raise UserError("--cluster needs Dask (dask.distributed), which is not installed: "
                        "pip install 'tlaconf[dask]'") from None
    return cluster
