"""Size budgets: deep JSON, huge values in messages and ``eval -`` input are bounded."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import tlaconf.cli.eval
from tlaconf.cli.main import main
from tlaconf.values import strict_json
from tlaconf.values.printing import to_tla


def test_json_deeper_than_the_limit_is_refused_with_line_and_column() -> None:
    ok = "[" * strict_json.MAX_DEPTH + "]" * strict_json.MAX_DEPTH
    assert strict_json.loads(ok) is not None
    with pytest.raises(strict_json.TooDeep) as err:
        strict_json.loads('{"a":\n  ' + "[" * (strict_json.MAX_DEPTH + 1) + "]" * 300 + "}")
    assert (err.value.line, err.value.col) == (2, 2 + strict_json.MAX_DEPTH)  # "{" was 1
    # brackets inside strings do not count; a malformed document is the parser's to report
    assert strict_json.loads('["' + "[" * 500 + '\\"]"]') == ["[" * 500 + '"]']
    with pytest.raises(ValueError, match="Expecting"):
        strict_json.loads("[" * 100 + "}" * 300)


def test_a_huge_value_in_a_message_is_named_by_its_size() -> None:
    assert to_tla(frozenset(range(5000)), 300) == "(a set of 5,000 elements)"
    assert to_tla(frozenset(range(100)), 20) == "{0, 1, 2, 3, 4, 5, 6, ...}"
    assert to_tla(frozenset(range(3))) == "{0, 1, 2}"  # without a limit: everything


def _eval_stdin(data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tlaconf.cli.main", "eval", "-"], input=data,
                          capture_output=True, check=False)


def test_eval_stdin_refuses_more_than_its_limit(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tlaconf.cli.eval, "MAX_EXPRESSIONS", 3)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n2\n\n3\n"))
    assert main(["eval", "-"]) == 0  # blank lines do not count
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n2\n3\n4\n5\n"))
    assert main(["eval", "-"]) == 2
    out, err = capsys.readouterr()
    assert out.split() == ["1", "2", "3"] and "stdin:4: more than 3 expressions" in err


def test_eval_stdin_through_a_pipe() -> None:
    """Read in chunks from the file descriptor: a bad line is answered and named, a line
    over the byte limit is refused before it is parsed."""
    done = _eval_stdin(b"1 + 1\n\xff\n2\n")
    assert done.returncode == 2
    assert done.stdout.decode().splitlines() == [
        "2", "error: stdin:2:1: not UTF-8: byte 0xff cannot start or continue a character", "2"]
    done = _eval_stdin(b"{" + b"1," * 600_000 + b"1}\n")
    assert done.returncode == 2 and b"stdin:1: a line longer than 1,000,000 bytes" in done.stderr
