"""``APALACHE_SERVER``: an ``http://host:port`` URL, anything else a clear exit-2 message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.apalache.fake_apalache import FakeApalache
from tlaconf.errors import UserError
from tlaconf.replay.apalache.server import find_apalache, server_address
from tlaconf.trace import TraceWriter

PROJECT = Path(__file__).resolve().parents[2]
SPEC = PROJECT / "tests" / "replay" / "spec"


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("http://localhost:8822", "localhost", 8822),
        ("http://127.0.0.1:1", "127.0.0.1", 1),
        ("http://apalache.example.org:65535/", "apalache.example.org", 65535),
        ("http://[::1]:9000", "[::1]", 9000),
        ("http://localhost", "localhost", 8822),  # apalache-mc server's own default port
    ],
)
def test_an_http_url_is_accepted(text: str, host: str, port: int) -> None:
    assert server_address(text) == (host, port)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("http://localhost:70000", "has port 70000, out of range"),
        ("http://localhost:0", "has port 0, out of range"),
        ("http://localhost:99999", "has port 99999, out of range"),
        ("http://localhost:-1", "is not a server URL"),
        ("http://localhost:abc", "is not a server URL"),
        ("http://localhost:+80", "is not a server URL"),
        ("http://localhost:123456", "is not a server URL"),
        ("-1", "is not a server URL"),
        ("abc", "is not a server URL"),
        ("70000", "is not a server URL"),
        ("localhost:8822", "did you mean http://localhost:8822?"),
        ("127.0.0.1:8822", "did you mean http://127.0.0.1:8822?"),
        ("https://localhost:8822", "is not a server URL"),
        ("ftp://x", "is not a server URL"),
        ("http://:8822", "is not a server URL"),
        ("http://user@localhost:8822", "is not a server URL"),
        ("http://localhost:8822/rpc", "is not a server URL"),
        ("http://localhost:8822?x=1", "is not a server URL"),
        ("http://local host:8822", "is not a server URL"),
    ],
)
def test_a_malformed_value_names_the_variable_and_what_was_expected(text: str, why: str) -> None:
    with pytest.raises(UserError) as caught:
        server_address(text)
    message = str(caught.value)
    assert message.startswith(f"APALACHE_SERVER={text} ")
    assert why in message
    assert "expected http://host:port with a port from 1 to 65535" in message


def test_find_apalache_checks_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APALACHE_SERVER", " http://localhost:8822/ ")
    assert find_apalache() == ("http://localhost:8822", None)
    monkeypatch.setenv("APALACHE_SERVER", "http://localhost:70000")
    with pytest.raises(UserError, match="APALACHE_SERVER=http://localhost:70000 has port 70000"):
        find_apalache()


def _replay(tmp_path: Path, server: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, "Counter", "1", {"Limit": 10}) as w:
        w.init({"count": 0, "tally": {"a": 0, "b": 0}})
        w.step("Inc", {"by": 1, "who": "a"}, "accepted", {"count": 1, "tally": {"a": 1, "b": 0}})
    env = {k: v for k, v in os.environ.items() if not k.startswith("APALACHE")}
    env.update(APALACHE_SERVER=server, PYTHONPATH=os.pathsep.join([str(PROJECT), *sys.path]))
    return subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", "replay", "--backend", "apalache", "--spec",
         str(SPEC), str(path)], capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize("server", ["http://localhost:70000", "-1", "abc", "localhost:8822"])
def test_the_cli_exits_2_without_a_traceback(tmp_path: Path, server: str) -> None:
    r = _replay(tmp_path, server)
    assert r.returncode == 2, r.stderr
    assert f"APALACHE_SERVER={server}" in r.stderr and "expected http://host:port" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_cli_uses_an_accepted_value(tmp_path: Path) -> None:
    fake = FakeApalache()
    try:
        r = _replay(tmp_path, fake.url + "/")
    finally:
        fake.close()
    assert r.returncode == 0, r.stderr
