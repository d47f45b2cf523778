"""The explorer's core API: initial states, labelled successors, keys, fingerprints."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import EvalError
from tlaconf.explore import Label, Unsupported, bfs, load_model, walks
from tlaconf.values import ModelValue, make_fn

COUNTER = """---- MODULE Counter ----
EXTENDS Naturals
CONSTANTS Limit, Procs
VARIABLES x, who
Init == /\\ x \\in {0, 1}
        /\\ who = CHOOSE p \\in Procs : TRUE
Inc(p) == /\\ x < Limit
          /\\ x' = x + 1
          /\\ who' = p
Reset == x > 0 /\\ x' = 0 /\\ UNCHANGED who
Next == \\/ \\E p \\in Procs : Inc(p)
        \\/ Reset
Spec == Init /\\ [][Next]_<<x, who>> /\\ WF_x(Next)
Small == x <= 2
Low == x < Limit
Perms == {[p \\in Procs |-> p]}
====
"""


def write(tmp_path: Path, cfg: str, text: str = COUNTER, name: str = "Counter") -> Path:
    (tmp_path / f"{name}.tla").write_text(text)
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return tmp_path / f"{name}.tla"


CFG = "CONSTANTS Limit = 2\n  Procs = {p1, p2}\nSPECIFICATION Spec\nINVARIANT Small\n"


def test_initial_states_and_labelled_successors(tmp_path: Path) -> None:
    model = load_model(write(tmp_path, CFG))
    p1, p2 = ModelValue("p1"), ModelValue("p2")
    inits = model.initial_states()
    assert [s["x"] for s in inits] == [0, 1]
    assert all(s["who"] in (p1, p2) for s in inits)
    succs = model.successors({"x": 1, "who": p1})
    got = {(str(t.label), t.state["x"], t.state["who"].name) for t in succs}
    assert got == {("Inc(p1)", 2, "p1"), ("Inc(p2)", 2, "p2"), ("Reset", 0, "p1")}
    inc = next(t for t in succs if t.label.name == "Inc")
    assert inc.label.args == (("p", inc.state["who"]),)
    assert model.successors({"x": 0, "who": p1})[0].label == Label("Inc", (("p", p1),))


def test_keys_fingerprints_invariants(tmp_path: Path) -> None:
    model = load_model(write(tmp_path, CFG))
    s = {"x": 1, "who": ModelValue("p1")}
    t = {"x": 1, "who": ModelValue("p2")}
    assert model.key(s) != model.key(t)
    assert model.fingerprint(s) == model.fingerprint(dict(s)) != model.fingerprint(t)
    assert model.violated_invariant(s) is None
    assert model.violated_invariant({"x": 3, "who": ModelValue("p1")}) == "Small"
    blame = model.explain_invariant("Small", {"x": 3, "who": ModelValue("p1")})
    assert "x" in blame.render()


def test_symmetry_and_view_merge_keys(tmp_path: Path) -> None:
    text = COUNTER.replace("Perms == {[p \\in Procs |-> p]}",
                           "Perms == Permutations(Procs)\nOnlyX == x").replace(
        "EXTENDS Naturals", "EXTENDS Naturals, TLC")
    s = {"x": 1, "who": ModelValue("p1")}
    t = {"x": 1, "who": ModelValue("p2")}
    sym = load_model(write(tmp_path, CFG + "SYMMETRY Perms\n", text))
    assert sym.key(s) == sym.key(t)
    view = load_model(write(tmp_path, CFG + "VIEW OnlyX\n", text))
    assert view.key(s) == view.key(t) == 1
    plain = load_model(write(tmp_path, CFG, text))
    assert plain.key(s) != plain.key(t)


def test_constraints(tmp_path: Path) -> None:
    model = load_model(write(tmp_path, CFG + "CONSTRAINT Low\nACTION_CONSTRAINT Low\n"))
    assert model.in_constraints({"x": 1, "who": ModelValue("p1")})
    assert not model.in_constraints({"x": 2, "who": ModelValue("p1")})
    assert not model.action_allowed({"x": 2, "who": ModelValue("p1")},
                                    {"x": 0, "who": ModelValue("p1")})


def test_definition_overrides(tmp_path: Path) -> None:
    text = COUNTER.replace("Small ==", "Two == 2\nSmall ==")
    cfg = CFG.replace("Limit = 2", "Limit = 9") + "CONSTANTS Low <- Small\n"
    model = load_model(write(tmp_path, cfg + "CONSTRAINT Low\n", text))
    assert model.in_constraints({"x": 2, "who": ModelValue("p1")})  # Low is now Small
    assert not model.in_constraints({"x": 3, "who": ModelValue("p1")})


def test_init_next_and_substitution(tmp_path: Path) -> None:
    text = COUNTER.replace("Small ==", "MCLimit == 1\nSmall ==")
    cfg = "CONSTANTS Limit <- MCLimit\n  Procs = {p1}\nINIT Init\nNEXT Next\n"
    model = load_model(write(tmp_path, cfg, text))
    assert {t.state["x"] for t in model.successors({"x": 0, "who": ModelValue("p1")})} == {1}
    assert model.successors({"x": 1, "who": ModelValue("p1")})[0].label.name == "Reset"


@pytest.mark.parametrize(
    ("cfg", "line", "message"),
    [
        (CFG + "PROPERTY Nope\n", 5, "PROPERTY Nope: module Counter has no definition"),
        (CFG + "INIT Init\n", 3, "either SPECIFICATION or INIT and NEXT"),
        ("CONSTANTS Limit = 2\n  Procs = {p1}\nINIT Nope\nNEXT Next\n", 3, "no definition"),
        ("CONSTANTS Limit = 2\n  Procs = {p1}\nSPECIFICATION Spec\nINVARIANT Inc\n", 4,
         "not a definition without parameters"),
        ("CONSTANTS Limit = 2\n Procs = {p1}\n Other = 3\nSPECIFICATION Spec\n", 3,
         "neither a CONSTANT nor a definition"),
        ("CONSTANTS Limit = 2\n Procs = {p1}\n Small <- Nope\nSPECIFICATION Spec\n", 3,
         "given the definition Nope"),
    ],
)
def test_bad_models_name_the_cfg_line(tmp_path: Path, cfg: str, line: int, message: str) -> None:
    with pytest.raises(UserError) as err:
        load_model(write(tmp_path, cfg))
    assert err.value.location == f"{tmp_path / 'Counter.cfg'}:{line}"
    assert message in err.value.message


def test_unsupported_temporal_conjunct(tmp_path: Path) -> None:
    text = COUNTER.replace("/\\ WF_x(Next)", "/\\ <>(x = 2)")
    with pytest.raises(Unsupported, match="not \\[\\]\\[A\\]_v"):
        load_model(write(tmp_path, CFG, text))


def test_missing_constant_and_undetermined_successor(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no value for CONSTANT Procs"):
        load_model(write(tmp_path, "CONSTANTS Limit = 2\nSPECIFICATION Spec\n"))
    text = COUNTER.replace("/\\ UNCHANGED who", "")
    model = load_model(write(tmp_path, CFG, text))
    with pytest.raises(EvalError, match="leaves who unassigned"):
        model.successors({"x": 1, "who": ModelValue("p1")})


def test_records_as_values(tmp_path: Path) -> None:
    text = """---- MODULE R ----
EXTENDS Naturals
VARIABLE r
Init == r \\in [a : {1, 2}, b : {"u"}]
Next == r' = [r EXCEPT !.a = 3 - @]
====
"""
    model = load_model(write(tmp_path, "INIT Init\nNEXT Next\n", text, "R"))
    inits = model.initial_states()
    assert inits == [{"r": make_fn({"a": 1, "b": "u"})}, {"r": make_fn({"a": 2, "b": "u"})}]
    assert model.successors(inits[0])[0].state == inits[1]


def test_true_and_one_are_different_states(tmp_path: Path) -> None:
    text = """---- MODULE Mix ----
EXTENDS Naturals
VARIABLES n, x, f
Init == n = 0 /\\ x = 1 /\\ f = <<TRUE>>
Next == \\/ n = 0 /\\ n' = 1 /\\ x' = x /\\ f' = f
        \\/ n = 1 /\\ n' = 0 /\\ x' = TRUE /\\ f' = <<1>>
        \\/ n = 1 /\\ n' = 0 /\\ x' = 1 /\\ f' = <<1>>
====
"""
    model = load_model(write(tmp_path, "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n", text,
                             "Mix"))
    res = bfs(model)  # Python has (0, 1, <<1>>) == (0, TRUE, <<1>>) == (0, 1, <<TRUE>>)
    assert (res.distinct_states, res.total_states, res.depth) == (6, 10, 4)  # TLC's figures
    assert walks(model, 30, 10, seed=0).distinct_states == 6
