"""The golden corpus through a real external checker, compared with the embedded evaluator.

``make test-tlc`` and ``make test-apalache`` run this with ``TLACONF_GOLDEN_CHECKER``
set to ``tlc`` or ``apalache``; everywhere else (``make test``, CI) it skips,
saying why.  For each golden trace, deciding with the checker gives the embedded
verdict, failing step and blame, and ``--cross-check`` finds no difference.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tlaconf.gate.golden import golden_traces, relative_key
from tlaconf.replay import replay_trace
from tlaconf.replay.backend import ExternalChecker, get_checker
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.replay.result import TraceResult
from tlaconf.trace.partial import is_partial

PROJECT = Path(__file__).resolve().parents[2]
TRACES = PROJECT / "traces"
CHECKER = os.environ.get("TLACONF_GOLDEN_CHECKER", "")

LIMITS: dict[str, str] = (
    json.loads((Path(__file__).parent / f"{CHECKER}-limits.json").read_text())
    if (Path(__file__).parent / f"{CHECKER}-limits.json").is_file()
    else {}
)
"""Golden traces the checker cannot decide (named in docs/checkers.md): the user's message."""

TIMED_OUT = "no answer within the time limit"
"""A trace listed as too slow may also agree (on a faster machine, with a longer limit)."""

pytestmark = pytest.mark.skipif(
    not CHECKER,
    reason="the golden corpus through a real checker runs with `make test-tlc` (needs TLC_JAR) "
    "or `make test-apalache` (needs apalache-mc)",
)


def _key(r: TraceResult) -> tuple[object, ...]:
    return (r.verdict, None if r.failure is None else r.failure.step)


def _status(ours: TraceResult, theirs: TraceResult | None) -> str:
    if theirs is None:
        return "not run"
    if theirs.undecided and theirs.failure and "checkers disagree" in theirs.failure.reason:
        return "differ"
    if theirs.undecided or (theirs.verdict == "error" and ours.verdict != "error"):
        return "undecided"
    return "agree" if _key(theirs) == _key(ours) else "differ"


def _report(key: str, ours: TraceResult, theirs: TraceResult, cross: TraceResult | None) -> None:
    """One JSON line per trace into ``$TLACONF_GOLDEN_REPORT`` (for the per-folder figures)."""
    out = os.environ.get("TLACONF_GOLDEN_REPORT")
    if not out:
        return
    line = {"trace": key, "checker": _status(ours, theirs), "cross": _status(ours, cross),
            "seconds": round(theirs.seconds + (cross.seconds if cross else 0), 1),
            "steps": theirs.steps, "reason": theirs.failure.reason if theirs.failure else None}
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


@pytest.fixture(scope="module")
def checker() -> Iterator[ExternalChecker]:
    """One checker for the whole corpus (one Apalache server, as in a replay run)."""
    timeout = os.environ.get("TLACONF_CHECKER_TIMEOUT")
    chosen = get_checker(CHECKER, float(timeout) if timeout else None)
    yield chosen
    close = getattr(chosen, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):
            close()


def _shard(paths: list[Path]) -> list[Path]:
    """``TLACONF_GOLDEN_SHARD=i/n``: every n-th trace from the i-th (to run in parallel)."""
    shard = os.environ.get("TLACONF_GOLDEN_SHARD")
    if not shard:
        return paths
    i, n = (int(x) for x in shard.split("/"))
    return paths[i - 1 :: n]


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=relative_key(TRACES, p)) for p in _shard(golden_traces(TRACES))]
)
def test_checker_agrees_with_embedded(path: Path, checker: ExternalChecker) -> None:
    """The checker's verdict, failing step and blame are the embedded ones, and
    ``--cross-check`` agrees; or the trace is a known limitation of the checker
    (``LIMITS``, named in the docs) and the user gets its message."""
    if is_partial(path):
        pytest.skip("a partial trace: TLC decides it through its export as a trace spec "
                    "(tests/tlc/test_partial_tlc.py); Apalache does not decide partial "
                    "traces")
    spec = PROJECT / "spec"
    embedded = EmbeddedBackend()
    ours = replay_trace(path, spec, embedded)
    theirs = replay_trace(path, spec, embedded, checker=checker)
    cross = None
    if _key(theirs) == _key(ours):
        cross = replay_trace(path, spec, embedded, checker=checker, cross_check=True)
    _report(relative_key(TRACES, path), ours, theirs, cross)
    limit = LIMITS.get(relative_key(TRACES, path))
    slow = limit is not None and limit.startswith(TIMED_OUT)
    if limit is not None and not (slow and _key(theirs) == _key(ours)):
        assert theirs.verdict == "error" and theirs.failure is not None
        assert limit in theirs.failure.reason, theirs.failure.reason
        return

    assert _key(theirs) == _key(ours), theirs.failure
    assert cross is not None
    assert (theirs.failure and theirs.failure.blame) == (ours.failure and ours.failure.blame)
    assert not cross.undecided, cross.failure
    assert _key(cross) == _key(ours)
