"""``--cluster`` refused or undecided: bad address syntax and ``-j`` with it (exit 2),
Dask missing (exit 2), a scheduler that cannot be reached (exit 3, quickly with Dask's
connect timeout); ``tlaconf --version`` does not import Dask."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import dask
import pytest

import tlaconf
from tests.cluster.conftest import local_cluster
from tests.cluster.test_cluster_outputs import run
from tlaconf.errors import UserError
from tlaconf.replay import cluster
from tlaconf.replay.cluster_address import check_address


@pytest.mark.parametrize(("text", "expected"), [
    ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
    ("sched.example:9000", "tcp://sched.example:9000"),
    ("tls://[::1]:8786", "tls://[::1]:8786"),
])  # fmt: skip
def test_addresses(text: str, expected: str) -> None:
    assert check_address(text) == expected


@pytest.mark.parametrize(("text", "why"), [
    ("localhost", "expected tcp://HOST:PORT"),
    ("tcp://host", "expected tcp://HOST:PORT"),
    ("http://host:8786", "not http://"),
    ("tcp://host:70000", "port 70000 is not in 1..65535"),
    ("tcp://-bad-:1", "expected tcp://HOST:PORT"),
])  # fmt: skip
def test_bad_addresses_exit_2(capsys: pytest.CaptureFixture[str], project: Path,
                              text: str, why: str) -> None:
    with pytest.raises(UserError, match="expected tcp://HOST:PORT"):
        check_address(text)
    code, out, err = run(capsys, "replay", project / "traces", "--cluster", text)
    assert code == 2 and out == ""
    assert "argument --cluster" in err and why in err and "Traceback" not in err


def test_jobs_and_cluster_together_exit_2(capsys: pytest.CaptureFixture[str],
                                          project: Path) -> None:
    code, _, err = run(capsys, "replay", project / "traces", "-j", "2",
                       "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and "--cluster and -j 2" in err


def test_an_unreachable_scheduler_is_undecided(capsys: pytest.CaptureFixture[str],
                                               project: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        code, out, err = run(capsys, "replay", project / "traces", "--spec",
                             project / "spec", "--json", "--cluster", f"127.0.0.1:{port}")
    assert code == 3 and out == ""
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert "Traceback" not in err


def test_a_cluster_without_workers_is_undecided(capsys: pytest.CaptureFixture[str],
                                                project: Path) -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}), \
            local_cluster(workers=0) as empty:
        code, _, err = run(capsys, "replay", project / "traces", "--spec", project / "spec",
                           "--cluster", empty.scheduler_address)
    assert code == 3 and "has no workers: start some with `dask worker tcp://" in err


def test_workers_with_another_tlaconf_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path,
    scheduler: str,
) -> None:  # fmt: skip
    monkeypatch.setattr(cluster, "worker_version", lambda: "0.0.1")  # what workers answer
    code, _, err = run(capsys, "replay", project / "traces", "--spec", project / "spec",
                       "--cluster", scheduler)
    assert code == 3
    assert f"the Dask workers must run tlaconf {tlaconf.__version__}" in err
    assert "has 0.0.1" in err


def test_without_dask_cluster_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path,
) -> None:  # fmt: skip
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    monkeypatch.delitem(sys.modules, "tlaconf.replay.cluster", raising=False)
    code, _, err = run(capsys, "replay", project / "traces", "--spec", project / "spec",
                       "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and "pip install 'tlaconf[dask]'" in err


def test_version_does_not_import_dask() -> None:
    code = ("import sys; from tlaconf.cli.main import main; main(['--version']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines()[-1] == "[]"
