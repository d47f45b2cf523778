"""Size budgets: deep JSON, huge values in messages and ``eval -`` input are bounded."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import tlaconf.cli.eval
from tlaconf.cli.main import main
from tlaconf.values import Fn, ITFDecodeError, decode, strict_json
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


def _refused(obj: object, path: str = "state.s") -> str:
    with pytest.raises(ITFDecodeError) as err:
        decode(obj, path)
    return str(err.value)


def test_big_values_of_scalars_are_taken_whole_and_still_checked() -> None:
    """Sequences and records of scalars skip the per-element decoding, not its checks."""
    many = list(range(10_000))
    assert decode(many) == tuple(many)
    assert _refused([*many, 2**60]) == (
        "state.s[10000]: integer 1152921504606846976 is not safe in JSON; use {\"#bigint\": ...}")
    assert _refused([*many, 1.5]) == "state.s[10000]: 1.5 is not an integer (TLA+ has no floats)"
    record = {f"f{i}": i for i in range(100)} | {"ok": True, "name": "x"}
    assert decode(record) == Fn(record)
    assert _refused(record | {"big": -(2**60)}).startswith("state.s.big: integer")
    assert _refused(record | {"#set": []}).startswith(
        "state.s: an encoded value has exactly one key")
    assert _refused({"a": 1, "b": [None]}) == "state.s.b[0]: null is not a TLA+ value"
    assert _refused({"#map": [[1, 2], [3]]}) == (
        "state.s#map[1]: #map entries are [key, value] pairs")
    assert _refused({"#map": [[1, 2], [3, {"#bigint": "x"}]]}).startswith(
        "state.s#map[1][1]: #bigint 'x' is not a decimal integer")
    assert _refused({"#set": [1, {"#tup": [1, None]}]}, "") == (
        "#set[1]#tup[1]: null is not a TLA+ value")


def test_sets_of_tuples_and_records_are_checked_by_column() -> None:
    pairs = {"#set": [{"#tup": [i, f"n{i}"]} for i in range(1000)]}
    assert len(decode(pairs)) == 1000
    assert "<<1, \"a\">> and the sequence <<\"b\", 2>>, which TLC cannot compare" in _refused(
        {"#set": [{"#tup": [1, "a"]}, {"#tup": ["b", 2]}]})
    cards = {"#set": [{"id": i, "zone": "hand"} for i in range(1000)]}
    assert len(decode(cards)) == 1000
    assert "which TLC cannot compare" in _refused(
        {"#set": [{"id": 1, "zone": "hand"}, {"id": "x", "zone": "hand"}]})
    # tuples of different lengths compare by length; records of other fields by their fields
    assert len(decode({"#set": [[1], [2, "a"], [3, "b", True]]})) == 3
    assert len(decode({"#set": [{"a": 1}, {"b": "x"}]})) == 2


def test_json_objects_with_a_key_given_twice_are_refused_at_any_size() -> None:
    wide = "{" + ",".join(f'"k{i}": {i}' for i in range(5000)) + ', "k7": 0}'
    with pytest.raises(strict_json.DuplicateKeyError) as err:
        strict_json.loads(wide)
    assert err.value.key == "k7"
    assert len(strict_json.loads(wide.replace(', "k7": 0', ""))) == 5000


def test_membership_in_a_big_set_of_records_is_not_sorted_and_still_checked(
        capsys: pytest.CaptureFixture[str]) -> None:
    cards = '{[id |-> i, zone |-> "hand"] : i \\in 1..100000}'
    assert main(["eval", f'[id |-> 7, zone |-> "deck"] \\in {cards}']) == 0
    assert capsys.readouterr().out.strip() == "FALSE"
    assert main(["eval", f'[id |-> "x", zone |-> "deck"] \\in {cards}']) == 2
    assert "TLC cannot compare the string \"x\" with the integer" in capsys.readouterr().err
