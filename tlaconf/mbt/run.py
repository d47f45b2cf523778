"""One spec-driven run: a driver, its module, Hypothesis settings; the shrunk failure written.

A failure is written twice under ``out_dir``: ``<Module>-mbt-<seed>.trace.jsonl``, the
shrunk run (replay reproduces its verdict and blame; it can join the golden corpus),
and ``<Module>-mbt-<seed>.unshrunk.jsonl``, the run as first found.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import FlakyFailure
from hypothesis.stateful import run_state_machine_as_test

from tlaconf.errors import UserError
from tlaconf.evaluate import budget, load_module
from tlaconf.evaluate.coverage import CoverageProbe, Key
from tlaconf.explore import Successors
from tlaconf.mbt.apalache_solver import DEFAULT_TIMEOUT, ApalacheSolver, Connection
from tlaconf.mbt.directed import Survey, survey, sweep
from tlaconf.mbt.domains import Domains
from tlaconf.mbt.driver import DEFAULT_REVISION, Driver
from tlaconf.mbt.exhaustive import run_exhaustive
from tlaconf.mbt.guard_report import ActionGuards, check_failures, guard_report
from tlaconf.mbt.machine import Session, Stats, StepFailed, machine_class
from tlaconf.mbt.online import OnlineChecker
from tlaconf.mbt.perturb import Perturbed, perturb
from tlaconf.mbt.solver import EnumerationSolver, Solver
from tlaconf.replay import TraceResult, get_backend
from tlaconf.replay.apalache.solving import Solving
from tlaconf.replay.coverage import Coverage
from tlaconf.spec.lookup import module_spec
from tlaconf.values import from_python, to_tla

DATABASE = Path(".hypothesis") / "tlaconf-mbt"
MODES = ("random", "directed", "exhaustive")
SOLVERS = ("auto", "enumeration", "apalache")
Mode = Literal["random", "directed", "exhaustive"]
"""Where found failures are kept (relative to the working directory) unless told otherwise."""


@dataclass(frozen=True)
class Options:
    """How long to run and where things go."""

    steps: int = 50
    examples: int = 100
    seed: int = 0
    out_dir: Path = Path("mbt-failures")
    database: Path | None = DATABASE
    shrink: bool = True
    mode: Mode = "directed"
    """``random``: Hypothesis' draws only; ``directed``: first an allowed request and a
    near miss for every guard (:mod:`.directed`), then Hypothesis' draws; ``exhaustive``:
    every request from every state within ``depth`` (:mod:`.exhaustive`)."""
    depth: int = 3
    """How many requests deep the directed survey and the exhaustive run go."""
    solver: str = "auto"
    """What the directed survey solves with where a params domain is too large to
    enumerate: ``enumeration`` (a bounded look only), ``apalache`` (Apalache's explorer
    server, :mod:`.apalache_solver`), ``auto`` (Apalache when ``APALACHE_MC`` or
    ``APALACHE_SERVER`` is set)."""
    solver_timeout: float = DEFAULT_TIMEOUT
    """Seconds Apalache gets per state and action."""
    perturb: bool = True
    """Check near-miss observations of the guards only a report makes FALSE
    (:mod:`.perturb`)."""


@dataclass(frozen=True)
class Found:
    """A failure: the shrunk trace as written and replayed, and the run first found."""

    trace: Path
    unshrunk: Path
    result: TraceResult | None
    crash: str | None
    steps_before: int
    steps_after: int
    found_at: int
    """The run that first failed (1 when the example database brought the failure back)."""
    by: str = "hypothesis"
    """What found it: ``hypothesis`` (shrunk), or the ``directed`` or ``exhaustive`` run (a
    behaviour already as short as the model allows: not shrunk)."""


@dataclass(frozen=True)
class Outcome:
    """What one run of one driver did."""

    module: str
    driver: str
    examples: int
    steps: int
    allowed: int
    forbidden: int
    seconds: float
    check_seconds: float
    found: Found | None
    guards: list[ActionGuards] = field(default_factory=list)
    """Guard coverage per action (every action of the module)."""
    coverage: Coverage = field(default_factory=Coverage)
    """The coverage of the steps checked (to join with other runs')."""
    survey: Survey | None = None
    """What the directed survey looked at (None in the other modes)."""
    exhaustive: tuple[int, int, int] | None = None
    """States and requests an exhaustive run covered, and requests not sent."""
    mode: str = "directed"
    perturbed: dict[tuple[str, Key], Perturbed] = field(default_factory=dict)
    """The near-miss observations checked (:mod:`.perturb`), by action and guard."""

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def failed_checks(self) -> list[str]:
        """A line per near-miss observation the step check did not refuse naming its guard:
        a run with one does not pass, as one with ``found`` does not."""
        return check_failures(self.guards)


def driver_name(driver: Driver) -> str:
    kind = type(driver)
    return f"{kind.__module__}:{kind.__qualname__}"


def _database(path: Path | None) -> ExampleDatabase | None:
    return None if path is None else DirectoryBasedExampleDatabase(str(path))


def _unwrap(exc: BaseException) -> StepFailed | None:
    """The StepFailed inside what Hypothesis raised (a flaky failure wraps it)."""
    if isinstance(exc, StepFailed):
        return exc
    if isinstance(exc, FlakyFailure):
        for inner in exc.exceptions:
            found = _unwrap(inner)
            if found is not None:
                return found
    return None


def session_for(driver: Driver, spec_dir: Path) -> Session:
    """The driver's module loaded for drawing requests and for checking steps."""
    revision = str(getattr(driver, "revision", DEFAULT_REVISION))
    constants = dict(getattr(driver, "constants", None) or {})
    spec = module_spec(spec_dir, driver.module, revision,
                       {k: from_python(v) for k, v in constants.items()})
    ctx = load_module(spec.path, spec.search_path, spec.constants)
    checker = OnlineChecker(spec_dir, driver.module, revision, constants)
    domains = Domains(ctx, checker.load(spec).actions, driver.module)
    return Session(driver, domains, checker)


def wants_apalache(choice: str) -> bool:
    """Whether the solver ``choice`` means Apalache (``auto``: when it is configured)."""
    if choice not in SOLVERS:
        raise UserError(f"unknown solver {choice!r} (one of {', '.join(SOLVERS)})")
    if choice == "auto":
        return bool(os.environ.get("APALACHE_MC") or os.environ.get("APALACHE_SERVER"))
    return choice == "apalache"


def make_solver(driver: Driver, spec_dir: Path, session: Session, probe: CoverageProbe,
                options: Options) -> Solver:  # fmt: skip
    """The directed survey's solver (see :attr:`Options.solver`; Apalache's server, when
    one is started, serves the process's later runs too and stops at exit)."""
    enumeration = EnumerationSolver(session.domains, probe)
    if options.mode != "directed" or not wants_apalache(options.solver):
        return enumeration
    if not options.solver_timeout > 0:
        raise UserError(f"--solver-timeout takes a positive number of seconds, not "
                        f"{options.solver_timeout}")
    connection = Connection.shared()
    constants = dict(getattr(driver, "constants", None) or {})
    spec = module_spec(spec_dir, driver.module, str(getattr(driver, "revision", DEFAULT_REVISION)),
                       {k: from_python(v) for k, v in constants.items()})
    solving = Solving(spec, get_backend("embedded").load(spec))
    return ApalacheSolver(enumeration, solving, connection, options.solver_timeout,
                          connection.done)


def run(
    driver: Driver,
    spec_dir: Path,
    options: Options = Options(),
    on_example: Callable[[Stats], None] | None = None,
    name: str | None = None,
) -> Outcome:
    """Drive ``driver`` with requests from its module; shrink and write any failure.
    ``name``: how reports call the driver (default: its class).  Every evaluation of the
    run shares one budget timer (the enclosing run's, as under the CLI)."""
    with budget.run():
        return _run(driver, spec_dir, options, on_example, name)


def _run(driver: Driver, spec_dir: Path, options: Options,
         on_example: Callable[[Stats], None] | None, name: str | None) -> Outcome:  # fmt: skip
    if options.steps < 1 or options.examples < 1 or options.depth < 0:
        raise UserError("--steps and --examples take positive numbers, --depth a natural")
    if options.mode not in MODES:
        raise UserError(f"unknown mode {options.mode!r} (one of {', '.join(MODES)})")
    session = session_for(driver, spec_dir)
    session.stats.on_example = on_example
    label = name or driver_name(driver)
    probe = CoverageProbe(session.domains.ctx)
    solver = make_solver(driver, spec_dir, session, probe, options)
    start = time.perf_counter()
    found: Found | None = None
    plan: Survey | None = None
    exhaustive: tuple[int, int, int] | None = None
    try:
        if options.mode != "random":
            succ = Successors(session.domains.ctx)
            try:
                initial = session.start()
                if options.mode == "directed":
                    plan = survey(session, solver, succ, initial, options.depth)
                    for node, request in plan.targets():
                        session.aimed.setdefault(node.key, []).append(request)
                    sweep(session, plan)
                else:
                    exhaustive = run_exhaustive(session, succ, initial, options.depth)
            except StepFailed as failed:
                found = _write(session, failed, options, label, options.mode)
        if found is None and options.mode != "exhaustive":
            found = _hypothesis(session, options, label)
    finally:
        close = getattr(driver, "close", None)
        if close is not None:
            close()
    s = session.stats
    coverage = session.checker.coverage.coverage
    doms = session.domains
    every = {a: solver.guards(a) for a in doms.every_action}
    perturbed = (perturb(session, probe, every, coverage)
                 if found is None and options.perturb else None)
    guards = guard_report(driver.module, doms.every_action, doms.actions, every, coverage, plan,
                          doms.ctx.loader.texts,
                          options.depth if exhaustive is not None else None,
                          session.reported, perturbed)
    return Outcome(driver.module, label, s.examples, s.steps, s.allowed, s.forbidden,
                   time.perf_counter() - start, s.check_seconds, found, guards, coverage,
                   plan, exhaustive, options.mode, perturbed or {})


def _hypothesis(session: Session, options: Options, name: str) -> Found | None:
    """Hypothesis' run of the state machine; the shrunk failure written, if any."""
    driver = session.driver
    key = f"{driver.module}__{type(driver).__name__}"
    machine = hypothesis.seed(options.seed)(machine_class(session, key))
    config = settings(
        max_examples=options.examples, stateful_step_count=options.steps, deadline=None,
        database=_database(options.database), verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
        # Phase.explain replays the shrunk failure many times to annotate which parts
        # mattered; its comments are never shown here and it cost most of a run's time.
        phases=[p for p in Phase
                if p is not Phase.explain and (options.shrink or p is not Phase.shrink)],
    )
    try:
        run_state_machine_as_test(machine, settings=config)
    except (StepFailed, FlakyFailure) as exc:
        failed = _unwrap(exc)
        if failed is None:
            raise
        return _write(session, failed, options, name)
    return None


def _write(session: Session, failed: StepFailed, options: Options, name: str,
           by: str = "hypothesis") -> Found:  # fmt: skip
    options.out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{session.driver.module}-mbt-{options.seed}"
    first = session.stats.first or failed
    meta: dict[str, Any] = {"generator": "tlaconf mbt", "seed": options.seed, "driver": name,
                            "found_by": by}
    check = session.checker
    trace = check.write(options.out_dir / f"{stem}.trace.jsonl", failed.initial, failed.steps,
                        {**meta, "shrunk": by == "hypothesis"})
    unshrunk = check.write(options.out_dir / f"{stem}.unshrunk.jsonl", first.initial,
                           first.steps, {**meta, "shrunk": False})
    result = check.replay(trace) if failed.result is not None else None
    crash = failed.crash
    if crash is not None and failed.request is not None:
        crash = (f"request {failed.length}: {failed.request.action}"
                 f"({to_tla(failed.request.params)})\n{crash}")
    return Found(trace, unshrunk, result, crash, first.length, failed.length,
                 session.stats.first_at, by)
