"""pytest plugin (entry point ``pytest11``): trace files as conformance test items.

* Every ``*.trace.jsonl`` file pytest meets while collecting becomes a test item.
  Its expected result comes from the nearest ``verdicts.json`` (in the trace's
  folder or above, up to the rootdir, keyed by the path relative to that file's
  folder) or from an ``expected.json`` beside it (keyed by file name); with
  neither, the trace must conform.  Turn collection off with the ini option
  ``tlaconf_collect = false``.
* The fixture ``tlaconf_replay(path, expect="conforms", step=None, conjunct=None)``
  replays a trace written inside a test and fails the test, with the failure
  report, when the result is not the expected one (``conjunct`` must equal one
  innermost failing leaf of the blame, see :mod:`tlaconf.gate.conjunct`); it returns the
  :class:`~tlaconf.replay.TraceResult`.
* The fixture ``tlaconf_mbt(driver, steps=30, examples=50, seed=0, spec=None)`` drives
  ``driver`` with requests drawn from its module (see :mod:`tlaconf.hypothesis`) and fails
  the test with the shrunk failure (its trace is written under the test's ``tmp_path``);
  it returns the run's :class:`~tlaconf.hypothesis.Outcome`.  Found failures are kept in
  Hypothesis' example database under the rootdir and tried first next time.

The spec directory is ``--tlaconf-spec DIR``, else the ini option
``tlaconf_spec`` (relative to the rootdir), else tlaconf's default (``./spec``);
the backend is ``--tlaconf-backend`` (default ``embedded``).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tlaconf.errors import UserError
from tlaconf.gate.golden import Expectation, expectation_for, matches
from tlaconf.hypothesis import Driver, Options, Outcome
from tlaconf.hypothesis import run as run_mbt
from tlaconf.replay import TraceResult
from tlaconf.replay.engine import Replayer
from tlaconf.replay.runner import TRACE_SUFFIX, setup
from tlaconf.report.text import make_console, render_failure
from tlaconf.spec import resolve_spec_dir


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tlaconf", "TLA+ conformance of trace files")
    group.addoption("--tlaconf-spec", metavar="DIR", help="spec directory for trace files")
    group.addoption(
        "--tlaconf-backend", metavar="NAME", default="embedded", help="replay backend"
    )
    parser.addini("tlaconf_spec", "spec directory for trace files (relative to rootdir)")
    parser.addini(
        "tlaconf_collect", "collect *.trace.jsonl files as tests", type="bool", default=True
    )


def spec_dir(config: pytest.Config) -> Path:
    """The spec directory the options of ``config`` select."""
    option = config.getoption("tlaconf_spec")
    if option:
        return resolve_spec_dir(option)
    ini = config.getini("tlaconf_spec")
    if ini:
        return resolve_spec_dir(config.rootpath / str(ini))
    return resolve_spec_dir(None)


def failure_report(
    result: TraceResult, problem: str, expected: Expectation, width: int | None = None
) -> str:
    """Plain text: what was expected, what happened, and the failure panel (``width``
    columns wide: pytest's terminal width)."""
    out = io.StringIO()
    out.write(f"{result.path}: expected {expected}, got {result.verdict} ({problem})\n")
    console = make_console(out, width)
    if result.failure is not None:
        console.print(render_failure(result))
    return out.getvalue()


class TraceMismatch(Exception):
    """A trace whose result is not the expected one (the message is the report)."""


def check_trace(
    path: Path, spec: Path, backend: str | Replayer, expected: Expectation,
    width: int | None = None,
) -> TraceResult:
    """Replay ``path`` (with ``backend``: a backend's name or a :class:`Replayer`) through
    :func:`tlaconf.api.replay`, which tells a partial trace from a full one; raise
    :class:`TraceMismatch` unless it gives ``expected``."""
    from tlaconf.api import replay

    [result] = replay(path, spec=spec, backend=backend)
    problem = matches(result, expected)
    if problem is not None:
        raise TraceMismatch(failure_report(result, problem, expected, width))
    return result


_REPLAYERS = pytest.StashKey[dict[str, Replayer]]()


def session_replayer(config: pytest.Config) -> Replayer:
    """The test session's Replayer for ``--tlaconf-backend`` (modules load once per
    session, and again when their files change)."""
    replayers = config.stash.setdefault(_REPLAYERS, {})
    name = config.getoption("tlaconf_backend")
    if name not in replayers:
        replayers[name] = setup(name)
    return replayers[name]


def terminal_width(config: pytest.Config) -> int:
    """The width of pytest's terminal (what its own reports wrap at)."""
    return int(config.get_terminal_writer().fullwidth)


class TraceItem(pytest.Item):
    """One trace file, replayed."""

    def runtest(self) -> None:
        config = self.config
        expected = expectation_for(self.path, config.rootpath)
        check_trace(self.path, spec_dir(config), session_replayer(config), expected,
                    terminal_width(config))

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str:
        if isinstance(excinfo.value, TraceMismatch | UserError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"trace {self.path.name}"


class TraceFile(pytest.File):
    """A ``*.trace.jsonl`` file: one item."""

    def collect(self) -> Iterator[TraceItem]:
        yield TraceItem.from_parent(self, name=self.path.name)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> TraceFile | None:
    if file_path.name.endswith(TRACE_SUFFIX) and parent.config.getini("tlaconf_collect"):
        result: TraceFile = TraceFile.from_parent(parent, path=file_path)
        return result
    return None


@pytest.fixture
def tlaconf_replay(request: pytest.FixtureRequest) -> Callable[..., TraceResult]:
    """Replay a trace written by the test: ``tlaconf_replay(path, expect=, step=, conjunct=)``."""
    config = request.config

    def replay(
        path: str | Path, expect: str = "conforms", step: int | None = None,
        conjunct: str | None = None,
    ) -> TraceResult:  # fmt: skip
        expected = Expectation.from_json(
            {"verdict": expect, "step": step, "conjunct": conjunct}, "tlaconf_replay"
        )
        try:
            return check_trace(
                Path(path), spec_dir(config), session_replayer(config), expected,
                terminal_width(config),
            )
        except (TraceMismatch, UserError) as err:
            report = str(err)
        # outside the except block: the failure is reported once, with no chained exception
        pytest.fail(report, pytrace=False)

    return replay


def mbt_report(outcome: Outcome, width: int | None = None) -> str:
    """Plain text: the shrunk failure of a spec-driven run, and where its trace is."""
    found = outcome.found
    assert found is not None
    out = io.StringIO()
    out.write(f"tlaconf mbt {outcome.module}: a failure, shrunk from {found.steps_before} to "
              f"{found.steps_after} steps; trace {found.trace} (as first found: "
              f"{found.unshrunk})\n")
    if found.result is not None:
        make_console(out, width).print(render_failure(found.result))
    else:
        out.write(f"the driver raised:\n{found.crash}\n")
    return out.getvalue()


@pytest.fixture
def tlaconf_mbt(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Outcome]:
    """Spec-driven testing of a driver: ``tlaconf_mbt(driver, steps=, examples=, seed=, spec=)``."""
    config = request.config

    def drive(driver: Driver, steps: int = 30, examples: int = 50, seed: int = 0,
              spec: str | Path | None = None) -> Outcome:  # fmt: skip
        folder = resolve_spec_dir(spec) if spec is not None else spec_dir(config)
        options = Options(steps, examples, seed, tmp_path / "mbt",
                          config.rootpath / ".hypothesis" / "tlaconf-mbt")
        try:
            outcome = run_mbt(driver, folder, options)
        except UserError as err:
            report = f"tlaconf mbt: {err}"
        else:
            if outcome.found is None:
                return outcome
            report = mbt_report(outcome, terminal_width(config))
        pytest.fail(report, pytrace=False)

    return drive
