"""The Apalache server's lifetime and time limits, with the fake server as ``apalache-mc``.

tlaconf starts its own server under a guard: whatever ends tlaconf (the run
finishing, SIGTERM, SIGINT, SIGKILL), the server is stopped and its folder
removed; a server that does not answer within ``--checker-timeout`` makes that
trace undecided (exit 3, naming the step and what Apalache was doing), is
replaced, and the next trace still runs.
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
from typing import Any

import pytest

from tests.apalache.fake_apalache import fake_executable, started
from tlaconf.trace import TraceWriter

PROJECT = Path(__file__).resolve().parents[2]
SPEC = PROJECT / "tests" / "replay" / "spec"


def _trace(path: Path, steps: int = 2) -> Path:
    with TraceWriter(path, "Counter", "1", {"Limit": 10}) as w:
        w.init({"count": 0, "tally": {"a": 0, "b": 0}})
        for k in range(1, steps + 1):
            state = {"count": k, "tally": {"a": k, "b": 0}}
            w.step("Inc", {"by": 1, "who": "a"}, "accepted", state)
    return path


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("APALACHE", "FAKE_APALACHE"))}
    env.update(APALACHE_MC=str(fake_executable(tmp_path)), FAKE_APALACHE_LOG=str(tmp_path / "log"),
               PYTHONPATH=os.pathsep.join([str(PROJECT), *sys.path]), **extra)  # fmt: skip
    return env


def _replay(*args: str) -> list[str]:
    return [sys.executable, "-m", "tlaconf.cli.main", "replay", "--json", "--backend", "apalache",
            "--spec", str(SPEC), *args]  # fmt: skip


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # a zombie has ended
    except OSError:
        return False


def _until(condition: Callable[[], Any], seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return condition()


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_stopped_tlaconf_leaves_no_server(tmp_path: Path, sig: signal.Signals) -> None:
    """tlaconf killed mid-run (the server is stuck in loadSpec): no server and no folder left."""
    env = _env(tmp_path, FAKE_APALACHE_HANG="loadSpec")
    run = subprocess.Popen(_replay(str(_trace(tmp_path / "t.trace.jsonl"))), env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        servers = _until(lambda: started(tmp_path / "log"))
        assert servers, "the fake server did not start"
        time.sleep(1.0)  # tlaconf is now waiting for loadSpec's answer
        assert run.poll() is None and _alive(servers[0]["pid"])
        run.send_signal(sig)
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
    server = servers[0]
    assert _until(lambda: not _alive(server["pid"])), "the server outlived tlaconf"
    assert _until(lambda: not Path(server["cwd"]).exists()), "the server's folder is left"


def test_no_answer_in_time_is_undecided_and_the_next_trace_runs(tmp_path: Path) -> None:
    env = _env(tmp_path, FAKE_APALACHE_HANG="assumeTransition",
               FAKE_APALACHE_HANG_ONCE=str(tmp_path / "hung"))  # fmt: skip
    first, second = _trace(tmp_path / "a.trace.jsonl"), _trace(tmp_path / "b.trace.jsonl")
    r = subprocess.run(_replay("--checker-timeout", "8", str(first), str(second)), env=env,
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 3, r.stderr
    a, b = json.loads(r.stdout)["traces"]
    assert a["verdict"] == "error" and a["undecided"]
    reason = a["failure"]["reason"]
    assert "no answer within the time limit of 8 s (--checker-timeout)" in reason
    assert "while finding the initial state (step 0)" in reason
    assert b["verdict"] == "conforms"  # a new server decided the next trace
    servers = started(tmp_path / "log")
    assert len(servers) == 2  # the stuck one was replaced
    for server in servers:
        assert not _alive(server["pid"]) and not Path(server["cwd"]).exists()


def test_a_stuck_type_checker_names_the_step_and_the_pass(tmp_path: Path) -> None:
    env = _env(tmp_path, FAKE_APALACHE_HANG="loadSpec")
    r = subprocess.run(_replay("--checker-timeout", "2", str(_trace(tmp_path / "t.trace.jsonl"))),
                       env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 3, r.stderr
    reason = json.loads(r.stdout)["traces"][0]["failure"]["reason"]
    assert reason.startswith("line 1: apalache could not decide: ")
    assert "while loading the modules (parsing, type checking with Snowcat" in reason
    assert "in PASS #1: TypeCheckerSnowcat" in reason  # from the server's log


@pytest.mark.parametrize("value", ["0", "-4", "soon", "inf"])
def test_a_bad_checker_timeout_is_a_usage_error(tmp_path: Path, value: str) -> None:
    r = subprocess.run(_replay("--checker-timeout", value, str(_trace(tmp_path / "t.trace.jsonl"))),
                       env=_env(tmp_path), capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 2 and "--checker-timeout" in r.stderr and "positive number" in r.stderr
    assert "Traceback" not in r.stderr and not started(tmp_path / "log")


def test_a_checker_timeout_without_a_checker_is_a_usage_error(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "replay", "--spec", str(SPEC),
                        "--checker-timeout", "5", str(_trace(tmp_path / "t.trace.jsonl"))],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 2 and "--checker-timeout limits an external checker" in r.stderr


def test_one_server_serves_every_trace_of_a_run(tmp_path: Path) -> None:
    traces = [str(_trace(tmp_path / f"{n}.trace.jsonl")) for n in range(3)]
    r = subprocess.run(_replay(*traces), env=_env(tmp_path), capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert len(started(tmp_path / "log")) == 1
