"""Replay many traces, in this process or on N worker processes (``-j N``)."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.replay.backend import CHECKERS, Backend, ExternalChecker, get_backend, get_checker
from tlaconf.replay.engine import replay_trace
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


_BACKENDS: dict[str, Backend] = {}


def _backend(name: str) -> Backend:
    backend = _BACKENDS.get(name)
    if backend is None:
        backend = _BACKENDS[name] = get_backend(name)
    return backend


_CHECKERS: dict[str, ExternalChecker] = {}


def _checker(name: str) -> ExternalChecker:
    checker = _CHECKERS.get(name)
    if checker is None:
        checker = _CHECKERS[name] = get_checker(name)
    return checker


Setup = tuple[Backend, ExternalChecker | None, bool]


def setup(backend: str, cross_check: str | None = None) -> Setup:
    """The evaluating backend, the external checker (if any) and whether to cross-check.

    ``--backend tlc|apalache``: the checker decides, the embedded evaluator explains;
    ``--cross-check C``: ``backend`` and C both decide every trace.
    """
    if backend in CHECKERS:
        if cross_check is not None:
            raise UserError(
                "--cross-check compares the embedded evaluator with a checker: "
                f"use it without --backend {backend}"
            )
        return _backend("embedded"), _checker(backend), False
    if cross_check is not None:
        return _backend(backend), _checker(cross_check), True
    return _backend(backend), None, False


def _replay_in_worker(
    path: Path, spec_dir: Path, backend: str, revision: str | None, cross_check: str | None
) -> TraceResult:
    chosen, checker, cross = setup(backend, cross_check)
    return replay_trace(path, spec_dir, chosen, None, revision, checker, cross)


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
    backend: str = "embedded",
    jobs: int = 1,
    on_start: OnStart | None = None,
    on_steps: OnSteps | None = None,
    on_result: OnResult | None = None,
    revision: str | None = None,
    cross_check: str | None = None,
) -> list[TraceResult]:
    """Replay ``paths`` (results in the same order); ``jobs > 1`` uses worker processes.

    ``revision`` replaces the revision each trace's header names.

    The callbacks feed a progress display: ``on_steps`` (steps replayed so far in
    one trace) is only called when replaying in this process.
    """
    if jobs < 1:
        raise UserError(f"-j takes a positive number of processes, not {jobs}")
    chosen, checker, cross = setup(backend, cross_check)  # fail early when unavailable
    results: list[TraceResult | None] = [None] * len(paths)
    if jobs == 1 or len(paths) <= 1:
        for i, path in enumerate(paths):
            if on_start is not None:
                on_start(path)
            progress = None if on_steps is None else (lambda n, p=path: on_steps(p, n))
            results[i] = result = replay_trace(path, spec_dir, chosen, progress, revision,
                                               checker, cross)  # fmt: skip
            if on_result is not None:
                on_result(result)
    else:
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(paths)),
                                   initializer=raise_on_signals)
        try:
            futures = {
                pool.submit(
                    _replay_in_worker, path, spec_dir, backend, revision, cross_check
                ): i
                for i, path in enumerate(paths)
            }
            for future in as_completed(futures):
                results[futures[future]] = result = future.result()
                if on_result is not None:
                    on_result(result)
        except BaseException:  # SIGINT/SIGTERM or a failure: stop the workers now
            pool.shutdown(wait=False, cancel_futures=True)
            _stop(set(multiprocessing.active_children()) - before)
            raise
        pool.shutdown()
    return [r for r in results if r is not None]
