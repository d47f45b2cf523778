"""``tlaconf parse``: operators per module, errors with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.cli.main import main


def test_parse_lists_operators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "M.tla"
    p.write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nA == 1\nB(x, y) == x + y\nf[i \\in Nat] == i\n"
        "====\n",
        encoding="utf-8",
    )
    assert main(["parse", str(p)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:] == ["  MODULE M: 3 operator(s)", "    A/0", "    B/2", "    f/0"]


def test_parse_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "Bad.tla"
    bad.write_text("---- MODULE Bad ----\nA == (1\n====\n", encoding="utf-8")
    undefined = tmp_path / "Undef.tla"
    undefined.write_text("---- MODULE Undef ----\nA == b\n====\n", encoding="utf-8")
    good = tmp_path / "Good.tla"
    good.write_text("---- MODULE Good ----\nA == 1\n====\n", encoding="utf-8")
    assert main(["parse", str(bad), str(undefined), str(good)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:3:1: syntax error: unexpected '===='" in captured.err
    assert f"{undefined}:2:6: undefined name b\nA == b\n     ^" in captured.err
    assert "MODULE Good: 1 operator(s)" in captured.out


def test_parse_search_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "L.tla").write_text("---- MODULE L ----\nX == 1\n====\n", encoding="utf-8")
    m = tmp_path / "M.tla"
    m.write_text("---- MODULE M ----\nEXTENDS L\nY == X\n====\n", encoding="utf-8")
    assert main(["parse", str(m)]) == 2
    assert "module L not found" in capsys.readouterr().err
    assert main(["parse", "-I", str(lib), str(m)]) == 0


def test_parse_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(tmp_path / "missing.tla"), str(tmp_path / "missing.txt")]) == 2
    assert "argument FILE: " + str(tmp_path / "missing.tla") + " does not exist" in (
        capsys.readouterr().err)  # the first one stops the run before anything is parsed


def test_parse_inside_a_spec_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rev = tmp_path / "spec" / "reference-profile" / "rev2"
    rev.mkdir(parents=True)
    (rev / "Profile.tla").write_text("---- MODULE Profile ----\nP == 1\n====\n", encoding="utf-8")
    conf = tmp_path / "spec" / "conformance"
    conf.mkdir()
    m = conf / "C.tla"
    m.write_text("---- MODULE C ----\nEXTENDS Profile\nQ == P\n====\n", encoding="utf-8")
    assert main(["parse", str(m)]) == 0
    assert main(["parse", "--revision", "2", str(m)]) == 0
    assert main(["parse", "--revision", "9", str(m)]) == 2
    assert "unknown revision 9" in capsys.readouterr().err
