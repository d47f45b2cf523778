"""The golden corpus through a real external checker, compared with the embedded evaluator.

``make test-tlc`` and ``make test-apalache`` run this with ``TLACONF_GOLDEN_CHECKER``
set to ``tlc`` or ``apalache``; everywhere else (``make test``, CI) it skips,
saying why.  For each golden trace, deciding with the checker gives the embedded
verdict, failing step and blame, and ``--cross-check`` finds no difference.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tlaconf.gate.golden import golden_traces, relative_key
from tlaconf.replay import replay_trace
from tlaconf.replay.backend import get_checker
from tlaconf.replay.embedded import EmbeddedBackend

PROJECT = Path(__file__).resolve().parents[2]
TRACES = PROJECT / "traces"
CHECKER = os.environ.get("TLACONF_GOLDEN_CHECKER", "")

pytestmark = pytest.mark.skipif(
    not CHECKER,
    reason="the golden corpus through a real checker runs with `make test-tlc` (needs TLC_JAR) "
    "or `make test-apalache` (needs apalache-mc)",
)


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=relative_key(TRACES, p)) for p in golden_traces(TRACES)]
)
def test_checker_agrees_with_embedded(path: Path) -> None:
    spec = PROJECT / "spec"
    embedded = EmbeddedBackend()
    checker = get_checker(CHECKER)
    ours = replay_trace(path, spec, embedded)
    theirs = replay_trace(path, spec, embedded, checker=checker)
    cross = replay_trace(path, spec, embedded, checker=checker, cross_check=True)

    def key(r: object) -> tuple[object, ...]:
        f = r.failure  # type: ignore[attr-defined]
        return (r.verdict, None if f is None else f.step)  # type: ignore[attr-defined]

    assert key(theirs) == key(ours), theirs.failure
    assert (theirs.failure and theirs.failure.blame) == (ours.failure and ours.failure.blame)
    assert not cross.undecided, cross.failure
    assert key(cross) == key(ours)
