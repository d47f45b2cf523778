"""``tlaconf validate --cross-check tlc``: TLC on the same trace spec (or partial trace)
and log, any difference in verdict or log lines consumed reported with exit 3.

TLC's verdict is read from its exit status and message codes (tested without Java);
the runs need ``TLC_JAR`` and, for the trace specs (they read their log with ``Json``),
``TLACONF_COMMUNITY_JAR``."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.cli.clihelp import runner
from tests.tlc.partial_tlc import STACK
from tlaconf.replay.tlc.tracespec import read_verdict

MODULES = Path(__file__).parents[1] / "tracespecs" / "modules"
PARTIAL = Path(__file__).parents[2] / "traces" / "partial"
JAR = os.environ.get("TLACONF_COMMUNITY_JAR")
needs_tlc = pytest.mark.skipif(
    not os.environ.get("TLC_JAR") or not JAR,
    reason="needs TLC and the community modules: set TLC_JAR=/path/to/tla2tools.jar and "
    "TLACONF_COMMUNITY_JAR=/path/to/CommunityModules-deps.jar")


def _msg(code: int, text: str, cls: int = 0) -> str:
    return f"@!@!@STARTMSG {code}:{cls} @!@!@\n{text}\n@!@!@ENDMSG {code} @!@!@\n"


def test_tlcs_verdict_from_its_exit_status_and_messages() -> None:
    stats = (_msg(2199, "8 states generated, 3 distinct states found, 0 states left on queue.")
             + _msg(2194, "The depth of the complete state graph search is 3."))
    ok = read_verdict(0, _msg(2193, "Model checking completed. No error has been found.")
                      + stats)
    assert (ok.verdict, ok.depth, ok.distinct) == ("accepted", 3, 3)
    post = read_verdict(10, _msg(2404, "Postcondition TraceAccepted is false.", 1) + stats)
    assert post.verdict == "rejected" and "Postcondition" in post.message
    assert read_verdict(13, _msg(2116, "Temporal property T was violated.", 1)).verdict \
        == "rejected"
    assert read_verdict(10, _msg(2104, "Assumption line 3 is false.", 1)).verdict == "failed"
    err = read_verdict(75, _msg(1000, "Attempted to apply the record to a field", 1))
    assert err.verdict == "failed" and "exit status 75" in err.message


def _env() -> dict[str, str]:
    return {"TLACONF_LIBRARY": str(JAR), "TLC_JAVA_OPTS": STACK}


@needs_tlc
@pytest.mark.parametrize("name", ["DiagLevel", "DiagEvent", "DiagPaper", "DiagNoView"])
def test_tlc_agrees_on_each_style(name: str, tmp_path: Path) -> None:
    run = runner(tmp_path)("validate", f"{name}.tla", "--cross-check", "tlc", "--json",
                           cwd=MODULES, env=_env())
    assert run.code == 1, run.err
    check = json.loads(run.out)["cross_check"]
    assert check["agrees"] and check["verdict"] == "rejected", check


@needs_tlc
def test_a_difference_is_exit_3(tmp_path: Path) -> None:
    """The log path is relative: TLC reads it beside the spec (its folder), tlaconf from
    where it runs; the two logs differ, and so do the verdicts."""
    spec = tmp_path / "spec"
    spec.mkdir()
    for name in ("DiagEvent.tla", "DiagEvent.cfg", "DiagEvent.ndjson"):
        shutil.copy(MODULES / name, spec)
    (tmp_path / "DiagEvent.ndjson").write_text(
        '{"event": "timeout", "node": "b", "term": 1}\n{"event": "elect", "node": "b"}\n')
    run = runner(tmp_path)("validate", spec / "DiagEvent.tla", "--cross-check", "tlc",
                           cwd=tmp_path, env=_env())
    assert run.code == 3, run.out + run.err
    assert "DiagEvent: accepted" in run.out
    assert "cross-check tlc: DIFFERS" in run.out and "verdict: TLC rejected, tlaconf accepted" \
        in run.out


@needs_tlc
@pytest.mark.parametrize("trace", ["wrong-zone-filed", "moves-logged-zones"])
def test_partial_traces_by_tlcs_own_search(trace: str, tmp_path: Path) -> None:
    path = PARTIAL / f"{trace}.trace.jsonl"
    run = runner(tmp_path)("validate", path, "--cross-check", "tlc", "--json",
                           "--spec", PARTIAL.parents[1] / "spec", env=_env())
    want = json.loads((PARTIAL / "expected.json").read_text())[path.name]
    check = json.loads(run.out)["cross_check"]
    assert check["agrees"] and check["verdict"] == want["verdict"], check
    assert run.code == (0 if want["verdict"] == "conforms" else 1)
    assert check["failing_step"] == want.get("step")


def test_without_tlc_exit_2_saying_how(tmp_path: Path) -> None:
    env = {"TLC_JAR": ""}
    cli = runner(tmp_path)
    for args in (["DiagLevel.tla"], [PARTIAL / "moves-logged-zones.trace.jsonl", "--spec",
                                     PARTIAL.parents[1] / "spec"]):
        run = cli("validate", *args, "--cross-check", "tlc", cwd=MODULES, env=env)
        assert run.code == 2 and "TLC_JAR is not set" in run.err, run.err
    run = cli("validate", PARTIAL / "moves-logged-zones.trace.jsonl", "--cross-check", "tlc",
              "--tlc-options", "-lncheck final", cwd=MODULES, env=env)
    assert run.code == 2 and "--tlc-options does not apply to a partial trace" in run.err
