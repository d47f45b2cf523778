"""SIGINT and SIGTERM mid-run: exit 130, child processes stopped, temporary folders removed,
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
import zipfile
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
    with zipfile.ZipFile(jar, "w") as z:  # a jar holding TLC's main class, never run
        z.writestr("tlc2/TLC.class", b"")
    return {"JAVA_HOME": str(home), "TLC_JAR": str(jar)}


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None,
          session: bool = False) -> subprocess.Popen[str]:
    """``tlaconf args`` in ``cwd`` (in a session of its own with ``session``, so that a
    signal can go to its whole process group as a terminal's Ctrl-C does)."""
    tmp = cwd / "tmp"
    tmp.mkdir(exist_ok=True)
    environ = {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "200",
               "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path])}
    environ.update(env or {})
    return subprocess.Popen([sys.executable, "-m", "tlaconf.cli.main", *args], cwd=cwd,
                            env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=session)


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


def interrupt(proc: subprocess.Popen[str], signum: int, group: bool = False) -> tuple[int, str]:
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not end within 60 s of the signal")
    assert "Traceback" not in out + err, out + err
    assert f"interrupted by {signal.Signals(signum).name}" in err, err
    if out.lstrip().startswith(("{", "[")):  # --json: a whole document or none
        json.loads(out)
    return proc.returncode, out + err


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


def processes_of(root: Path) -> list[str]:
    """Processes (not tlaconf's own test) whose command line or environment names ``root``:
    every child of a run started by :func:`start` inherits ``TMPDIR=root/tmp``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if not alive(int(proc.name)):
                continue
            text = (proc / "cmdline").read_bytes() + (proc / "environ").read_bytes()
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if str(root).encode() in text:
            found.append(f"{proc.name}: {(proc / 'cmdline').read_bytes()[:200]!r}")
    return found


def gone(root: Path) -> list[str]:
    """What is still running for ``root`` once its processes had a moment to end."""
    deadline = time.monotonic() + 15
    while (left := processes_of(root)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


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
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "out" / "r.xml").exists() and not (tmp_path / "html").exists()
    assert leftovers(tmp_path) == []
    assert gone(tmp_path) == []


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
    assert code == ExitCode.INTERRUPTED
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
    assert code == ExitCode.INTERRUPTED
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
    assert code == ExitCode.INTERRUPTED
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
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "out" / "seed-1").exists()
    assert [p.name for p in (tmp_path / "tmp").iterdir()] == []
    assert leftovers(tmp_path) == []


def test_replay_embedded_jobs_ctrl_c(tmp_path: Path) -> None:
    """-j 2 and Ctrl-C, which reaches the whole process group (workers included): the
    workers end too, --json prints no half document, no JUnit file."""
    traces = [long_trace(tmp_path / "t" / f"{i}.trace.jsonl", 60_000) for i in range(3)]
    proc = start(["replay", "--spec", str(SPEC), "-j", "2", "--json", "--junit", "r.xml",
                  *map(str, traces)], tmp_path, session=True)
    wait_for(lambda: len(processes_of(tmp_path)) >= 3, proc, "the workers started")
    still_running(proc, 0.5)
    code, _ = interrupt(proc, signal.SIGINT, group=True)
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "r.xml").exists()
    assert leftovers(tmp_path) == [] and gone(tmp_path) == []


APALACHE_SPEC = Path(__file__).resolve().parents[1] / "replay" / "spec"


def counter_trace(path: Path, steps: int) -> Path:
    """A conforming trace of the Counter spec the Apalache tests use."""
    from tlaconf.trace import TraceWriter

    with TraceWriter(path, "Counter", "1", {"Limit": 10**6}) as w:
        w.init({"count": 0, "tally": {"a": 0, "b": 0}})
        for k in range(1, steps + 1):
            w.step("Inc", {"by": 1, "who": "a"}, "accepted",
                   {"count": k, "tally": {"a": k, "b": 0}})
    return path


def fake_apalache(tmp_path: Path, hang: str) -> dict[str, str]:
    """``APALACHE_MC`` as the fake explorer server of tests/apalache, stuck in ``hang``."""
    from tests.apalache.fake_apalache import fake_executable

    return {"APALACHE_MC": str(fake_executable(tmp_path)), "FAKE_APALACHE_HANG": hang,
            "FAKE_APALACHE_LOG": str(tmp_path / "servers")}


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_replay_apalache_fake_server(tmp_path: Path, signum: int) -> None:
    """Mid-trace (the server stuck in a step; tests/apalache stops it while loading): exit
    130, the server and its folder gone, no JUnit file, no JSON half-printed."""
    from tests.apalache.fake_apalache import started

    trace = counter_trace(tmp_path / "t.trace.jsonl", 5)
    proc = start(["replay", "--spec", str(APALACHE_SPEC), "--backend", "apalache", "--json",
                  "--junit", "out/r.xml", str(trace)], tmp_path,
                 fake_apalache(tmp_path, "assumeTransition"))
    wait_for(lambda: bool(started(tmp_path / "servers")), proc, "the server started")
    server = started(tmp_path / "servers")[0]
    still_running(proc, 0.5)
    assert alive(server["pid"]) and Path(server["cwd"]).is_dir()  # the checks below can fail
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "out" / "r.xml").exists()
    assert leftovers(tmp_path) == [] and gone(tmp_path) == []
    assert not alive(server["pid"]) and not Path(server["cwd"]).exists()


@pytest.mark.skipif(not os.environ.get("APALACHE_MC"), reason="set APALACHE_MC=/path/to/"
                    "apalache-mc (Apalache 0.62.1) to interrupt the real Apalache server")
@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_replay_real_apalache(tmp_path: Path, signum: int) -> None:
    trace = counter_trace(tmp_path / "t.trace.jsonl", 400)
    proc = start(["replay", "--spec", str(APALACHE_SPEC), "--backend", "apalache",
                  "--junit", "r.xml", str(trace)], tmp_path)
    logs = tmp_path / "tmp"
    wait_for(lambda: any(p.stat().st_size for p in logs.glob("tlaconf-apalache-*/server.log")),
             proc, "the Apalache server logged")
    still_running(proc, 3.0)
    assert processes_of(tmp_path)  # the server runs: the check below can fail
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "r.xml").exists()
    assert gone(tmp_path) == [] and leftovers(tmp_path) == []


VALIDATION = Path(__file__).resolve().parents[1] / "validate" / "data"
LIBRARY = Path(__file__).resolve().parents[1] / "library" / "data" / "lib"


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_validate_unbounded_search(tmp_path: Path, signum: int) -> None:
    """The infinite search of a .cfg without its ACTION_CONSTRAINT, no bound: a signal
    ends it with exit 130 and no half-printed JSON."""
    cfg = tmp_path / "Unbounded.cfg"
    cfg.write_text("SPECIFICATION TraceSpec\nVIEW TraceView\nPOSTCONDITION TraceAccepted\n")
    proc = start(["validate", "--library", str(LIBRARY), "--env",
                  f"JSON={VALIDATION / 'good.ndjson'}", "--max-states", "0", "--json", "-c",
                  str(cfg), str(VALIDATION / "CounterTrace.tla")], tmp_path)
    still_running(proc, 1.0)
    code, _ = interrupt(proc, signum)
    assert code == ExitCode.INTERRUPTED
    assert leftovers(tmp_path) == [] and gone(tmp_path) == []


WIDE = """---- MODULE Wide ----
EXTENDS Naturals
VARIABLE h
Init == h = 0
Next == h' = h + 1
====
"""


def test_explore_writes_no_half_trace(tmp_path: Path) -> None:
    (tmp_path / "Wide.tla").write_text(WIDE)
    (tmp_path / "Wide.cfg").write_text("INIT Init\nNEXT Next\n")
    proc = start(["explore", "Wide.tla", "--json", "--trace", "out/v.jsonl"], tmp_path)
    still_running(proc, 1.0)
    code, _ = interrupt(proc, signal.SIGTERM)
    assert code == ExitCode.INTERRUPTED
    assert not (tmp_path / "out" / "v.jsonl").exists()
    assert leftovers(tmp_path) == [] and gone(tmp_path) == []
