"""Random mutations of valid modules never raise anything but a UserError."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlaconf.errors import UserError
from tlaconf.tla.fragments import extract
from tlaconf.tla.parser import parse_expression, parse_module
from tlaconf.tla.resolve import resolve

SEEDS = [
    r"""---- MODULE A ----
EXTENDS Naturals, Sequences, FiniteSets
CONSTANTS N, Op(_, _)
VARIABLES x, y
ASSUME N \in Nat
Init == /\ x = 0
        /\ y = <<>>
Next == \/ /\ x < N
           /\ x' = x + 1
           /\ UNCHANGED y
        \/ \E v \in 1..N : y' = Append(y, v) /\ x' = x
f[i \in 1..N] == IF i = 1 THEN 1 ELSE i * f[i - 1]
R == [a |-> 1, b |-> {1, 2}]
S == [R EXCEPT !.a = @ + 1, !.b = {}]
T == CASE x = 0 -> "zero" [] x > 0 -> "pos" [] OTHER -> "neg"
U == LET g(z) == z * 2 IN {g(z) : z \in 1..3}
V == CHOOSE z \in {w \in 1..N : w > 2} : TRUE
Spec == Init /\ [][Next]_<<x, y>> /\ WF_<<x, y>>(Next)
THEOREM Spec => []TRUE
  <1>1. TRUE OBVIOUS
  <1>. QED BY <1>1
====""",
    r"""---- MODULE B ----
EXTENDS Integers
VARIABLE zones
Partition(ids, occ) ==
    /\ DOMAIN occ = {"a", "b"}
    /\ UNION {occ[z] : z \in DOMAIN occ} = ids
    /\ \A a, b \in DOMAIN occ : a # b => occ[a] \cap occ[b] = {}
Move(id, s, d) ==
    /\ zones' = [z \in DOMAIN zones |-> IF z = s THEN zones[z] \ {id}
                     ELSE IF z = d THEN zones[z] \cup {id} ELSE zones[z]]
    /\ -1 < 0 /\ (TRUE => FALSE) /\ L :: TRUE
M == INSTANCE Naturals
====""",
]

_TOKEN = re.compile(r"\s+|\w+|\\[A-Za-z]+|[^\w\s]")


def _mutate(text: str, data: st.DataObject) -> str:
    # token-level or character-level edits
    units = _TOKEN.findall(text) if data.draw(st.booleans()) else list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        if not units:
            break
        i = data.draw(st.integers(0, len(units) - 1))
        op = data.draw(st.sampled_from(["delete", "duplicate", "swap", "insert"]))
        if op == "delete":
            del units[i]
        elif op == "duplicate":
            units.insert(i, units[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(units) - 1))
            units[i], units[j] = units[j], units[i]
        else:
            units.insert(
                i,
                data.draw(
                    st.sampled_from(
                        [
                            "/\\",
                            "\\/",
                            "(",
                            ")",
                            "[",
                            "]",
                            "<<",
                            ">>",
                            ",",
                            ":",
                            "==",
                            "'",
                            "!",
                            "@",
                            "\n",
                            "  ",
                            "\t",
                            "(*",
                            "*)",
                            '"',
                            "----",
                            "====",
                            "<1>",
                            "BY",
                            "CASE",
                            "[]",
                            "IF",
                            "THEN",
                            "LET",
                            "IN",
                            "\\A",
                            "x",
                            "1",
                            "_",
                            "WF_",
                            "::",
                            "|->",
                            "->",
                        ]
                    )
                ),
            )
    return "".join(units)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_modules_raise_only_user_errors(data: st.DataObject) -> None:
    text = _mutate(data.draw(st.sampled_from(SEEDS)), data)
    try:
        module = parse_module(text, "fuzz.tla")
        resolve(module, [], file="fuzz.tla", text=text)
    except UserError as err:
        assert str(err)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_expressions_and_pages_raise_only_user_errors(data: st.DataObject) -> None:
    body = SEEDS[1].split("\n", 3)[3].rsplit("====", 1)[0]
    text = _mutate(body, data)
    for run in (
        lambda: parse_expression(text, "e"),
        lambda: extract("reference-profile · input revision 2 · CC0 1.0\n" + text, "p"),
    ):
        try:
            run()
        except UserError as err:
            assert str(err)


def test_seeds_are_valid() -> None:
    for text in SEEDS:
        resolve(parse_module(text, "seed.tla"), [], file="seed.tla", text=text)
