"""The Apalache backend against a fake explorer server: requests, spec bundle, answer mapping.

No Apalache binary is available in this test environment: the fake server
(``fake_apalache.py``) answers with the documented result shapes.
"""

from __future__ import annotations

import base64
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_apalache import FakeApalache

from tlaconf.errors import UserError
from tlaconf.replay import replay_trace
from tlaconf.replay.apalache import (
    ApalacheBackend,
    infer,
    literal,
    read_module,
    type_text,
    unify,
)
from tlaconf.spec.lookup import module_spec
from tlaconf.trace import TraceWriter
from tlaconf.values import Fn, ModelValue, record

SPEC = Path(__file__).parents[1] / "replay" / "spec"
COUNTER = SPEC / "conformance" / "Counter.tla"


def state(count: int, a: int = 0, b: int = 0) -> dict[str, Any]:
    return {"count": count, "tally": Fn({"a": a, "b": b})}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApalache]:
    server = FakeApalache()
    monkeypatch.setenv("APALACHE_SERVER", server.url)
    yield server
    server.close()


def counter(limit: int = 10) -> Any:
    return ApalacheBackend().load(module_spec(SPEC, "Counter", "1", {"Limit": limit}))


def root_of(fake: FakeApalache) -> str:
    (params,) = [p for m, p in fake.requests if m == "loadSpec"][-1:]
    return base64.b64decode(params["sources"][0]).decode()


def test_types_and_literals() -> None:
    occupants = Fn({"Play": frozenset({12}), "Bank": frozenset()})
    assert type_text(infer(occupants)) == "(Str -> Set(Int))"
    assert literal(occupants, infer(occupants)) == 'SetAsFun({<<"Play", {12}>>, <<"Bank", {}>>})'
    instances = Fn({1: record(caller=3, complete=True)})
    assert type_text(infer(instances)) == "(Int -> {caller: Int, complete: Bool})"
    assert literal(instances, infer(instances)) == (
        "SetAsFun({<<1, [caller |-> 3, complete |-> TRUE]>>})"
    )
    params = record(by=2, who="a")
    assert type_text(infer(params, record=True)) == "{by: Int, who: Str}"
    assert type_text(infer(Fn({"by": 2, "at": 3}))) == "(Str -> Int)"
    assert type_text(infer((1, 2))) == "Seq(Int)"
    assert type_text(infer((1, "a"))) == "<<Int, Str>>"
    assert type_text(infer(frozenset())) == "Set(Int)"
    r = record(caller=3, complete=True)
    by_id = unify(infer((r,)), infer(Fn({1: r, 3: r})))
    assert type_text(by_id) == "(Int -> {caller: Int, complete: Bool})"
    assert literal((r,), by_id) == "SetAsFun({<<1, [caller |-> 3, complete |-> TRUE]>>})"
    assert literal((), None) == "<<>>"
    with pytest.raises(UserError, match="model value m has no Apalache form"):
        infer(ModelValue("m"))
    with pytest.raises(UserError, match="no common Apalache type"):
        infer(frozenset({1, "a"}))


def test_read_module() -> None:
    info = read_module(module_spec(SPEC, "Counter", "1", {}))
    assert info.variables == ("count", "tally")
    assert info.unary == ("Inc", "Reset")
    assert "Bounded" in info.nullary
    assert info.lines["Inc"] == 7 and info.lines["Bounded"] == 17
    assert info.bundle[0] == COUNTER.read_text()
    assert "MODULE CounterOps" in info.bundle[1] and len(info.bundle) == 2


def test_an_action_that_holds(fake: FakeApalache) -> None:
    fake.oracle = lambda m, p, root: "VIOLATED" if m == "checkInvariant" else "ENABLED"
    assert counter().check_action("Inc", record(by=2, who="a"), state(0), state(2, a=2)) is None
    assert fake.methods() == [
        "loadSpec", "assumeTransition", "nextStep", "assumeTransition", "checkInvariant",
        "disposeSpec",
    ]  # fmt: skip
    load = fake.requests[0][1]
    assert (load["init"], load["next"], load["invariants"]) == (
        "TlaconfInit", "TlaconfNext", ["TlaconfNotTarget"])
    sources = [base64.b64decode(s).decode() for s in load["sources"]]
    assert sources[1] == COUNTER.read_text() and "MODULE CounterOps" in sources[2]
    root = sources[0]
    assert root.startswith("---- MODULE TlaconfApalache ----\n")
    assert "\\* @type: Int;\n  count" in root
    assert "\\* @type: (Str -> Int);\n  tally" in root
    assert "INSTANCE Counter WITH Limit <- 10" in root
    assert "/\\ count = 0\n" in root
    assert 'TlaconfNext == Inc([by |-> 2, who |-> "a"])' in root
    assert (
        "TlaconfNotTarget == ~(count' = 2 /\\ "
        "tally' = SetAsFun({<<\"a\", 2>>, <<\"b\", 0>>}))"
    ) in root
    check = fake.requests[4][1]
    assert (check["invariantId"], check["kind"]) == (0, "ACTION")


@pytest.mark.parametrize("listed", [False, True], ids=["counts", "lists"])
def test_an_action_that_fails_is_blamed_at_its_definition(
    fake: FakeApalache, listed: bool
) -> None:
    fake.n_next = 2
    fake.listed = listed
    blame = counter().check_action("Inc", record(by=2, who="a"), state(0), state(3, a=3))
    assert blame is not None
    assert (blame.text, blame.file, blame.line) == ("Inc(p)", str(COUNTER), 7)
    assert "no transition of it leads from s to s'" in blame.reason
    assert blame.bindings == (("p", '[by |-> 2, who |-> "a"]'),)
    methods = fake.methods()
    assert methods.count("checkInvariant") == 2 and methods.count("rollback") == 2
    rollback = next(p for m, p in fake.requests if m == "rollback")
    next_step = fake.requests[2]
    assert next_step[0] == "nextStep"
    assert rollback["snapshotId"] == 2  # the snapshot nextStep returned


def test_next_for_steps_without_a_label(fake: FakeApalache) -> None:
    mod = counter()
    assert mod.has_next
    fake.oracle = lambda m, p, root: "VIOLATED" if m == "checkInvariant" else "ENABLED"
    assert mod.check_next(state(0), state(2, a=2)) is None
    sources = [base64.b64decode(s).decode() for s in fake.requests[0][1]["sources"]]
    assert "TlaconfNext == Next\n" in sources[0]
    fake.oracle = lambda m, p, root: "DISABLED"
    blame = mod.check_next(state(0), state(3, a=2))
    assert blame is not None and (blame.text, blame.line, blame.bindings) == ("Next", 20, ())


def test_enabled_and_disabled(fake: FakeApalache) -> None:
    mod = counter()
    assert mod.enabled("Reset", record(atLeast=1), state(3)) is True
    fake.oracle = lambda m, p, root: "DISABLED"
    assert mod.enabled("Reset", record(atLeast=5), state(3)) is False
    assert mod.check_action("Reset", record(atLeast=5), state(3), state(0)) is not None
    assert "checkInvariant" not in fake.methods()


def test_unknown_is_an_error(fake: FakeApalache) -> None:
    fake.oracle = lambda m, p, root: "UNKNOWN"
    with pytest.raises(UserError, match=r"cannot decide whether Reset is enabled \(UNKNOWN"):
        counter().enabled("Reset", record(atLeast=1), state(3))
    assert fake.methods()[-1] == "disposeSpec"


def test_invariants_one_session_per_state(fake: FakeApalache) -> None:
    fake.oracle = lambda m, p, root: "VIOLATED" if "count = 11" in root else "SATISFIED"
    mod = counter()
    assert mod.check_invariant("Bounded", state(3)) is None
    assert mod.check_invariant("Bounded", state(3)) is None
    assert fake.methods().count("loadSpec") == 1
    assert "TlaconfNext == UNCHANGED <<count, tally>>" in root_of(fake)
    assert fake.requests[0][1]["invariants"] == ["Bounded"]
    blame = mod.check_invariant("Bounded", state(11))
    assert blame is not None and (blame.text, blame.line) == ("Bounded", 17)


def test_load_errors_and_unknown_invariants(fake: FakeApalache, tmp_path: Path) -> None:
    fake.load_error = (-32602, "Typing error: expected Int, found Str")
    with pytest.raises(UserError, match="Apalache, checking Inc: Typing error"):
        counter().check_action("Inc", record(by=2, who="a"), state(0), state(2, a=2))
    spec = module_spec(SPEC, "Counter", "1", {})
    bad = type(spec)(spec.name, spec.path, spec.search_path, spec.constants, ("Nope",))
    with pytest.raises(UserError, match="INVARIANT Nope is not an operator"):
        ApalacheBackend().load(bad)


def test_unreachable_server(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("APALACHE_SERVER", f"http://127.0.0.1:{port}")
    with pytest.raises(UserError, match="cannot reach the Apalache server"):
        counter().enabled("Reset", record(atLeast=1), state(3))


@pytest.fixture
def no_apalache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in ("APALACHE_SERVER", "APALACHE_MC", "APALACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))


@pytest.mark.usefixtures("no_apalache")
def test_without_apalache_the_error_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(UserError, match=r"apalache-mc not found.*APALACHE_MC=.*APALACHE_SERVER="):
        ApalacheBackend()
    monkeypatch.setenv("APALACHE_MC", str(tmp_path / "nothing"))
    with pytest.raises(UserError, match="is not an executable file"):
        ApalacheBackend()


def write_counter_trace(path: Path) -> Path:
    with TraceWriter(path, "Counter", "1") as w:
        w.init({"count": 0, "tally": {"a": 0, "b": 0}})
        w.step("Inc", {"by": 2, "who": "a"}, "accepted", {"count": 2, "tally": {"a": 2, "b": 0}})
        w.step("Inc", {"by": 5, "who": "b"}, "accepted", {"count": 7, "tally": {"a": 2, "b": 6}})
    return path


def test_cli_without_apalache_exits_2(tmp_path: Path) -> None:
    trace = write_counter_trace(tmp_path / "c.trace.jsonl")
    env = {k: v for k, v in os.environ.items()
           if k not in ("APALACHE_SERVER", "APALACHE_MC", "APALACHE_HOME")}  # fmt: skip
    env["PATH"] = str(tmp_path)
    r = subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--backend", "apalache",
         "--spec", str(SPEC), str(trace)],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "apalache-mc not found" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


def test_replay_verdict_through_the_backend(fake: FakeApalache, tmp_path: Path) -> None:
    def oracle(method: str, params: dict[str, Any], root: str) -> str:
        if method == "checkInvariant" and params["kind"] == "ACTION":
            # Inc by 5 for b cannot end with b = 6: only that step fails.
            return "SATISFIED" if "by |-> 5" in root else "VIOLATED"
        return "ENABLED" if method == "assumeTransition" else "SATISFIED"

    fake.oracle = oracle
    result = replay_trace(write_counter_trace(tmp_path / "c.trace.jsonl"), SPEC, ApalacheBackend())
    assert result.verdict == "violation"
    assert result.failure is not None
    assert (result.failure.step, result.failure.action) == (2, "Inc")
    assert result.failure.blame is not None and result.failure.blame.line == 7


def test_starts_and_stops_its_own_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "apalache-mc"
    fake_module = Path(__file__).with_name("fake_apalache.py")
    script.write_text(f"#!{sys.executable}\nimport runpy, sys\n"
                      f"runpy.run_path({str(fake_module)!r}, run_name='__main__')\n")  # fmt: skip
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("APALACHE_SERVER", raising=False)
    monkeypatch.setenv("APALACHE_MC", str(script))
    backend = ApalacheBackend()
    mod = backend.load(module_spec(SPEC, "Counter", "1", {}))
    try:
        assert mod.enabled("Reset", record(atLeast=1), state(3)) is True
        server = backend._server
        assert server is not None and server.process.poll() is None
    finally:
        backend.close()
    assert server.process.poll() is not None


def test_the_root_module_is_valid_tla(fake: FakeApalache) -> None:
    from tlaconf.tla import ast
    from tlaconf.tla.parser import parse_module

    fake.oracle = lambda m, p, root: "VIOLATED" if m == "checkInvariant" else "ENABLED"
    counter().check_action("Inc", record(by=2, who="a"), state(0), state(2, a=2))
    module = parse_module(root_of(fake), "TlaconfApalache.tla")
    assert module.extends == ("Apalache",)
    assert module.variables() == ("count", "tally")
    (instance,) = [u for u in module.units if isinstance(u, ast.Instance)]
    assert instance.module == "Counter" and [n for n, _ in instance.substitutions] == ["Limit"]
    assert {"TlaconfInit", "TlaconfNext", "TlaconfNotTarget"} <= set(module.definitions())


APALACHE_SETASFUN = """---- MODULE Apalache ----
SetAsFun(S) == [x \\in {p[1] : p \\in S} |-> CHOOSE y \\in {p[2] : p \\in S} : <<x, y>> \\in S]
====
"""


def test_the_root_module_means_what_the_backend_assumes(
    fake: FakeApalache, tmp_path: Path
) -> None:
    """Evaluated by tlaconf's own evaluator (with SetAsFun written in TLA+), the generated
    Init pins s, Next is the action, and TlaconfNotTarget is FALSE exactly on s'."""
    evaluate = pytest.importorskip("tlaconf.evaluate")
    fake.oracle = lambda m, p, root: "VIOLATED" if m == "checkInvariant" else "ENABLED"
    counter(limit=3).check_action("Inc", record(by=2, who="a"), state(0), state(2, a=2))
    (tmp_path / "Apalache.tla").write_text(APALACHE_SETASFUN)
    root = tmp_path / "TlaconfApalache.tla"
    root.write_text(root_of(fake))
    search = (tmp_path, SPEC / "conformance", SPEC / "reference-profile" / "rev1")
    ctx = evaluate.load_module(root, search, {})
    assert ctx.holds("TlaconfInit", (), state(0))
    assert not ctx.holds("TlaconfInit", (), state(0, b=1))
    assert ctx.holds("TlaconfNext", (), state(0), state(2, a=2))
    assert not ctx.holds("TlaconfNext", (), state(0), state(2, b=2))
    assert not ctx.holds("TlaconfNotTarget", (), state(0), state(2, a=2))
    assert ctx.holds("TlaconfNotTarget", (), state(0), state(2, b=2))
    assert ctx.holds("Bounded", (), state(3)) and not ctx.holds("Bounded", (), state(4))
