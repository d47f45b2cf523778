"""Random expressions never raise anything but a value or an EvalError."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.evaluate.tlahelp import ev
from tlaconf.evaluate import EvalError
from tlaconf.tla.errors import ParseError

atoms = st.sampled_from(
    ["0", "1", "-3", '"a"', "TRUE", "FALSE", "{}", "{1, 2}", "<<>>", "<<1, \"a\">>",
     "[a |-> 1]", "Nat", "1..3", "SUBSET {1}", "(1 :> 2)", "[x \\in 1..2 |-> x]"]
)
binops = st.sampled_from(
    ["+", "-", "*", "\\div", "%", "=", "#", "\\in", "\\notin", "\\cup", "\\cap", "\\",
     "\\subseteq", "/\\", "\\/", "=>", "<", "\\o", "@@", ":>", ".."]
)
unops = st.sampled_from(["DOMAIN", "SUBSET", "UNION", "~", "Len", "Head", "Tail",
                         "Cardinality", "IsFiniteSet", "ToString"])


def expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(inner, binops, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(unops, inner).map(
                lambda t: f"{t[0]}({t[1]})" if t[0][0].isupper() and t[0] not in
                ("DOMAIN", "SUBSET", "UNION") else f"({t[0]} {t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, inner, inner).map(lambda t: f"(IF {t[0]} THEN {t[1]} ELSE {t[2]})"),
            inner.map(lambda e: f"{{x \\in {e} : x = 1}}"),
            inner.map(lambda e: f"(\\A x \\in {e} : x)"),
            inner.map(lambda e: f"[{e} EXCEPT ![1] = @]"),
        ),
        max_leaves=6,
    )


@settings(max_examples=300, deadline=None)
@given(expressions())
def test_no_python_exception_escapes(expr: str) -> None:
    try:
        ev(expr)
    except (EvalError, ParseError) as err:  # ParseError: text SANY rejects (1..3 + 1..3)
        assert "internal evaluator error" not in str(err), expr
