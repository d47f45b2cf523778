"""The golden corpus through a real external checker, compared with the embedded evaluator.

``make test-tlc`` and ``make test-apalache`` run this with ``TLCONF_GOLDEN_CHECKER``
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

PROJECT = Path(__file__).resolve().parents[2]
TRACES = PROJECT / "traces"
CHECKER = os.environ.get("TLCONF_GOLDEN_CHECKER", "")

LIMITS: dict[str, str] = (
    json.loads((Path(__file__).parent / f"{CHECKER}-limits.json").read_text())
    if (Path(__file__).parent / f"{CHECKER}-limits.json").is_file()
    else {}
)
"""Golden traces the checker cannot decide (named in docs/checkers.md): the user's message."""

pytestmark = pytest.mark.skipif(
    not CHECKER,
    reason="the golden corpus through a real checker runs with `make test-tlc` (needs TLC_JAR) "
    "or `make test-apalache` (needs apalache-mc)",
)


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


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=relative_key(TRACES, p)) for p in golden_traces(TRACES)]
)
def test_checker_agrees_with_embedded(path: Path, checker: ExternalChecker) -> None:
    """The checker's verdict, failing step and blame are the embedded ones, and
    ``--cross-check`` agrees; or the trace is a known limitation of the checker
    (``LIMITS``, named in the docs) and the user gets its message."""
    spec = PROJECT / "spec"
    embedded = EmbeddedBackend()
    ours = replay_trace(path, spec, embedded)
    theirs = replay_trace(path, spec, embedded, checker=checker)
    limit = LIMITS.get(relative_key(TRACES, path))
    if limit is not None:
        assert theirs.verdict == "error" and theirs.failure is not None
        assert limit in theirs.failure.reason, theirs.failure.reason
        return

    def key(r: object) -> tuple[object, ...]:
        f = r.failure  # type: ignore[attr-defined]
        return (r.verdict, None if f is None else f.step)  # type: ignore[attr-defined]

    assert key(theirs) == key(ours), theirs.failure
    cross = replay_trace(path, spec, embedded, checker=checker, cross_check=True)
    assert (theirs.failure and theirs.failure.blame) == (ours.failure and ours.failure.blame)
    assert not cross.undecided, cross.failure
    assert key(cross) == key(ours)
