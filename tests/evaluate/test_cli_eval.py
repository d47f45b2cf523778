"""``tlaconf eval``."""

import io
import json
import sys
from pathlib import Path

import pytest

from tlaconf.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_eval_prints_tla(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "eval", "{2, 1} \\cup {3}") == (0, "{1, 2, 3}\n")
    assert run(capsys, "eval", "Len(<<1, 2>>) + Cardinality({1})") == (0, "3\n")


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "eval", "--json", '[a |-> {1}, b |-> <<1, "x">>]')
    assert code == 0
    assert json.loads(out) == {"value": {"a": {"#set": [1]}, "b": [1, "x"]}}
    code, out = run(capsys, "eval", "--json", "1 \\div 0")
    assert code == 2 and "division by zero" in json.loads(out)["error"]


def test_eval_error_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", '"a" = 1']) == 2
    assert "compare the string" in capsys.readouterr().err


def test_eval_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('1 + 1\n"a" = 1\n\nHead(<<7>>)\n'))
    code, out = run(capsys, "eval", "--json", "-")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2
    assert lines[0] == {"value": 2} and "error" in lines[1] and lines[2] == {"value": 7}


def test_eval_with_module(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    m = tmp_path / "Z.tla"
    m.write_text("---- MODULE Z ----\nEXTENDS Naturals\nCONSTANT K\nTriple(x) == 3 * x + K\n====\n")
    assert run(capsys, "eval", "-m", str(m), "-D", "K=1", "Triple(2)") == (0, "7\n")
    assert main(["eval", "-m", str(m), "Triple(2)"]) == 2
    assert "no value for CONSTANT K" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("expr", "shown"),
    [("{x \\in Nat : x > 3}", "{x \\in Nat : ...}"), ("Nat", "Nat"), ("<<1, Int>>", "Int"),
     ("SUBSET Nat", "SUBSET Nat")],
)
def test_eval_of_a_set_it_cannot_enumerate_is_an_error(
    capsys: pytest.CaptureFixture[str], expr: str, shown: str
) -> None:
    assert main(["eval", expr]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"cannot print {shown}: tlaconf cannot enumerate it" in captured.err
    code, out = run(capsys, "eval", "--json", expr)
    assert code == 2 and "cannot enumerate" in json.loads(out)["error"]
    assert run(capsys, "eval", "5 \\in {x \\in Nat : x > 3}") == (0, "TRUE\n")  # asking works


def test_eval_of_a_long_integer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "eval", "1" * 5000 + " + 1")
    assert code == 0 and out == "1" * 4999 + "2\n"
