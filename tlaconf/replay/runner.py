"""Replay many traces, in this process or on N worker processes (``-j N``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.replay.backend import CHECKERS, Backend, ExternalChecker, get_backend, get_checker
from tlaconf.replay.engine import replay_trace
from tlaconf.replay.result import TraceResult

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


_CHECKERS: dict[tuple[str, float | None], ExternalChecker] = {}
"""One checker per process (and time limit): an Apalache server serves every trace of a run."""


def _checker(name: str, timeout: float | None) -> ExternalChecker:
    checker = _CHECKERS.get((name, timeout))
    if checker is None:
        checker = _CHECKERS[name, timeout] = get_checker(name, timeout)
    return checker


Setup = tuple[Backend, ExternalChecker | None, bool]


def setup(backend: str, cross_check: str | None = None, timeout: float | None = None) -> Setup:
    """The evaluating backend, the external checker (if any) and whether to cross-check.

    ``--backend tlc|apalache``: the checker decides, the embedded evaluator explains;
    ``--cross-check C``: ``backend`` and C both decide every trace; ``timeout``:
    ``--checker-timeout``, the checker's seconds per trace.
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
        return _backend("embedded"), _checker(backend, timeout), False
    if cross_check is not None:
        return _backend(backend), _checker(cross_check, timeout), True
    return _backend(backend), None, False


def _replay_in_worker(
    path: Path, spec_dir: Path, backend: str, revision: str | None, cross_check: str | None,
    timeout: float | None,
) -> TraceResult:  # fmt: skip
    chosen, checker, cross = setup(backend, cross_check, timeout)
    return replay_trace(path, spec_dir, chosen, None, revision, checker, cross)


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
    checker_timeout: float | None = None,
) -> list[TraceResult]:
    """Replay ``paths`` (results in the same order); ``jobs > 1`` uses worker processes.

    ``revision`` replaces the revision each trace's header names; ``checker_timeout``
    is the external checker's seconds per trace.

    The callbacks feed a progress display: ``on_steps`` (steps replayed so far in
    one trace) is only called when replaying in this process.
    """
    if jobs < 1:
        raise UserError(f"-j takes a positive number of processes, not {jobs}")
    chosen, checker, cross = setup(backend, cross_check, checker_timeout)  # fail early
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
        with ProcessPoolExecutor(max_workers=min(jobs, len(paths))) as pool:
            futures = {
                pool.submit(
                    _replay_in_worker, path, spec_dir, backend, revision, cross_check,
                    checker_timeout,
                ): i
                for i, path in enumerate(paths)
            }
            for future in as_completed(futures):
                results[futures[future]] = result = future.result()
                if on_result is not None:
                    on_result(result)
    return [r for r in results if r is not None]
