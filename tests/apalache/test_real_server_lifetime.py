"""A real Apalache server never outlives tlaconf: SIGTERM, SIGINT or SIGKILL mid-run.

Runs only with ``APALACHE_MC`` set to a real ``apalache-mc`` (e.g. ``make test-apalache``
with ``APALACHE_MC`` set); everywhere else it skips, saying how to run it.  The
fake server's version of this test (``test_server_lifetime.py``) runs in CI.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.apalache.test_server_lifetime import _alive, _until

PROJECT = Path(__file__).resolve().parents[2]
TRACE = PROJECT / "traces" / "abilities" / "resolution-conforming.trace.jsonl"
"""A trace the real server needs some 30 s for: tlaconf is killed while it works."""

APALACHE_MC = os.environ.get("APALACHE_MC", "")

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc"),
    pytest.mark.skipif(
        not (APALACHE_MC and os.access(APALACHE_MC, os.X_OK)),
        reason="kills tlaconf mid-run against a real Apalache server: set "
        "APALACHE_MC=/path/to/apalache-mc (docs/checkers.md, Apalache)",
    ),
]


def _working_in(folder: Path) -> list[int]:
    """The live processes whose working directory is in ``folder`` (the server's JVM)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if cwd.removesuffix(" (deleted)").startswith(str(folder)) and _alive(int(entry.name)):
            pids.append(int(entry.name))
    return pids


def _busy_server(tmp: Path) -> tuple[Path, list[int]] | None:
    """The server's folder and processes once it has started working on the trace."""
    for folder in tmp.glob("tlaconf-apalache-*"):
        log = folder / "server.log"
        try:
            text = log.read_text(errors="replace")
        except OSError:
            continue
        pids = _working_in(folder)
        if "PASS #" in text and pids:
            return folder, pids
    return None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_tlaconf_leaves_no_real_server(tmp_path: Path, sig: signal.Signals) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "APALACHE_SERVER"}
    env.update(TMPDIR=str(tmp), PYTHONPATH=os.pathsep.join([str(PROJECT), *sys.path]))
    run = subprocess.Popen(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--backend", "apalache", "--spec",
         str(PROJECT / "spec"), str(TRACE)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        busy = _until(lambda: _busy_server(tmp), 180)
        assert busy, "the real server did not start working on the trace within 180 s"
        assert run.poll() is None, "tlaconf ended before it could be stopped mid-run"
        folder, pids = busy
        run.send_signal(sig)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert _until(lambda: not any(_alive(p) for p in pids), 30), "the server outlived tlaconf"
    assert _until(lambda: not folder.exists(), 30), "the server's folder is left"
    assert not _working_in(tmp), "a process still works in tlaconf's temporary folder"
    assert list(tmp.glob("tlaconf-apalache-*")) == []
