"""The community-module operators TLC overrides in Java, evaluated natively.

The modules under ``data/lib`` carry the community modules' operator names with
bodies that cannot be evaluated (``CHOOSE v : TRUE``): a value here comes from the
override, never from the definition.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tlaconf.evaluate import EvalError, load_module
from tlaconf.evaluate.community import io_session

DATA = Path(__file__).with_name("data")
LIB = DATA / "lib"


@pytest.fixture(scope="module")
def ctx():  # type: ignore[no-untyped-def]
    return load_module(DATA / "Uses.tla", [LIB], {})


def test_json_lines_as_tlc_reads_them(ctx, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "log.ndjson"
    log.write_text('{"N": 2}\n\n  {"a": [1, true, "x"], "vc": {"0": 3}}  \n'
                   '{"big": 4294967301, "f": -1.7, "e": 1e2, "o": {}}\n')
    got = ctx.evaluate(f'ndJsonDeserialize("{log}")')
    assert len(got) == 3
    assert ctx.evaluate(f'ndJsonDeserialize("{log}")[1].N') == 2
    assert ctx.evaluate(f'ndJsonDeserialize("{log}")[2].a') == (1, True, "x")
    assert ctx.evaluate(f'DOMAIN ndJsonDeserialize("{log}")[2].vc') == frozenset({"0"})
    # Gson's getAsInt: 32-bit wrap-around, the integer part of a fraction
    assert ctx.evaluate(f'ndJsonDeserialize("{log}")[3].big') == 5
    assert ctx.evaluate(f'ndJsonDeserialize("{log}")[3].f') == -1
    assert ctx.evaluate(f'ndJsonDeserialize("{log}")[3].e') == 100
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"k": 1}, {"k": 2}]))
    assert ctx.evaluate(f'JsonDeserialize("{one}")[2].k') == 2


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": null}\n', "unsupported JSON value null"),
    ('{"a": 1}\n{"a": \n', r"log.ndjson:2: not JSON"),
])
def test_bad_json_is_an_error_naming_the_line(  # type: ignore[no-untyped-def]
    ctx, tmp_path: Path, text: str, message: str
) -> None:
    log = tmp_path / "log.ndjson"
    log.write_text(text)
    with pytest.raises(EvalError, match=message):
        ctx.evaluate(f'ndJsonDeserialize("{log}")')


def test_missing_json_file(ctx, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvalError, match="cannot read"):
        ctx.evaluate(f'ndJsonDeserialize("{tmp_path / "nope.ndjson"}")')


def test_io_env_and_atoi(ctx, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TLACONF_TEST_VAR", "from-env")
    with io_session({"JSON": "given.ndjson"}):
        assert ctx.evaluate("IOEnv.TLACONF_TEST_VAR") == "from-env"
        assert ctx.evaluate("IOEnv.JSON") == "given.ndjson"
        with io_session({"JSON": "inner.ndjson"}):
            assert ctx.evaluate("IOEnv.JSON") == "inner.ndjson"
        assert ctx.evaluate("IOEnv.JSON") == "given.ndjson"
    # a session's variables and notes end with it: nothing is left for the next run
    assert ctx.evaluate('"JSON" \\in DOMAIN IOEnv') is False
    assert ctx.evaluate('atoi("-42") + atoi("+7")') == -35
    for bad in ('"4x"', '" 4"', '"2147483648"', "12"):
        with pytest.raises(EvalError, match="atoi should be a string"):
            ctx.evaluate(f"atoi({bad})")


def test_causal_order_sorts_by_vector_clock(ctx) -> None:  # type: ignore[no-untyped-def]
    # b's second event happened after a's first; a's second after b's second
    log = ('<<[n |-> "a", vc |-> [a |-> 2, b |-> 2]], [n |-> "b", vc |-> [a |-> 1, b |-> 2]],'
           ' [n |-> "b", vc |-> [b |-> 1]], [n |-> "a", vc |-> [a |-> 1]]>>')
    got = ctx.evaluate(f"CausalOrder({log}, LAMBDA l : l.vc, LAMBDA l : l.n, "
                       "LAMBDA vc : DOMAIN vc)")
    assert [dict(x["vc"]) for x in got] == [
        {"a": 1}, {"b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 2}]
    gap = '<<[n |-> "a", vc |-> [a |-> 1, b |-> 2]], [n |-> "b", vc |-> [b |-> 1]]>>'
    with pytest.raises(EvalError, match=r"needs line 2 of \"b\".*gap"):
        ctx.evaluate(f"CausalOrder({gap}, LAMBDA l : l.vc, LAMBDA l : l.n, "
                     "LAMBDA vc : DOMAIN vc)")


@pytest.mark.parametrize(("expr", "value"), [
    ("IsPrefix(<<1, 2>>, <<1, 2, 3>>)", True),
    ("IsPrefix(<<1, 3>>, <<1, 2, 3>>)", False),
    ('IsPrefix("ab", "abc")', True),
    ("SetToSeq({3, 1, 2})", (1, 2, 3)),
    ("Contains(<<1, 2>>, 2) /\\ ~Contains(<<1, 2>>, 3)", True),
    # the fold operators' argument orders are the Java overrides'
    ("FoldLeft(LAMBDA acc, e : acc \\o <<e>>, <<0>>, <<1, 2>>)", (0, 1, 2)),
    ("FoldRight(LAMBDA e, acc : acc \\o <<e>>, <<1, 2>>, <<0>>)", (0, 2, 1)),
    ("FoldSeq(LAMBDA e, acc : acc \\o <<e>>, <<>>, <<5, 6>>)", (5, 6)),
    ("FoldLeftDomain(LAMBDA acc, i : acc \\o <<i>>, <<>>, <<9, 9>>)", (1, 2)),
    ("FoldRightDomain(LAMBDA i, acc : acc \\o <<i>>, <<9, 9>>, <<>>)", (2, 1)),
    ("SelectInSeq(<<4, 5, 4>>, LAMBDA x : x = 4)", 1),
    ("SelectLastInSeq(<<4, 5, 4>>, LAMBDA x : x = 4)", 3),
    ("SelectInSeq(<<4>>, LAMBDA x : x = 7)", 0),
    ("FoldSet(LAMBDA e, acc : acc \\o <<e>>, <<>>, {2, 1, 3})", (1, 2, 3)),
    ("Quantify(1..10, LAMBDA x : x % 3 = 0)", 3),
    ("FoldFunction(LAMBDA v, acc : acc \\o <<v>>, <<>>, [x \\in {2, 1} |-> 10 * x])", (10, 20)),
    ("FoldFunctionOnSet(LAMBDA v, acc : acc + v, 0, <<1, 2, 4>>, {1, 3})", 5),
    ("IsInjective(<<1, 2>>) /\\ ~IsInjective(<<1, 1>>)", True),
    ('AntiFunction(<<"a", "b">>)', None),
    ("FoldBag(LAMBDA acc, e : acc \\o <<e>>, <<>>, (1 :> 2) @@ (2 :> 1))", (1, 1, 2)),
    ("Dropped", (1, 3)),
])
def test_sequence_set_function_overrides(ctx, expr: str, value: object) -> None:  # type: ignore[no-untyped-def]
    got = ctx.evaluate(expr)
    if value is None:
        assert dict(got) == {"a": 1, "b": 2}
    else:
        assert got == value


def test_only_same_arity_definitions_are_overridden(tmp_path: Path) -> None:
    (tmp_path / "SequencesExt.tla").write_text(
        "---- MODULE SequencesExt ----\nContains(s, e, f) == CHOOSE b : TRUE\n====\n")
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nEXTENDS SequencesExt\n"
                                    "X == Contains(1, 2, 3)\n====\n")
    ctx = load_module(tmp_path / "M.tla", [], {})
    with pytest.raises(EvalError, match="CHOOSE"):
        ctx.evaluate("X")


def test_fold_bag_refuses_a_non_bag(ctx) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvalError, match="not an element of Nat"):
        ctx.evaluate("FoldBag(LAMBDA a, e : a, 0, (1 :> 0))")
