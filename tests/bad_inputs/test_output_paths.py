"""Output paths checked before work starts, and writes that fail half way (tlaconf.files)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tlaconf.cli.main import main
from tlaconf.errors import UserError
from tlaconf.files import TMP_MARK, check_output, write_text, writing


def test_check_output_names_the_option_and_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("x")
    os.mkfifo(tmp_path / "p")
    cases: list[tuple[str | Path, bool, str]] = [
        (tmp_path / "d", False, "is a directory, not a file"),
        (tmp_path / "f", True, "is a file, not a directory"),
        (tmp_path / "f" / "x.xml", False, f"{tmp_path / 'f'} is a file, not a directory"),
        (tmp_path / "p", False, "is not a regular file"),
        ("", False, "expected a path"),
    ]
    for path, folder, message in cases:
        with pytest.raises(UserError, match="--out") as err:
            check_output(path, "--out", folder=folder)
        assert message in str(err.value)
    check_output(tmp_path / "new" / "deeper" / "x.xml", "--out")  # missing folders: fine
    check_output(tmp_path / "d", "--out", folder=True)


def test_a_folder_where_nothing_can_be_created_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Permissions say yes (root, a read-only file system, /proc) but creating fails: the
    probe file finds out before any work, and leaves nothing behind."""
    import tempfile

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    check_output(tmp_path / "new" / "out.xml", "--junit")  # the probe itself: no trace left
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(UserError, match=r"--junit .*out.xml: the directory .* is not "
                       r"writable \(Read-only file system\)"):
        check_output(tmp_path / "new" / "out.xml", "--junit")
    assert main(["replay", "--junit", str(tmp_path / "r.xml"), str(tmp_path)]) == 2
    assert "argument --junit" in capsys.readouterr().err  # refused by the parser, first


def test_an_unwritable_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as root every folder is writable, so the permission check is simulated
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(UserError, match=r"--junit .*out.xml: the directory .* is not writable"):
        check_output(tmp_path / "out.xml", "--junit")


def test_a_write_that_fails_keeps_the_old_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.xml"
    target.write_text("old")

    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(UserError, match=r"cannot write JUnit XML .*: No space left on device"):
        write_text(target, "new", "JUnit XML")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.xml"]  # no temporary file left


def test_an_exception_inside_the_block_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "m.tla"
    with pytest.raises(RuntimeError), writing(target, "module") as f:
        f.write("half")
        raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    target = tmp_path / "x.txt"
    write_text(target, "x")
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_junit_write_that_fails_half_way_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = Path(__file__).parent / "spec"
    trace = tmp_path / "t.trace.jsonl"
    trace.write_text(
        '{"format": "tlaconf-trace", "version": 1, "module": "Tally", "revision": "1", '
        '"constants": {}, "meta": {}}\n{"state": {"count": 0}}\n'
        '{"action": "Inc", "params": {"by": 1}, "outcome": "accepted", "state": {"count": 1}}\n')
    real_replace = os.replace

    def full(src: str, dst: str) -> None:
        if str(dst).endswith(".xml"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", full)
    out = tmp_path / "out.xml"
    assert main(["replay", "--spec", str(spec), "--junit", str(out), str(trace)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert not out.exists() and not [p for p in tmp_path.iterdir() if TMP_MARK in p.name]
