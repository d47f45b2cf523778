"""TRUE is not 1 in the trace-spec search and in a partial trace's candidate sets.

``data/kinds/KindsTrace.tla`` is the trace-spec form of ``tests/explore/models/kinds/
Kinds.tla``: TLC 1.8.0 finds ``Inv`` violated (``tlc_verdicts.json`` there), through the
state ``<<1, 0>>`` that a search merging it with ``<<TRUE, 0>>`` never explores (and then
accepts the log).  ``data/pspec/Kinds.tla`` is its conformance-module form: the candidates
``<<TRUE, 0>>`` and ``<<1, 0>>`` are two, and a logged ``TRUE`` is not a logged ``1``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.validate.partial import replay_partial
from tlaconf.validate.tracespec import validate_trace_spec

DATA = Path(__file__).with_name("data")
LIB = Path(__file__).parents[1] / "library" / "data" / "lib"
TLC = {r["module"]: r for r in json.loads(
    (Path(__file__).parents[1] / "explore" / "models" / "kinds" / "tlc_verdicts.json")
    .read_text())["runs"]}


def test_the_trace_spec_search_keeps_true_and_1_apart() -> None:
    kinds = DATA / "kinds"
    out = validate_trace_spec(kinds / "KindsTrace.tla", kinds / "KindsTrace.cfg", (LIB,),
                              env={"JSON": str(kinds / "kinds.ndjson")})
    tlc = TLC["KindsTrace"]
    assert tlc["result"] == "violation"
    assert out.result == "rejected"
    assert out.reason == f"invariant {tlc['invariant']} is violated at level 2"
    assert out.candidates[0].state == {"x": 1, "y": 1}
    assert type(out.candidates[0].state["x"]) is int
    assert out.distinct_states == tlc["distinct"]


def _partial(tmp: Path, logged: object) -> Path:
    path = tmp / "kinds.trace.jsonl"
    lines = [{"format": "tlaconf-trace", "version": 1, "module": "Kinds", "revision": "1",
              "partial": True}, {"state": {}}, {"state": {"x": logged, "y": 1}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


@pytest.mark.parametrize(("logged", "result"), [(True, "accepted"), (1, "rejected")])
def test_partial_candidates_keep_true_and_1_apart(tmp_path: Path, logged: object,
                                                  result: str) -> None:
    out = replay_partial(_partial(tmp_path, logged), DATA / "pspec")
    assert out.alive[0] == 2  # <<TRUE, 0>> and <<1, 0>>
    assert out.result == result, out.reason
    if result == "rejected":  # only <<1, 1>> agrees with the log, and it violates Inv
        assert "violates Inv" in (out.reason or "")


def test_the_cli_gives_tlcs_verdict_on_both_forms(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tlaconf.cli.main import main

    kinds = DATA / "kinds"
    code = main(["validate", "--library", str(LIB), "--json", "--env",
                 f"JSON={kinds / 'kinds.ndjson'}", str(kinds / "KindsTrace.tla")])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["result"] == "rejected"
    code = main(["validate", "--json", "--spec", str(DATA / "pspec"),
                 str(_partial(tmp_path, True))])
    assert code == 0 and json.loads(capsys.readouterr().out)["result"] == "accepted"
