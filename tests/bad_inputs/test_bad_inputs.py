"""The bad-input corpus: each ``cases/*.case`` runs the real CLI (see README.md)."""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import shlex
import signal
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.files import TMP_MARK

HERE = Path(__file__).parent
SPEC = HERE / "spec"
LIB = HERE.parent / "library" / "data" / "lib"
"""Community modules (Json, IOUtils, ...) for the cases of trace-validation specs."""
CASES = sorted((HERE / "cases").glob("*.case"))
HANG_SECONDS = 60
"""A case still running after this long has hung (the test fails, it does not wait)."""


@dataclass
class Case:
    name: str
    args: list[str]
    exit: int
    expect: list[str] = field(default_factory=list)
    json: bool = False
    absent: list[str] = field(default_factory=list)
    exists: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    """Text that must not appear in the output (a secret of the environment)."""
    env: dict[str, str] = field(default_factory=dict)
    """Environment variables set for the run."""
    stdin: str = ""
    """What the run reads on stdin."""
    files: list[tuple[str, str, str]] = field(default_factory=list)
    """(path, directive, content)"""


def _escaped(text: str) -> str:
    """``text`` with its Python escapes (``\\n``, ``\\xc2``) turned into what they stand for."""
    return codecs.escape_decode(text.encode("utf-8"))[0].decode("utf-8")


_FILE = re.compile(r"--- (\S+)(?: \[([^\]]*)\])?\s*\Z")


def read_case(path: Path) -> Case:
    case = Case(path.stem, [], -1)
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith("--- "):
        line = lines[i]
        i += 1
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "args":
            case.args = shlex.split(value)
        elif key == "exit":
            case.exit = int(value)
        elif key == "expect":
            case.expect.append(value)
        elif key == "json":
            case.json = value == "true"
        elif key == "absent":
            case.absent.append(value)
        elif key == "exists":
            case.exists.append(value)
        elif key == "hidden":
            case.hidden.append(value)
        elif key == "stdin":
            case.stdin = _escaped(value)
        elif key == "env":
            name, _, setting = value.partition("=")
            case.env[name] = _escaped(setting)
        else:
            raise ValueError(f"{path.name}:{i}: unknown key {key!r}")
    while i < len(lines):
        m = _FILE.match(lines[i])
        if m is None:
            raise ValueError(f"{path.name}:{i + 1}: expected '--- FILE', got {lines[i]!r}")
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith("--- "):
            body.append(lines[i])
            i += 1
        text = "\n".join(body)
        case.files.append((m.group(1), m.group(2) or "", text))
    assert case.args and case.exit >= 0, f"{path.name}: args and exit are required"
    return case


def materialize(case: Case, root: Path) -> None:
    for name, directive, text in case.files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        words = directive.split()
        if directive == "fifo":
            os.mkfifo(path)
        elif words[:1] == ["symlink"]:
            path.symlink_to(words[1])
        elif directive == "dir":
            path.mkdir()
        elif directive == "readonly dir":
            path.mkdir()
            path.chmod(stat.S_IRUSR | stat.S_IXUSR)
        elif directive == "executable":
            path.write_text(text + "\n", encoding="utf-8")
            path.chmod(0o755)
        elif directive == "escaped":
            path.write_bytes(codecs.escape_decode(text.encode("utf-8"))[0])
        elif words[:1] == ["repeat"]:
            path.write_text(text * int(words[1]), encoding="utf-8")
        elif directive == "":
            path.write_text(text, encoding="utf-8")
        else:
            raise ValueError(f"{case.name}: unknown directive [{directive}]")


class Hung(BaseException):
    """Raised by the alarm: a BaseException, so no ``except OSError`` or ``except Exception``
    in tlaconf can take a hang for an input error (``TimeoutError`` is an ``OSError``)."""


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def hung(signum: int, frame: object) -> None:
        raise Hung(f"the command did not finish within {seconds} s (a hang)")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _leftovers(root: Path) -> list[str]:
    """Half-written files: ``*.part`` and temporary files tlaconf writes before a rename."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.name.endswith(".part") or TMP_MARK in p.name)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_bad_input(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture[str]) -> None:
    case = read_case(path)
    materialize(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    for name, value in case.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stdin", io.StringIO(case.stdin))
    args = [a.replace("{spec}", str(SPEC)).replace("{lib}", str(LIB)) for a in case.args]
    try:
        with deadline(HANG_SECONDS):
            code = main(args)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        for p in tmp_path.rglob("*"):
            if p.is_dir() and not p.is_symlink():
                p.chmod(stat.S_IRWXU)
    out, err = capsys.readouterr()
    both = out + err
    assert "Traceback" not in both, both
    assert code == case.exit, f"exit {code}, expected {case.exit}\n{both}"
    for word in case.expect:
        assert word in both, f"{word!r} not in the output:\n{both}"
    for word in case.hidden:
        assert word not in both, f"{word!r} is in the output:\n{both}"
    if case.json:
        json.loads(out)
    for name in case.absent:
        assert not (tmp_path / name).exists(), f"{name} was written"
    for name in case.exists:
        assert (tmp_path / name).is_file(), f"{name} was not written"
    assert _leftovers(tmp_path) == []


def test_the_reader_refuses_a_malformed_case(tmp_path: Path) -> None:
    bad = tmp_path / "x.case"
    bad.write_text("exit: 2\n")
    with pytest.raises(AssertionError, match="args and exit are required"):
        read_case(bad)
