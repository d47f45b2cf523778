"""A rejected step's guard: the conjuncts of its action that read no next state.

``state_guards`` finds them statically; the checker asks them (a STATE invariant)
before the ENABLED probe, and only a VIOLATED guard settles the step without it.
Soundness: ``A(p)`` implies its guard, so a guard that holds says nothing (the
probe follows, whatever it finds) and an enabled action is still reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.apalache.fake_apalache import HERE, FakeApalache
from tlaconf.evaluate import load_module
from tlaconf.gate.golden import golden_traces
from tlaconf.replay import replay_trace
from tlaconf.replay.apalache import checker as checker_module
from tlaconf.replay.apalache.checker import session_texts
from tlaconf.replay.apalache.enabling import PARAM, Guards, state_guards
from tlaconf.replay.apalache.root import GUARD_OPERATOR
from tlaconf.replay.backend import get_checker
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.lookup import module_spec
from tlaconf.trace import TraceWriter
from tlaconf.trace.partial import is_partial
from tlaconf.trace.reader import open_trace

PROJECT = Path(__file__).resolve().parents[2]

GATE = r"""---- MODULE Gate ----
EXTENDS Naturals, GateOps
VARIABLES x, log

LOCAL Private(v) == v # 42

\* @type: ({to: Int, ok: Bool}) => Bool;
Set(p) ==
    LET target == p.to IN
    /\ p.ok
    /\ Within(x, target)
    /\ x' = target
    /\ x' < 5
    /\ Shifted(x, x')
    /\ log' = log \cup {target}
    /\ Private(target)
    /\ \A Cap2 \in log : Cap2 # 99

Inv == x <= Cap
====
"""
OPS = r"""---- MODULE GateOps ----
EXTENDS Naturals
CONSTANT Cap
Within(a, b) == b <= Cap /\ a # b
Shifted(before, after) == /\ before # 7
                          /\ after # before
====
"""


def _gate(tmp_path: Path) -> Path:
    spec = tmp_path / "spec"
    (spec / "conformance").mkdir(parents=True)
    (spec / "reference-profile" / "rev1").mkdir(parents=True)
    (spec / "conformance" / "Gate.tla").write_text(GATE)
    (spec / "conformance" / "Gate.cfg").write_text("INVARIANT Inv\nCONSTANT Cap = 9\n")
    (spec / "reference-profile" / "rev1" / "GateOps.tla").write_text(OPS)
    return spec


def test_the_guard_is_the_conjuncts_that_read_no_next_state(tmp_path: Path) -> None:
    """Through LET and calls (``Within`` by its name, ``Shifted`` expanded since it reads the
    next state, the LOCAL ``Private`` expanded since the root module cannot name it);
    without ``x' < 5``, ``after # before`` and ``log' = ...``, which read the next state."""
    spec = module_spec(_gate(tmp_path), "Gate", "1", {})
    guard = state_guards(spec, {"Set"}, ("x", "log")).bodies["Set"]
    assert guard == (
        f"(({PARAM}).ok) /\\ (Within((x), ((({PARAM}).to)))) /\\ ((((x)) /= (7))) /\\ "
        f"(((((({PARAM}).to))) /= (42))) /\\ ((\\A Cap2 \\in (log) : (((Cap2) /= (99)))))"
    )


def test_names_the_root_module_cannot_see_are_left_out(tmp_path: Path) -> None:
    """A binder that is a name of the root module (``Gen``, Apalache's: it would clash there)
    and a constant the root module does not bind leave their conjuncts out; nothing is left
    of ``Only``."""
    spec_dir = _gate(tmp_path)
    text = GATE.replace("Inv ==", "\\* @type: ({to: Int}) => Bool;\n"
                        "Only(p) == /\\ \\A Gen \\in log : Gen > 0\n"
                        "           /\\ x' = p.to /\\ log' = log\n\nInv ==")  # fmt: skip
    (spec_dir / "conformance" / "Gate.tla").write_text(text)
    spec = module_spec(spec_dir, "Gate", "1", {})
    assert "Only" not in state_guards(spec, {"Only"}, ("x", "log")).bodies
    spec = module_spec(spec_dir, "Gate", "1", {})
    unbound = spec.__class__(spec.name, spec.path, spec.search_path, {}, spec.invariants)
    assert "TlaconfConst_Cap" not in state_guards(unbound, {"Set"}, ("x", "log")).bodies["Set"]


def _trace(path: Path, steps: list[tuple[dict[str, Any], str, dict[str, Any]]]) -> Path:
    with TraceWriter(path, "Gate", "1", {}) as w:
        w.init({"x": 0, "log": set()})
        for params, outcome, state in steps:
            w.step("Set", params, outcome, state)
    return path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Any:
    server = FakeApalache()
    monkeypatch.setenv("APALACHE_SERVER", server.url)
    yield server
    server.close()


def _probes(fake: FakeApalache) -> list[str]:
    """The ENABLED probes (``TlaconfE<k>`` transitions) the checker asked for."""
    asked = [fake.labels[p["sessionId"]][p["transitionId"]] for m, p in fake.requests
             if m == "assumeTransition" and p["transitionId"] > 0]  # fmt: skip (0: Init)
    return [label for label in asked if label and label.startswith("TlaconfE")]


def _guards_asked(fake: FakeApalache) -> int:
    return sum(1 for m, p in fake.requests if m == "checkInvariant" and p["kind"] == "STATE"
               and p["invariantId"] >= 1)  # fmt: skip (invariant 0 is Inv)


def _replay(spec: Path, path: Path) -> Any:
    ours = replay_trace(path, spec, EmbeddedBackend())
    theirs = replay_trace(path, spec, EmbeddedBackend(), checker=get_checker("apalache"))
    assert (theirs.verdict, theirs.failure and theirs.failure.step) == (
        ours.verdict, ours.failure and ours.failure.step)  # fmt: skip
    return theirs


def test_a_false_guard_settles_the_step_without_the_probe(fake: FakeApalache,
                                                          tmp_path: Path) -> None:  # fmt: skip
    spec = _gate(tmp_path)
    path = _trace(tmp_path / "t.trace.jsonl", [({"to": 3, "ok": False}, "rejected",
                                                 {"x": 0, "log": set()})])  # fmt: skip
    assert _replay(spec, path).verdict == "conforms"
    assert "TlaconfG1Q == TlaconfG1:: (TlaconfGuard_Set(TlaconfP1))" in fake.root()
    assert "TlaconfP1 == [ok |-> FALSE, to |-> 3]" in fake.root()
    assert _guards_asked(fake) >= 1 and _probes(fake) == []


def test_a_guard_that_holds_falls_back_to_the_probe(fake: FakeApalache, tmp_path: Path) -> None:
    """``to |-> 6``: every conjunct of the guard holds, but ``x' < 5`` does not: the action is
    disabled, which only the probe can tell; it conforms."""
    spec = _gate(tmp_path)
    path = _trace(tmp_path / "t.trace.jsonl", [({"to": 6, "ok": True}, "rejected",
                                                 {"x": 0, "log": set()})])  # fmt: skip
    assert _replay(spec, path).verdict == "conforms"
    assert _guards_asked(fake) >= 1 and _probes(fake) == ["TlaconfE1"]


def test_an_enabled_action_is_still_reported(fake: FakeApalache, tmp_path: Path) -> None:
    spec = _gate(tmp_path)
    path = _trace(tmp_path / "t.trace.jsonl", [({"to": 3, "ok": True}, "rejected",
                                                 {"x": 0, "log": set()})])  # fmt: skip
    result = _replay(spec, path)
    assert result.verdict == "violation" and result.failure is not None
    assert result.failure.step == 1 and "ENABLED Set(p) is TRUE" in result.failure.reason
    assert _probes(fake) == ["TlaconfE1"]


def test_a_guard_apalache_refuses_is_not_used(fake: FakeApalache, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A guard the model checker refuses (an internal error) leaves the step to the probe;
    one that does not load (here a string concatenation, which Snowcat refuses) is left
    out of the root module, which is loaded again without it."""
    spec = _gate(tmp_path)
    path = _trace(tmp_path / "t.trace.jsonl", [({"to": 3, "ok": False}, "rejected",
                                                 {"x": 0, "log": set()})])  # fmt: skip
    fake.errors[("checkInvariant", "TlaconfG1Q")] = "Trying to expand a set of functions."
    assert _replay(spec, path).verdict == "conforms"
    assert _probes(fake) == ["TlaconfE1"]
    fake.errors.clear()
    real = checker_module.state_guards
    monkeypatch.setattr(checker_module, "state_guards", lambda *a: Guards({
        a: f'{body} /\\ "a" \\o "b" = "ab"' for a, body in real(*a).bodies.items()}))  # fmt: skip
    before = len(fake.sources)
    assert _replay(spec, path).verdict == "conforms"
    assert fake.methods().count("loadSpec") >= 2 and len(fake.sources) == before + 1
    assert GUARD_OPERATOR not in fake.root() and _probes(fake)[-1] == "TlaconfE1"


def test_the_guards_of_the_golden_traces_are_implied_by_their_actions(tmp_path: Path) -> None:
    """Every rejected step of the golden corpus whose action is enabled (the embedded
    evaluator's ENABLED) has a guard that holds; and the guards settle most steps."""
    embedded = EmbeddedBackend()
    settled = checked = 0
    modules: set[tuple[str, str]] = set()
    for n, path in enumerate(golden_traces(PROJECT / "traces")):
        if is_partial(path):
            continue
        with open_trace(path) as t:
            header = t.header
            rejected = any(s.outcome == "rejected" and s.action for s in t.steps())
        if not rejected or ((header.module, header.revision) in modules and n % 4):
            continue  # every module, and a quarter of the traces
        modules.add((header.module, header.revision))
        spec = module_spec(PROJECT / "spec", header.module, header.revision, header.constants)
        module = embedded.load(spec)
        texts = session_texts(spec, module, path)
        folder = tmp_path / str(n)
        folder.mkdir()
        root = texts.root()
        for text in (root.text, *texts.bundle):
            name = text.split("MODULE", 1)[1].split()[0]
            (folder / f"{name}.tla").write_text(text)
        ctx = load_module(folder / "TlaconfApalache.tla", (folder, HERE), {})
        with open_trace(path) as t:
            before = dict(t.initial)
            for k, step in enumerate(t.steps(), start=1):
                if step.outcome == "rejected" and step.action in texts.guards.bodies:
                    state = {**before, "tlaconf_k": k - 1}
                    holds = ctx.holds(f"{GUARD_OPERATOR}{step.action}", (step.params,), state)
                    enabled = ctx.enabled(f"TlaconfE{k}Q", (), state)  # the probe
                    assert holds or not enabled, (path, k)
                    checked += 1
                    settled += not holds
                before = dict(step.state)
    assert checked > 100 and settled > checked // 2
