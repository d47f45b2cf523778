"""The ``tlc`` backend and ``--cross-check tlc`` against a real TLC (where ``TLC_JAR`` is set).

Without TLC these tests skip, saying so; the CLI's answer without TLC is tested
always.  Traces are of the test module ``Counter`` (``tests/replay/spec``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tlaconf.trace import TraceWriter

SPEC = Path(__file__).parents[1] / "replay" / "spec"
needs_tlc = pytest.mark.skipif(
    not os.environ.get("TLC_JAR"),
    reason="needs TLC: set TLC_JAR=/path/to/tla2tools.jar (see docs/checkers.md, 'TLC')",
)


def st(count: int, a: int = 0, b: int = 0) -> dict[str, Any]:
    return {"count": count, "tally": {"a": a, "b": b}}


def write(path: Path, steps: list[tuple[str, dict[str, Any], str, dict[str, Any]]],
          initial: dict[str, Any] | None = None, limit: int = 10) -> Path:  # fmt: skip
    with TraceWriter(path, "Counter", "1", {"Limit": limit}) as w:
        w.init(initial or st(0))
        for action, params, outcome, state in steps:
            if action is None:
                w.unlabeled_step(state, outcome)
            else:
                w.step(action, params, outcome, state)
    return path


def inc(by: int, state: dict[str, Any], outcome: str = "accepted") -> tuple[Any, ...]:
    return ("Inc", {"by": by, "who": "a"}, outcome, state)


def replay(*args: str, env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    r = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "--spec", str(SPEC), *args],
        capture_output=True, text=True, env={**os.environ, **(env or {})},
    )  # fmt: skip
    doc = json.loads(r.stdout) if r.stdout.strip() else None
    return r.returncode, doc, r.stderr


def test_without_tlc_replay_exits_2_saying_how_to_install(tmp_path: Path) -> None:
    trace = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    env = {k: v for k, v in os.environ.items() if k != "TLC_JAR"}
    for flags in (["--backend", "tlc"], ["--cross-check", "tlc"]):
        r = subprocess.run(
            [sys.executable, "-m", "tlaconf.cli.main", "replay", *flags, "--spec", str(SPEC),
             str(trace)], capture_output=True, text=True, env=env,
        )  # fmt: skip
        assert r.returncode == 2, r.stderr
        assert "TLC_JAR is not set" in r.stderr and "tla2tools.jar" in r.stderr
        assert "Traceback" not in r.stderr


def test_cross_check_needs_the_embedded_side(tmp_path: Path) -> None:
    trace = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    code, _, err = replay("--backend", "tlc", "--cross-check", "tlc", str(trace))
    assert code == 2 and "without --backend tlc" in err


CASES = {
    "conforms": ([inc(2, st(2, a=2)), ("Reset", {"atLeast": 5}, "rejected", st(2, a=2)),
                  inc(3, st(5, a=5)), ("Reset", {"atLeast": 5}, "accepted", st(0))],
                 ("conforms", None)),
    "wrong-effect": ([inc(1, st(1, a=1)), inc(2, st(4, a=4))], ("violation", 2)),
    "rejected-enabled": ([inc(1, st(1, a=1)), inc(1, st(1, a=1), "rejected")],
                         ("violation", 2)),
    "rejected-changed": ([("Reset", {"atLeast": 9}, "rejected", st(1))], ("violation", 1)),
    "invariant": ([inc(6, st(6, a=6)), inc(6, st(12, a=12))], ("violation", 2)),
    "unlabeled": ([inc(1, st(1, a=1)), (None, None, "accepted", st(2, a=2)),
                   (None, None, "accepted", st(5, a=2))], ("violation", 3)),
}  # fmt: skip


@needs_tlc
@pytest.mark.parametrize(("name", "chunk"), [*((n, "500") for n in sorted(CASES)),
                                             ("wrong-effect", "1"), ("invariant", "1")])
def test_tlc_gives_the_embedded_verdict(tmp_path: Path, name: str, chunk: str) -> None:
    steps, expected = CASES[name]
    trace = write(tmp_path / f"{name}.trace.jsonl", steps)
    env = {"TLACONF_TLC_CHUNK": chunk}
    results = {}
    for flags in ([], ["--backend", "tlc"], ["--cross-check", "tlc"]):
        code, doc, err = replay(*flags, str(trace), env=env)
        assert doc is not None, err
        t = doc["traces"][0]
        failure = t["failure"] or {}
        results[" ".join(flags) or "embedded"] = (
            t["verdict"], failure.get("step"), failure.get("blame"), code)  # fmt: skip
    assert {k: v[:2] for k, v in results.items()} == dict.fromkeys(results, expected)
    # the blame is the embedded evaluator's, whoever decided
    assert results["--backend tlc"][2] == results["embedded"][2]
    assert len({v[3] for v in results.values()}) == 1


@needs_tlc
def test_an_initial_state_breaking_an_invariant(tmp_path: Path) -> None:
    trace = write(tmp_path / "i.trace.jsonl", [inc(1, st(12, a=12))], initial=st(11, a=11))
    code, doc, _ = replay("--backend", "tlc", str(trace))
    failure = doc["traces"][0]["failure"]
    assert code == 1 and failure["step"] == 0 and "Bounded" in failure["reason"]


@needs_tlc
def test_a_disagreement_is_exit_3_with_both_answers(tmp_path: Path) -> None:
    # the evaluating side is a backend that accepts every step; TLC does not
    trace = write(tmp_path / "w.trace.jsonl", [inc(1, st(1, a=1)), inc(2, st(4, a=4))])
    root = str(Path(__file__).resolve().parents[2])
    env = {"PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    code, doc, err = replay("--backend", "tests.tlc.lenient:AcceptAll", "--cross-check", "tlc",
                            str(trace), env=env)  # fmt: skip
    assert code == 3, err
    t = doc["traces"][0]
    assert t["verdict"] == "error" and t["undecided"] is True
    assert "embedded says conforms, tlc says violation at step 2" in t["failure"]["reason"]


@needs_tlc
@pytest.mark.parametrize(("options", "said"), [("-Xmx0", "Invalid maximum heap size: -Xmx0"),
                                               ("-XXbogus", "Unrecognized option: -XXbogus")])
def test_java_refusing_tlc_java_opts_is_exit_2(tmp_path: Path, options: str, said: str) -> None:
    """Options Java refuses are a bad setting, said before any trace is replayed."""
    trace = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    code, doc, err = replay("--backend", "tlc", str(trace), env={"TLC_JAVA_OPTS": options})
    assert (code, doc) == (2, None), err
    assert f"TLC_JAVA_OPTS={options}" in err and said in err and "Traceback" not in err


@needs_tlc
def test_tlc_rejecting_the_spec_is_exit_2(tmp_path: Path) -> None:
    trace = write(tmp_path / "f.trace.jsonl", [("Inc", {"by": 1}, "accepted", st(1, a=1))])
    code, doc, _ = replay("--backend", "tlc", str(trace))
    assert code == 2
    assert "TLC rejects the specification" in doc["traces"][0]["failure"]["reason"]
    assert 'nonexistent field "who"' in doc["traces"][0]["failure"]["reason"]


@needs_tlc
def test_tlc_failing_is_exit_3(tmp_path: Path) -> None:
    # Java takes the option (java -XX:MaxMetaspaceSize=6m -version runs); TLC runs out of it
    trace = write(tmp_path / "t.trace.jsonl", [inc(1, st(1, a=1))])
    code, doc, _ = replay("--backend", "tlc", str(trace),
                          env={"TLC_JAVA_OPTS": "-XX:MaxMetaspaceSize=6m"})
    assert code == 3
    t = doc["traces"][0]
    assert t["undecided"] is True and "tlc could not decide: TLC failed" in t["failure"]["reason"]
