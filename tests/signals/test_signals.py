"""SIGINT and SIGTERM mid-run: exit 3, child processes stopped, temporary folders removed,
no half-written output.

Each test starts ``tlaconf`` as a subprocess with its own ``TMPDIR``, waits until the run
is under way (a marker the run leaves), sends the signal and checks what is left.  The
TLC backend runs for real, with a fake ``java`` (``JAVA_HOME``) that records its pid and
sleeps, so that no Java is needed; with ``TLC_JAR`` set the real TLC is interrupted too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tlaconf.errors import ExitCode

SPEC = Path(__file__).resolve().parents[1] / "bad_inputs" / "spec"
HERE = Path(__file__).resolve().parent
SIGNALS = [signal.SIGINT, signal.SIGTERM]
HEADER = {"format": "tlaconf-trace", "version": 1, "module": "Tally", "revision": "1",
          "constants": {"Limit": 10**9}, "meta": {}}


def long_trace(path: Path, steps: int) -> Path:
    """A conforming Tally trace of ``steps`` steps (long enough to be mid-run)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(HEADER), json.dumps({"state": {"count": 0}})]
    lines += [json.dumps({"action": "Inc", "params": {"by": 1}, "outcome": "accepted",
                          "state": {"count": i}}) for i in range(1, steps + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def fake_java(tmp_path: Path) -> dict[str, str]:
    """``JAVA_HOME`` whose ``bin/java`` writes its pid into ``pids/`` and sleeps."""
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    (tmp_path / "pids").mkdir()
    java = home / "bin" / "java"
    java.write_text(f'#!/bin/sh\necho $$ > "{tmp_path / "pids"}/$$"\nexec sleep 300\n')
    java.chmod(0o755)
    jar = tmp_path / "tla2tools.jar"
    jar.write_text("not a jar: the fake java never reads it")
    return {"JAVA_HOME": str(home), "TLC_JAR": str(jar)}


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    tmp = cwd / "tmp"
    tmp.mkdir(exist_ok=True)
    environ = {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "200",
               "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path])}
    environ.update(env or {})
    return subprocess.Popen([sys.executable, "-m", "tlaconf.cli.main", *args], cwd=cwd,
                            env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def wait_for(ready: Callable[[], bool], proc: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 60
    while not ready():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended (exit {proc.returncode}) before {what}:\n{out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"{what} did not happen within 60 s")
        time.sleep(0.05)


def still_running(proc: subprocess.Popen[str], seconds: float) -> None:
    """Wait ``seconds``; the run must still be going (else the signal tests nothing)."""
    time.sleep(seconds)
    if proc.poll() is not None:
        out, err = proc.communicate()
        pytest.fail(f"the run ended (exit {proc.returncode}) within {seconds} s:\n{out}\n{err}")


def interrupt(proc: subprocess.Popen[str], signum: int) -> tuple[int, str]:
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not end within 60 s of the signal")
    assert "Traceback" not in out + err, out + err
    assert f"interrupted by {signal.Signals(signum).name}" in err, err
    return proc.returncode, out + err


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


def leftovers(root: Path) -> list[str]:
    """Temporary folders and half-written files under ``root``."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.name.startswith(("tlaconf-tlc-", "tlaconf-apalache-", "tlaconf-slow-"))
                  or p.name.endswith(".part") or ".tlaconf-tmp" in p.name)


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_replay_embedded(tmp_path: Path, signum: int) -> None:
    trace = long_trace(tmp_path / "t.trace.jsonl", 200_000)
    proc = start(["replay", "--spec", str(SPEC), "--junit", "out/r.xml", "--html", "html",
                  str(trace)], tmp_path)
    still_running(proc, 2.0)
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.UNDECIDED
    assert not (tmp_path / "out" / "r.xml").exists() and not (tmp_path / "html").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_replay_tlc_stops_java_and_removes_its_folder(tmp_path: Path, signum: int,
                                                      jobs: str) -> None:
    traces = [long_trace(tmp_path / "t" / f"{i}.trace.jsonl", 10) for i in range(2)]
    proc = start(["replay", "--spec", str(SPEC), "--backend", "tlc", "-j", jobs,
                  *map(str, traces)], tmp_path, fake_java(tmp_path))
    want = int(jobs)
    pids = tmp_path / "pids"
    wait_for(lambda: len(list(pids.iterdir())) >= want, proc, "java started")
    running = [int(p.name) for p in pids.iterdir()]
    assert list((tmp_path / "tmp").glob("tlaconf-tlc-*"))  # the check below can fail
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.UNDECIDED
    assert not [pid for pid in running if alive(pid)]
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "(and Java on PATH) to interrupt the real TLC")
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_replay_real_tlc(tmp_path: Path, signum: int) -> None:
    trace = long_trace(tmp_path / "t.trace.jsonl", 3000)
    proc = start(["replay", "--spec", str(SPEC), "--backend", "tlc", str(trace)], tmp_path)
    wait_for(lambda: bool(list((tmp_path / "tmp").glob("tlaconf-tlc-*/*.tla"))), proc,
             "TLC started")
    time.sleep(0.5)
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.UNDECIDED
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_gate_update_writes_nothing(tmp_path: Path, signum: int) -> None:
    long_trace(tmp_path / "g" / "a.trace.jsonl", 200_000)
    verdicts = tmp_path / "g" / "verdicts.json"
    verdicts.write_text('{"a.trace.jsonl": {"verdict": "violation"}}\n')
    proc = start(["gate", "--spec", str(SPEC), "--traces", "g", "--update", "--junit",
                  "j.xml"], tmp_path)
    still_running(proc, 2.0)
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.UNDECIDED
    assert verdicts.read_text() == '{"a.trace.jsonl": {"verdict": "violation"}}\n'
    assert not (tmp_path / "j.xml").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_check_leaves_no_half_written_seed(tmp_path: Path, signum: int) -> None:
    proc = start(["check", "--spec", str(SPEC), "--out", "out", "--seed", "1",
                  "--scenarios", "slow_scenarios:generate_all"], tmp_path,
                 {"TLACONF_SLOW_MARK": str(tmp_path / "started")})
    wait_for(lambda: (tmp_path / "started").exists(), proc, "the scenarios started")
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.UNDECIDED
    assert not (tmp_path / "out" / "seed-1").exists()
    assert [p.name for p in (tmp_path / "tmp").iterdir()] == []
    assert leftovers(tmp_path) == []
