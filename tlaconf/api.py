"""tlaconf's public API: what ``import tlaconf`` gives, thin over the internals.

Every check the command line runs is one call here, with the settings the command line
takes as parameters (the library path, the evaluation budget, the spec folder), never
only the environment: ``replay`` (traces, full or partial), ``validate`` (a TLC
trace-validation spec, or one partial trace with the search's own report),
``explore`` (a specification's states) and ``mbt`` (an implementation driven from
its spec).  The ``tlaconf`` command, the pytest plugin and the gate are clients of these
functions and give the same verdicts.

Bad input (a missing file, a spec error, a construct tlaconf does not support) raises
``UserError``; a trace that cannot be read is an ``error`` verdict
in its result instead, so the other traces are still checked.

>>> import tlaconf
>>> [r] = tlaconf.replay("traces/zones/custody-7.trace.jsonl", spec="spec")
>>> r.verdict, r.steps
('conforms', 30)
>>> [bad] = tlaconf.replay("traces/partial/wrong-zone-filed.trace.jsonl")  # partial
>>> bad.verdict, bad.failure.step, bad.failure.line
('violation', 5, 7)
>>> tlaconf.exit_code([r, bad])
<ExitCode.NONCONFORMING: 1>
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from tlaconf.errors import ExitCode, UserError
from tlaconf.evaluate import budget
from tlaconf.explore import Result as ExploreResult
from tlaconf.explore import bfs, load_model
from tlaconf.explore import walks as random_walks
from tlaconf.explore.trace_out import write_violation
from tlaconf.mbt.driver import Driver, load_driver
from tlaconf.mbt.run import DATABASE
from tlaconf.mbt.run import Options as MbtOptions
from tlaconf.mbt.run import Outcome as MbtOutcome
from tlaconf.mbt.run import run as run_mbt
from tlaconf.replay.engine import PoolObserver, Replayer
from tlaconf.replay.result import TraceResult
from tlaconf.replay.result import exit_code as results_exit_code
from tlaconf.replay.runner import (
    TRACE_SUFFIX,
    OnResult,
    OnStart,
    OnSteps,
    collect_traces,
    run_traces,
)
from tlaconf.spec import resolve_spec_dir, search_path
from tlaconf.tla import library as library_path
from tlaconf.trace.partial import is_partial
from tlaconf.validate.outcome import Outcome as ValidateOutcome
from tlaconf.validate.partial import DEFAULT_MAX_CANDIDATES, replay_partial, trace_result
from tlaconf.validate.tracespec import DEFAULT_MAX_STATES, Bounds, validate_trace_spec

PathArg = str | os.PathLike[str]
"""A path: a string or a ``Path``."""

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "DEFAULT_MAX_STATES",
    "ExploreResult",
    "MbtOutcome",
    "PathArg",
    "ValidateOutcome",
    "check_revision",
    "exit_code",
    "explore",
    "mbt",
    "replay",
    "settings",
    "validate",
]


@contextmanager
def settings(library: Sequence[PathArg] = (), eval_budget: float | None = None
             ) -> Iterator[tuple[Path, ...]]:
    """The block runs with ``library`` first on the library path (then
    ``TLACONF_LIBRARY``) and one evaluation budget of ``eval_budget`` seconds per
    evaluation (None: the enclosing run's, else ``TLACONF_EVAL_BUDGET``, else 60; 0: no
    limit); yields the whole library path.  UserError naming a bad library entry."""
    with library_path.given([Path(p) for p in library]) as path, budget.run(eval_budget):
        yield path


def check_revision(spec_dir: Path, revision: str | None) -> None:
    """UserError ("unknown revision") unless ``revision`` is None or a revision of the
    profile in ``spec_dir``."""
    if revision is not None:
        if not (spec_dir / "reference-profile").is_dir():
            raise UserError(f"unknown revision {revision!r} (there is no "
                            f"{spec_dir / 'reference-profile'}: this spec has no revisions)")
        search_path(spec_dir, revision)


def _spec_dir(spec: PathArg | None) -> Path:
    """The spec folder ``spec`` names (None: ``./spec``, else the checkout's)."""
    return resolve_spec_dir(None if spec is None else Path(spec))


def _paths(traces: PathArg | Iterable[PathArg]) -> list[Path]:
    """The trace files ``traces`` names (a folder stands for its ``*.trace.jsonl``), each
    once, in order; UserError for one that does not exist."""
    given = [Path(t) for t in ([traces] if isinstance(traces, str | os.PathLike)
                               else traces)]
    seen: set[Path] = set()
    out: list[Path] = []
    found: list[Path] = []
    for g in given:
        if g.is_dir() and not g.name.endswith(TRACE_SUFFIX):
            found += collect_traces([g])
        elif os.path.lexists(g):  # a folder named like a trace, a link loop: its replay
            found.append(g)       # says why it is not a trace
        else:
            raise UserError(f"trace {g} does not exist")
    for p in found:
        key = Path(os.path.realpath(p))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def replay(
    traces: PathArg | Iterable[PathArg],
    *,
    spec: PathArg | None = None,
    backend: str | Replayer = "embedded",
    cross_check: str | None = None,
    revision: str | None = None,
    library: Sequence[PathArg] = (),
    eval_budget: float | None = None,
    jobs: int = 1,
    cluster: str | None = None,
    checker_timeout: float | None = None,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    observers: Sequence[PoolObserver] = (),
    on_start: OnStart | None = None,
    on_steps: OnSteps | None = None,
    on_result: OnResult | None = None,
    debug: bool = False,
) -> list[TraceResult]:
    """Check ``traces`` (a trace file, a folder of ``*.trace.jsonl``, or several of
    either) against their conformance modules; one result per trace, in order.

    Whether a trace is full or partial is read from its header (``"partial": true``): a
    full trace is replayed step by step by ``backend``, a partial one by the
    candidate-set search (the spec states consistent with the log so far; more than
    ``max_candidates`` at a line is undecided).  Parameters, as the command line's options:

    * ``spec``: the spec folder (default: ``./spec``, else the checkout's);
    * ``backend``: ``embedded`` (default), ``tlc``, ``apalache``, ``module:attribute`` of
      a backend class, or a ``Replayer`` to reuse (modules load once);
      ``cross_check``: also decide every full trace with ``tlc`` or ``apalache``;
      ``checker_timeout``: that checker's seconds per trace;
    * ``revision``: check against this revision of the profile instead of the header's;
    * ``library``: folders or jars of modules, searched after the spec's own folders
      (before ``TLACONF_LIBRARY``); ``eval_budget``: seconds any one evaluation may take;
    * ``jobs``: worker processes, or ``cluster``: a Dask scheduler's address
      (``tcp://HOST:PORT``), for the full traces;
    * ``observers`` ride on the replay loop (coverage); ``on_start``, ``on_steps``,
      ``on_result`` feed a progress display; ``debug`` also prints the traceback of an
      internal error (it is always saved to a file).

    ``exit_code`` says what the results answer.  UserError for bad settings (a
    missing trace or spec folder, an unknown backend or revision).
    """
    with settings(library, eval_budget):
        paths = _paths(traces)
        spec_dir = _spec_dir(spec)
        check_revision(spec_dir, revision)
        partial = {p for p in paths if is_partial(p)}
        full = [p for p in paths if p not in partial]
        done = iter(run_traces(
            full, spec_dir, backend, jobs, on_start, on_steps, on_result, revision,
            cross_check, checker_timeout, observers, debug, cluster) if full else ())
        results: dict[Path, TraceResult] = dict(zip(full, done, strict=True))
        for p in paths:
            if p in partial:
                if on_start is not None:
                    on_start(p)
                results[p] = _partial(p, spec_dir, revision, max_candidates, backend,
                                      cross_check, checker_timeout, _steps_done(p, on_steps))
                if on_result is not None:
                    on_result(results[p])
        return [results[p] for p in paths]


def _steps_done(path: Path, on_steps: OnSteps | None
                ) -> Callable[[int, int, int], None] | None:
    """A partial trace's progress (after each log line) as ``on_steps``: steps done."""
    if on_steps is None:
        return None
    return lambda line, _lines, _candidates: on_steps(path, line - 2)


def _partial(path: Path, spec_dir: Path | None, revision: str | None, max_candidates: int,
             backend: str | Replayer, cross_check: str | None, timeout: float | None,
             on_line: Callable[[int, int, int], None] | None) -> TraceResult:
    """A partial trace: the candidate-set search, or TLC's own search of it exported as
    a trace spec (``backend="tlc"``), or both compared (``cross_check="tlc"``)."""
    from tlaconf.validate.partial_tlc import cross_checked, tlc_result

    if backend == "tlc":
        return tlc_result(path, spec_dir, revision, timeout)
    ours = trace_result(path, spec_dir, revision, max_candidates, on_line)
    if cross_check == "tlc":
        return cross_checked(ours, path, spec_dir, revision, timeout)
    return ours


def exit_code(results: Sequence[TraceResult], strict: bool = False) -> ExitCode:
    """What ``results`` answer, as ``tlaconf replay`` exits: INTERNAL_ERROR (a bug in
    tlaconf on some trace), else UNDECIDED, else BAD_INPUT (a trace could not be
    checked), else NONCONFORMING (a violation or a vacuous trace; with ``strict``, also a
    module with no invariants), else OK."""
    return results_exit_code(results, strict)


def validate(
    path: PathArg,
    *,
    config: PathArg | None = None,
    env: Mapping[str, str] | None = None,
    library: Sequence[PathArg] = (),
    eval_budget: float | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
    max_seconds: float | None = None,
    spec: PathArg | None = None,
    revision: str | None = None,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    on_level: Callable[[int, int, int, int], None] | None = None,
    on_line: Callable[[int, int, int], None] | None = None,
) -> ValidateOutcome:
    """Run a TLC trace-validation spec (``path`` a ``.tla`` module), or search one
    partial trace (``path`` a tlaconf trace); the outcome's ``result`` is ``accepted``,
    ``rejected`` or ``undecided``.

    A trace spec runs under ``config`` (default: the ``.cfg`` beside it) breadth-first as
    TLC does; ``env`` reaches ``IOEnv`` (``{"JSON": "trace.ndjson"}``); more than
    ``max_states`` distinct states (None: no bound) or ``max_seconds`` of search is
    undecided; ``on_level(level, candidates, distinct states, log lines read)`` reports
    progress after each level.  A partial trace is checked against its conformance
    module in ``spec`` (at ``revision``); more than ``max_candidates`` candidate states at
    a line is undecided; ``on_line(line, lines, candidates)`` reports progress after each
    log line.
    ``library`` and ``eval_budget`` as for ``replay``.  UserError for bad input."""
    tla = Path(path)
    spec_only = [n for n, v in (("config", config), ("env", env), ("on_level", on_level))
                 if v]
    partial_only = [n for n, v in (("spec", spec), ("revision", revision),
                                   ("on_line", on_line)) if v is not None]
    wrong = partial_only if tla.suffix == ".tla" else spec_only
    if wrong:  # never silently ignored
        raise UserError(f"{', '.join(wrong)} does not apply to {tla} (it applies to "
                        + ("partial traces)" if tla.suffix == ".tla" else
                           "trace-validation specs, .tla)"))
    with settings(library, eval_budget) as found:
        if tla.suffix == ".tla":
            return validate_trace_spec(tla, None if config is None else Path(config), found,
                                       env, on_level, Bounds(max_states, max_seconds))
        return replay_partial(tla, None if spec is None else _spec_dir(spec),
                              revision, max_candidates, on_line)


def explore(
    module: PathArg,
    *,
    config: PathArg | None = None,
    depth: int | None = None,
    walks: int | None = None,
    seed: int = 0,
    library: Sequence[PathArg] = (),
    eval_budget: float | None = None,
    check_properties: bool = True,
    trace: PathArg | None = None,
    progress: Callable[[ExploreResult, int], None] | None = None,
) -> ExploreResult:
    """Explore the states of ``module`` under ``config`` (default: the ``.cfg`` beside
    it) as TLC's model checker does: breadth-first (``depth`` levels, or all), or
    ``walks`` seeded random walks of ``depth`` states.  The result counts distinct and
    total states and the depth as TLC does, and holds the shortest violation of an
    invariant (or a deadlock) found; with ``trace``, that violation is also written there
    as a trace ``replay`` checks.  ``check_properties=False`` explores a model whose
    ``.cfg`` has ``PROPERTY`` lines without checking them.  UserError for bad input or a
    construct the explorer does not check."""
    if walks is not None and depth is None:
        raise UserError("walks need a depth (the length of each walk)")
    with settings(library, eval_budget) as found:
        model = load_model(Path(module), None if config is None else Path(config), found,
                           check_properties=check_properties)
        if walks is not None:
            assert depth is not None
            result = random_walks(model, walks, depth, seed, progress)
        else:
            result = bfs(model, depth, progress)
        if trace is not None and result.violation is not None:
            write_violation(model, result.violation, Path(trace))
        return result


def mbt(
    driver: Driver | str,
    *,
    spec: PathArg | None = None,
    steps: int = 50,
    examples: int = 100,
    seed: int = 0,
    out: PathArg = "mbt-failures",
    database: PathArg | None = DATABASE,
    shrink: bool = True,
    library: Sequence[PathArg] = (),
    eval_budget: float | None = None,
) -> MbtOutcome:
    """Spec-driven testing: drive ``driver`` (an object with ``module``, ``reset()`` and
    ``apply(action, params)``, or its ``package.module:attr``) with ``examples`` runs of
    up to ``steps`` requests drawn from its module's ``Params_<Action>``, checking every
    step; a failure is shrunk and written as a trace under ``out`` (``found`` in the
    outcome).  ``database``: where found failures are kept to be tried first next time
    (None: nowhere).  A near-miss observation the step check accepted is listed in the
    outcome's ``failed_checks``; the run passes when ``found`` is None and that list is
    empty, as the CLI's exit 0.  UserError for bad input."""
    with settings(library, eval_budget):
        chosen = load_driver(driver) if isinstance(driver, str) else driver
        options = MbtOptions(steps, examples, seed, Path(out),
                             None if database is None else Path(database), shrink)
        return run_mbt(chosen, _spec_dir(spec), options)
