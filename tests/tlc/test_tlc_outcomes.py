"""Reading TLC's ``-tool`` output, and the TLC session's chunking, without TLC itself.

The outputs are of the shapes TLC 2.19+ prints (message codes from
``tlc2.output.EC``); the session tests script TLC's answers per chunk and check
which step each answer blames, across chunk boundaries.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from tlaconf.errors import CheckerFailed, UserError
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.replay.tlc import checker as tlc_checker
from tlaconf.replay.tlc.process import Tlc, TlcResult, find_tlc, read_outcome
from tlaconf.spec.lookup import module_spec
from tlaconf.trace.reader import Step

SPEC = Path(__file__).parents[1] / "replay" / "spec"


def msg(code: int, cls: int, body: str) -> str:
    return f"@!@!@STARTMSG {code}:{cls} @!@!@\n{body}\n@!@!@ENDMSG {code} @!@!@\n"


def state(n: int, step: int) -> str:
    return msg(2217, 4, f"{step + 1}: <Next line 1>\n/\\ count = {n}\n/\\ trace_step = {step}\n")


def test_no_error() -> None:
    out = msg(2185, 0, "Starting...") + msg(2193, 0, "Model checking completed. No error.")
    assert read_outcome(0, out) == TlcResult("ok")


def test_exit_zero_without_the_success_message_is_not_a_pass() -> None:
    with pytest.raises(CheckerFailed, match="exit status 0"):
        read_outcome(0, msg(2185, 0, "Starting..."))


def test_deadlock_names_the_last_state() -> None:
    out = msg(2114, 1, "Deadlock reached.") + msg(2121, 1, "The behavior up to this point is:")
    out += state(0, 0) + state(2, 1)
    got = read_outcome(11, out)
    assert (got.kind, got.last_step) == ("deadlock", 1)


def test_invariant_violations() -> None:
    out = msg(2110, 1, "Invariant Bounded is violated.") + state(0, 0) + state(9, 1)
    got = read_outcome(12, out)
    assert (got.kind, got.last_step, got.invariant) == ("invariant", 1, "Bounded")
    initial = msg(2107, 1, "Invariant Bounded is violated by the initial state:\n/\\ count = 99")
    got = read_outcome(12, initial)
    assert (got.kind, got.last_step, got.invariant) == ("invariant", 0, "Bounded")


@pytest.mark.parametrize("status", [75, 150, 151, 10])
def test_spec_problems_are_user_errors(status: int) -> None:
    out = msg(1000, 1, 'Attempted to select nonexistent field "b" from the record') + state(0, 0)
    out += "***Parse Error***\nEncountered \"x\" at line 5, column 1\n"
    with pytest.raises(UserError, match="TLC rejects the specification") as err:
        read_outcome(status, out)
    assert "nonexistent field" in err.value.message and "Parse Error" in err.value.message


@pytest.mark.parametrize("status", [255, 153, 1, -9])
def test_tlc_failures_are_checker_failures(status: int) -> None:
    with pytest.raises(CheckerFailed, match=f"exit status {status}"):
        read_outcome(status, "", "java.lang.OutOfMemoryError: Java heap space")


def test_without_tlc_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.delenv("TLC_JAR", raising=False)
    with pytest.raises(UserError, match=r"TLC_JAR is not set.*releases"):
        find_tlc()
    monkeypatch.setenv("TLC_JAR", str(tmp_path / "missing.jar"))
    with pytest.raises(UserError, match="is not a file"):
        find_tlc()
    (tmp_path / "tla2tools.jar").write_bytes(b"")
    monkeypatch.setenv("TLC_JAR", str(tmp_path / "tla2tools.jar"))
    with pytest.raises(UserError, match="is not a jar holding TLC"):
        find_tlc()
    with zipfile.ZipFile(tmp_path / "tla2tools.jar", "w") as z:
        z.writestr("tlc2/TLC.class", b"")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(UserError, match="has no bin/java"):
        find_tlc()


FAKE_JAVA = """#!/bin/sh
# Refuses -XXbogus as Java does (the JVM is never created), also from JDK_JAVA_OPTIONS;
# takes any other option.
for word in "$@" $JDK_JAVA_OPTIONS; do
  if [ "$word" = -XXbogus ]; then
    echo "Unrecognized option: -XXbogus" >&2
    echo "Error: Could not create the Java Virtual Machine." >&2
    echo "Error: A fatal exception has occurred. Program will exit." >&2
    exit 1
  fi
done
echo 'openjdk version "17.0.15"' >&2
"""


@pytest.fixture
def fake_java(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A jar holding TLC's main class and a ``java`` that refuses ``-XXbogus``."""
    with zipfile.ZipFile(tmp_path / "tla2tools.jar", "w") as z:
        z.writestr("tlc2/TLC.class", b"")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "java").write_text(FAKE_JAVA)
    (tmp_path / "bin" / "java").chmod(0o755)
    monkeypatch.setenv("TLC_JAR", str(tmp_path / "tla2tools.jar"))
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    for name in ("TLC_JAVA_OPTS", "JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_java_options_java_takes_are_passed(fake_java: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_tlc().java_options == ()
    monkeypatch.setenv("TLC_JAVA_OPTS", " -Xmx4g  -Dfoo=1 ")
    assert find_tlc().java_options == ("-Xmx4g", "-Dfoo=1")


@pytest.mark.parametrize(("name", "value"), [("TLC_JAVA_OPTS", "-Xmx4g -XXbogus"),
                                             ("JDK_JAVA_OPTIONS", "-XXbogus")])
def test_java_options_java_refuses_are_bad_input(fake_java: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 name: str, value: str) -> None:
    """Refused once, naming the variable and Java's own message (every TLC run would
    fail with it: exit 3 per trace)."""
    monkeypatch.setenv(name, value)
    with pytest.raises(UserError) as err:
        find_tlc()
    assert f"{name}={value}" in err.value.message
    assert "Unrecognized option: -XXbogus" in err.value.message


@pytest.mark.parametrize("word", ["-version", "-jar", "--help"])
def test_launcher_options_are_not_jvm_options(fake_java: Path,
                                              monkeypatch: pytest.MonkeyPatch, word: str) -> None:
    monkeypatch.setenv("TLC_JAVA_OPTS", f"-Xmx1g {word}")
    with pytest.raises(UserError, match=f"TLC_JAVA_OPTS=-Xmx1g {word}: {word} is an option of "
                                        "the java launcher"):
        find_tlc()


def step(n: int, line: int, outcome: str = "accepted") -> Step:
    from tlaconf.values import from_python

    s = {"count": n, "tally": {"a": n, "b": 0}}
    return Step(line, "Inc", from_python({"by": 1, "who": "a"}), outcome,  # type: ignore[arg-type]
                {k: from_python(v) for k, v in s.items()})  # fmt: skip


class Scripted:
    """Stands in for ``run_tlc``: one outcome per chunk, and the modules it was given."""

    def __init__(self, outcomes: list[TlcResult]) -> None:
        self.outcomes = outcomes
        self.modules: list[str] = []

    def __call__(self, tlc: Tlc, folder: Path, name: str, library: Any) -> TlcResult:
        self.modules.append((folder / f"{name}.tla").read_text())
        assert (folder / f"{name}.cfg").is_file()
        return self.outcomes.pop(0)


def session(monkeypatch: pytest.MonkeyPatch, outcomes: list[TlcResult], chunk: int) -> Any:
    fake = Scripted(outcomes)
    monkeypatch.setattr(tlc_checker, "run_tlc", fake)
    spec = module_spec(SPEC, "Counter", "1", {})
    mod = EmbeddedBackend().load(spec)
    s = tlc_checker.TlcSession(Tlc("java", Path("x.jar"), None, ()), spec, mod, chunk)
    s.initial(step(0, 2).state)
    return s, fake


def test_chunks_start_where_the_previous_one_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    s, fake = session(monkeypatch, [TlcResult("ok"), TlcResult("deadlock", 1)], chunk=2)
    steps = [step(n, n + 2) for n in range(1, 6)]
    before = step(0, 2).state
    answers = []
    for number, st in enumerate(steps, start=1):
        answers.append(s.add(number, st, before))
        before = st.state
    assert answers[:3] == [None, None, None]
    decision = answers[3]
    assert decision is not None
    assert (decision.step, decision.line, decision.kind) == (4, 6, "action")
    assert decision.before == steps[2].state and decision.taken == steps[3]
    assert len(fake.modules) == 2
    assert "TraceInitial ==\n    [count |-> 2," in fake.modules[1]  # the first chunk's last state
    assert fake.modules[1].count('[action |-> "Inc"') == 2
    s.close()


def test_an_invariant_in_a_later_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    s, _ = session(monkeypatch, [TlcResult("ok"), TlcResult("invariant", 1, "Bounded")], chunk=3)
    before = step(0, 2).state
    for number in range(1, 5):
        st = step(number, number + 2)
        assert s.add(number, st, before) is None
        before = st.state
    decision = s.finish()
    assert decision is not None and (decision.step, decision.kind, decision.name) == (
        4, "invariant", "Bounded")  # fmt: skip
    s.close()


def test_the_initial_state_is_checked_even_without_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    s, fake = session(monkeypatch, [TlcResult("invariant", 0, "Bounded")], chunk=3)
    decision = s.finish()
    assert decision is not None and (decision.step, decision.line, decision.taken) == (0, 2, None)
    assert "TraceSteps == <<>>" in fake.modules[0]
    s.close()


def test_answers_about_no_state_of_the_trace_are_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    s, _ = session(monkeypatch, [TlcResult("deadlock", None, text="?")], chunk=5)
    s.add(1, step(1, 3), step(0, 2).state)
    with pytest.raises(CheckerFailed, match="no state of this trace"):
        s.finish()
    s.close()
