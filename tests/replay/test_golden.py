"""The golden corpus under ``traces/``, replayed by the test suite (like ``tlaconf gate``).

Each trace must give what ``traces/verdicts.json`` (or its area's ``expected.json``)
says, with the project's ``spec/`` and the embedded evaluator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.gate.golden import VERDICTS_FILE, golden_traces, load_verdicts, relative_key
from tlaconf.pytest_plugin import check_trace, expectation_for

PROJECT = Path(__file__).resolve().parents[2]
TRACES = PROJECT / "traces"
GOLDEN = golden_traces(TRACES)

KNOWN_ISSUES: dict[str, str] = {}
"""Golden traces that fail for a known bug outside replay, with the reason (strict xfail:
a fix makes them fail here until they are removed from this list)."""


def _param(path: Path) -> object:
    key = relative_key(TRACES, path)
    issue = KNOWN_ISSUES.get(key)
    marks = [pytest.mark.xfail(reason=issue, strict=True)] if issue else []
    return pytest.param(path, id=key, marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in GOLDEN])
def test_golden_trace(path: Path) -> None:
    check_trace(path, PROJECT / "spec", "embedded", expectation_for(path, TRACES))


def test_verdicts_json_lists_exactly_the_golden_traces() -> None:
    listed = set(load_verdicts(TRACES / VERDICTS_FILE))
    assert listed == {relative_key(TRACES, p) for p in GOLDEN}
