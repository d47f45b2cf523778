"""``make test-tracespecs``: public trace specs run unchanged, and on one mutated log
each, with TLC's verdict, states and depth (recorded in ``tlc_answers.json`` by
``python -m tests.tracespecs.generate_tlc_answers``, so no Java is needed here).

Each case needs its checkout (the environment variable of :mod:`corpus`; skipped with a
message saying how to get it) and the community modules (``TLACONF_COMMUNITY_JAR``, or
``TLACONF_COMMUNITY_MODULES``, a CommunityModules checkout).  A ``.cfg`` with
``PROPERTY`` lines that tlaconf refuses (exit 2) is an expected failure, never a pass, with
the refusal as its reason; the same ``.cfg`` without them (``no-properties``) checks the
search itself against TLC's.  A long log (etcd raft's whole log: TLC takes over an hour)
is run as committed only, and only with ``TLACONF_LONG_LOGS=1`` (it takes tens of minutes),
against TLC's verdict recorded from a measured run (its ``source`` says which); its states
and depth are checked when recorded.  What ``Print``/``PrintT`` printed must be what TLC printed,
line for line (etcd raft's progress lines), where no property is checked and where the
value printed fits on one line (:func:`_short`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.tracespecs.corpus import CASES, CFGS, LOGS, Case, has_properties, prepare
from tlaconf.errors import UserError
from tlaconf.explore import Unsupported
from tlaconf.validate.tracespec import validate_trace_spec

HERE = Path(__file__).parent
ANSWERS: dict[str, Any] = json.loads((HERE / "tlc_answers.json").read_text())["runs"]
_CHECKOUT = os.environ.get("TLACONF_COMMUNITY_MODULES")
LIBRARY = os.environ.get("TLACONF_COMMUNITY_JAR") or (
    str(Path(_CHECKOUT) / "modules") if _CHECKOUT else None)

RUNS = [(case, log, cfg) for case in CASES for log in LOGS for cfg in CFGS
        if not case.long or (log, cfg) == (LOGS[0], CFGS[0])]


def _root(case: Case) -> Path:
    root = case.root()
    if root is None:
        pytest.skip(f"{case.name}: {case.how}")
    if LIBRARY is None:
        pytest.skip("set TLACONF_COMMUNITY_JAR (CommunityModules-deps.jar) or "
                    "TLACONF_COMMUNITY_MODULES (a CommunityModules checkout)")
    return root


@pytest.mark.parametrize(("case", "log", "cfg"), RUNS,
                         ids=[f"{c.name}/{log}/{cfg}" for c, log, cfg in RUNS])
def test_same_verdict_states_depth_and_prints_as_tlc(
    case: Case, log: str, cfg: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(case)
    if case.long and os.environ.get("TLACONF_LONG_LOGS") != "1":
        pytest.skip(f"{case.name}: a long log (tens of minutes): set TLACONF_LONG_LOGS=1 "
                    "to run it")
    if cfg == "no-properties" and not has_properties((root / case.cfg).read_text()):
        pytest.skip(f"{case.cfg} has no PROPERTY: the as-is run is the same")
    key = f"{case.name}/{log}/{cfg}"
    assert key in ANSWERS, f"no TLC answer for {key}: run the generator"
    tlc = ANSWERS[key]
    cfg_path, env = prepare(case, root, log, cfg, tmp_path)
    try:
        out = validate_trace_spec(root / case.spec, cfg_path, [Path(str(LIBRARY))], env)
    except Unsupported as err:
        if cfg == "as-is" and "PROPERTY" in str(err):
            pytest.xfail(f"expected-unsupported (exit 2): {err}")
        raise
    except UserError as err:  # exit 2: TLC must have failed too
        assert tlc["verdict"] == "failed", f"TLC: {tlc}; tlaconf: {err}"
        return
    assert out.result == tlc["verdict"], f"TLC: {tlc}; tlaconf: {out.reason}"
    if "distinct" not in tlc:  # a long log's verdict, recorded from a run of its source
        assert case.long and tlc.get("source"), key
        return
    assert (out.distinct_states, out.depth) == (tlc["distinct"], tlc["depth"])
    if cfg == "no-properties" or not has_properties((root / case.cfg).read_text()):
        # checking properties, TLC evaluates steps again and prints again (twice the
        # first step of etcd raft, the whole counterexample after a violation)
        assert _short(capsys.readouterr().err.splitlines()) == _short(tlc["printed"])


def _short(lines: list[str]) -> list[str]:
    """The printed lines TLC prints on one line as tlaconf does: TLC's pretty-printer
    wraps a longer value over several lines, with record fields in the order TLC first
    met their names."""
    return [line for line in lines if len(line) < _WIDTH]


_WIDTH = 78


def test_every_case_has_a_mutated_log_tlc_rejects() -> None:
    for case in CASES:
        if case.long:  # only its committed log is run
            assert ANSWERS[f"{case.name}/original/as-is"]["verdict"] == "accepted", case.name
            continue
        verdicts = {k: v["verdict"] for k, v in ANSWERS.items()
                    if k.startswith(f"{case.name}/mutated/as-is")}
        assert verdicts and set(verdicts.values()) == {"rejected"}, case.name
        assert ANSWERS[f"{case.name}/original/as-is"]["verdict"] == case.verdict, case.name
