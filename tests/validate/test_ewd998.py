"""The public case: tlaplus/Examples' EWD998ChanTrace with its log and mutations of it.

Needs ``TLACONF_EXAMPLES`` (a tlaplus/Examples checkout) and ``TLACONF_COMMUNITY_JAR``
(CommunityModules-deps.jar) or ``TLACONF_COMMUNITY_MODULES`` (a CommunityModules
checkout, whose ``modules`` folder is used).  The verdicts
expected are TLC's (measured with tla2tools 1.8.0 and the CommunityModules jar; with
``TLC_JAR`` set, ``make bench`` measures them again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.ewd998 import run_tlaconf, write_logs

EXAMPLES = os.environ.get("TLACONF_EXAMPLES")
_CHECKOUT = os.environ.get("TLACONF_COMMUNITY_MODULES")
JAR = os.environ.get("TLACONF_COMMUNITY_JAR") or (
    str(Path(_CHECKOUT) / "modules") if _CHECKOUT else None)
"""The community modules: the jar, else a CommunityModules checkout's ``modules``."""
pytestmark = pytest.mark.skipif(
    not (EXAMPLES and JAR), reason="set TLACONF_EXAMPLES (a tlaplus/Examples checkout) and "
    "TLACONF_COMMUNITY_JAR (CommunityModules-deps.jar) or TLACONF_COMMUNITY_MODULES (a "
    "CommunityModules checkout) to validate EWD998ChanTrace")

TLC_VERDICTS = {
    "original": (0, 654, 655),
    "receive value changed": (1, 96, 655),
    "send value changed": (0, 654, 655),  # the trace spec never compares a sent token's q
    "deletion (a payload receive)": (0, 477, 654),  # TLC: accepted, the sort cut the log
    "deletion (a deactivation)": (0, 464, 654),
    "swap (deactivate/send)": (1, 393, 655),
}
"""Log -> (exit code as TLC's verdict, entries checked, lines read)."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_logs(Path(str(EXAMPLES)), tmp_path_factory.mktemp("ewd998"))


@pytest.mark.parametrize("name", list(TLC_VERDICTS))
def test_same_verdict_as_tlc(logs: dict[str, Path], name: str) -> None:
    code, _, report = run_tlaconf(Path(str(EXAMPLES)), Path(str(JAR)), logs[name])
    expected, checked, read = TLC_VERDICTS[name]
    assert code == expected, report
    assert report["log"]["entries_checked"] == checked
    assert report["log"]["lines_read"] == read
    if name == "original":
        assert report["distinct_states"] == 659 and report["depth"] == 655
    if name.startswith("deletion"):  # what TLC does not say
        assert any("CausalOrder ordered" in w for w in report["warnings"])
    if code == 1:
        assert report["failure"]["log_line"].startswith(str(logs[name]))
        assert report["failure"]["candidates"][0]["blame"] is not None


def test_the_send_value_hole_is_reported(logs: dict[str, Path]) -> None:
    """TLC accepts a token send whose ``q`` changed (the trace spec never reads it);
    tlaconf accepts it too, and says which logged fields were never read, on which lines
    (the changed one among them); ``--strict`` fails on it."""
    changed, original = logs["send value changed"], logs["original"]
    pairs = zip(changed.read_text().splitlines(), original.read_text().splitlines(),
                strict=True)
    line = next(n for n, (a, b) in enumerate(pairs, 1) if json.loads(a) != json.loads(b))
    code, _, report = run_tlaconf(Path(str(EXAMPLES)), Path(str(JAR)), changed)
    assert code == 0, report
    assert f"{changed}:{line}" in report["unconstrained_fields"]["pkt.msg.q"]
    assert any(w.startswith("logged field pkt.msg.q is never read") for w in report["warnings"])
    code, _, report = run_tlaconf(Path(str(EXAMPLES)), Path(str(JAR)), changed, "--strict")
    assert code == 1
    received = logs["receive value changed"]
    code, _, report = run_tlaconf(Path(str(EXAMPLES)), Path(str(JAR)), received)
    assert code == 1 and report["unconstrained_fields"] == {}  # rejected: no such report
