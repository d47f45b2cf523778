"""Regenerate ``tlc_overrides.json``: TLC's answers on the community-module operators it
overrides in Java, on arguments Hypothesis draws (well- and ill-typed, bounds in and out
of range, values past 32 bits).

One TLC run answers every case (a second one the cases reading a JSON file, written
beside the probe): the probe module defines ``P_i == PrintT(...ToString(e_i))`` for each
expression ``e_i``; TLC evaluates every constant definition once as it starts and ignores
the ones that fail, so a case TLC prints is its value and a case it does not is an error.
Left out, where TLC's answer depends on its internals rather than on the values
(docs/validate.md): a ``LAMBDA`` whose body ignores its parameter, strings in a
``LongestCommonPrefix`` that TLC orders by first appearance, bags built with ``@@`` in
other than TLC's order, integers past 32 bits in ``factorial``, empty JSON objects.

    TLC_JAR=/path/to/tla2tools.jar TLACONF_COMMUNITY_JAR=/path/to/CommunityModules-deps.jar \\
        python -m tests.library.generate_overrides
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DATA = Path(__file__).with_name("tlc_overrides.json")
MODULES = ("SequencesExt", "FiniteSetsExt", "Functions", "BagsExt", "Combinatorics", "Bitwise",
           "Json", "IOUtils", "UndirectedGraphs")
EXAMPLES = 40
"""Cases drawn per operator."""

_atom = st.sampled_from(["0", "1", "2", "3", '"a"', '"b"'])
_int = st.sampled_from(["0", "1", "2", "3"])
_ints = st.lists(_int, max_size=5)
_mixed = st.lists(st.sampled_from(["1", "2", "3", '"a"']), max_size=4)


def _seq(items: list[str]) -> str:
    return "<<" + ", ".join(items) + ">>"


def _set(items: list[str]) -> str:
    return "{" + ", ".join(items) + "}"


_iseq = _ints.map(_seq)
_aseq = st.lists(_atom, max_size=5).map(_seq)
_iset = st.lists(_int, max_size=4).map(_set)
_bound = st.integers(-1, 6).map(str)
_test = st.sampled_from(["LAMBDA x: x = 1", "LAMBDA x: x = \"a\"", "LAMBDA x: x > 1",
                         "LAMBDA x: x \\in {1, 3}", "LAMBDA x: <<x>>"])
_fold = st.sampled_from(["LAMBDA a, b: 2 * a + b", "LAMBDA a, b: a + 2 * b",
                         "LAMBDA a, b: a - b"])
_fun = st.one_of(_iseq, st.lists(st.tuples(st.sampled_from(["1", "2", "5", '"k"']), _int),
                                 min_size=1, max_size=3).map(
    lambda kv: " @@ ".join(f"({k} :> {v})" for k, v in kv)))
_prefixes = st.one_of(
    st.lists(st.lists(st.sampled_from(["1", "2"]), max_size=3).map(_seq), max_size=3),
    st.lists(st.text("ab", min_size=1, max_size=3).map(lambda t: f'"{t}"'), max_size=3),
    st.lists(_mixed.map(_seq), max_size=3)).map(_set)
_bag = st.dictionaries(_int, st.integers(-1, 3).map(str), max_size=3).map(
    lambda kv: " @@ ".join(f"({k} :> {n})" for k, n in sorted(kv.items())) or "<<>>")
_word = st.one_of(st.integers(-5, 300), st.sampled_from([2147483647, -2147483647, 65535]))

_node = st.sampled_from(["1", "2", "3", "4"])
_edge = st.lists(st.sampled_from(["1", "2", "3", "5"]), max_size=3).map(_set)
_graph = st.one_of(
    st.builds(lambda n, e: f"[node |-> {n}, edge |-> {e}]", st.lists(_node, max_size=4).map(_set),
              st.lists(_edge, max_size=4).map(_set)),
    st.sampled_from(["[node |-> {1}]", "[node |-> 1, edge |-> {}]", "<<1, 2>>",
                     "[node |-> {1, 2}, edge |-> <<{1, 2}>>]"]))
OPERATORS = {
    "ConnectedComponents": _graph.map(lambda g: f"ConnectedComponents({g})"),
    "SelectInSeq": st.builds(lambda s, t: f"SelectInSeq({s}, {t})", _aseq, _test),
    "SelectLastInSeq": st.builds(lambda s, t: f"SelectLastInSeq({s}, {t})", _aseq, _test),
    "SelectInSubSeq": st.builds(lambda s, f, t, p: f"SelectInSubSeq({s}, {f}, {t}, {p})",
                                _aseq, _bound, _bound, _test),
    "SelectLastInSubSeq": st.builds(
        lambda s, f, t, p: f"SelectLastInSubSeq({s}, {f}, {t}, {p})", _aseq, _bound, _bound,
        _test),
    "RemoveFirst": st.builds(lambda s, e: f"RemoveFirst({s}, {e})", _aseq, _atom),
    "RemoveFirstMatch": st.builds(lambda s, t: f"RemoveFirstMatch({s}, {t})", _aseq, _test),
    "Suffixes": _aseq.map(lambda s: f"Suffixes({s})"),
    "AllSubSeqs": st.lists(_atom, max_size=4).map(lambda s: f"AllSubSeqs({_seq(s)})"),
    "SetToSeq": _iset.map(lambda s: f"SetToSeq({s})"),
    "SetToSeqs": st.lists(_atom, max_size=3).map(lambda s: f"SetToSeqs({_set(s)})"),
    "LongestCommonPrefix": _prefixes.map(lambda s: f"LongestCommonPrefix({s})"),
    "Contains": st.builds(lambda s, e: f"Contains({s}, {e})", _aseq, _atom),
    "IsPrefix": st.one_of(
        st.builds(lambda s, t: f"IsPrefix({s}, {t})", _iseq, _iseq),
        st.builds(lambda s, t: f'IsPrefix("{s}", "{t}")', st.text("ab", max_size=3),
                  st.text("ab", max_size=3))),
    "FoldLeft": st.builds(lambda o, b, s: f"FoldLeft({o}, {b}, {s})", _fold, _int, _iseq),
    "FoldRight": st.builds(lambda o, s, b: f"FoldRight({o}, {s}, {b})", _fold, _iseq, _int),
    "FoldLeftDomain": st.builds(lambda o, b, s: f"FoldLeftDomain({o}, {b}, {s})", _fold,
                                _int, _aseq),
    "FoldRightDomain": st.builds(lambda o, s, b: f"FoldRightDomain({o}, {s}, {b})", _fold,
                                 _aseq, _int),
    "FoldSeq": st.builds(lambda o, b, s: f"FoldSeq({o}, {b}, {s})", _fold, _int, _iseq),
    "FoldSet": st.builds(lambda o, b, s: f"FoldSet({o}, {b}, {s})", _fold, _int, _iset),
    "Quantify": st.builds(lambda s, t: f"Quantify({s}, {t})", _iset, _test),
    "kSubset": st.builds(lambda k, s: f"kSubset({k}, {s})", _bound, _iset),
    "FoldFunction": st.builds(lambda o, b, f: f"FoldFunction({o}, {b}, {f})", _fold, _int,
                              _fun),
    "FoldFunctionOnSet": st.builds(
        lambda o, b, f, s: f"FoldFunctionOnSet({o}, {b}, {f}, {s})", _fold, _int, _fun, _iset),
    "IsInjective": _fun.map(lambda f: f"IsInjective({f})"),
    "AntiFunction": _fun.map(lambda f: f"AntiFunction({f})"),
    "FoldBag": st.builds(lambda o, b, g: f"FoldBag({o}, {b}, {g})", _fold, _int, _bag),
    "choose": st.builds(lambda n, k: f"choose({n}, {k})", st.integers(-1, 36),
                        st.integers(-1, 36)),
    "factorial": st.integers(0, 12).map(lambda n: f"factorial[{n}]"),
    "&": st.builds(lambda x, y: f"({x}) & ({y})", _word, _word),
    "|": st.builds(lambda x, y: f"({x}) | ({y})", _word, _word),
    "^^": st.builds(lambda x, y: f"({x}) ^^ ({y})", _word, _word),
    "Not": _word.map(lambda x: f"Not({x})"),
    "shiftR": st.builds(lambda x, p: f"shiftR({x}, {p})", _word, st.integers(0, 33)),
}


_json: st.SearchStrategy[object] = st.recursive(
    st.one_of(st.integers(-(2**40), 2**40), st.booleans(), st.text("ab", max_size=2),
              st.sampled_from(["1.5", "-0.7", "1e2", "2.5E1", "-3E-1", "4294967301"]).map(
                  lambda t: _Raw(t))),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["k1", "k2", "k3"]), inner, min_size=1, max_size=3).map(
            lambda d: dict(sorted(d.items())))),
    max_leaves=6)


class _Raw(str):
    """A JSON number written as it is (a fraction or an exponent)."""


def _dump(v: object) -> str:
    if isinstance(v, _Raw):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(map(_dump, v)) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_dump(x)}" for k, x in v.items()) + "}"
    return json.dumps(v)


FILE_OPERATORS = {
    "JsonDeserialize": _json.map(lambda v: ('JsonDeserialize("{file}")', _dump(v))),
    "ndJsonDeserialize": st.lists(_json, min_size=1, max_size=3).map(
        lambda vs: ('ndJsonDeserialize("{file}")', "\n".join(map(_dump, vs)) + "\n")),
}
"""Operators reading a file: (expression with ``{file}``, the file's text); each case has
its own file, named ``"file"`` in the data, in the folder it is evaluated in."""

OPERATORS["atoi"] = st.one_of(
    st.from_regex(r"[+-]?[0-9]{1,11}", fullmatch=True),
    st.sampled_from([" 4", "4x", "", "-", "+", "2147483648", "-2147483648"])).map(
    lambda t: f'atoi("{t}")')

EDGES = {
    "choose": ["choose(-1, 2)", "choose(2, -1)", "choose(36, 18)", "choose(34, 17)",
               'choose("a", 1)'],
    "kSubset": ["kSubset(-1, {1})", 'kSubset("a", {1})', "kSubset(1, <<1>>)"],
    "Not": ["Not(-1)", "Not(0)", 'Not("a")'],
    "shiftR": ["shiftR(-1, 0)", "shiftR(-1, 31)", "shiftR(-1, 32)"],
    "LongestCommonPrefix": ["LongestCommonPrefix({})", 'LongestCommonPrefix({"ab", <<1>>})'],
    "SelectInSubSeq": ['SelectInSubSeq(<<"a", "b", "a", "b", "a">>, 2, 5, LAMBDA x: x = "a")'],
}
"""Cases every run includes (bounds and errors Hypothesis may not draw)."""


def draw_cases() -> list[tuple[str, str]]:
    """(operator, expression) pairs, the same ones on every run (derandomized)."""
    out: dict[str, str] = {}
    for name, strategy in OPERATORS.items():
        for expr in EDGES.get(name, ()):
            out.setdefault(expr, name)
        _collect(name, strategy, out)
    return [(op, expr) for expr, op in out.items()]


def draw_file_cases() -> list[tuple[str, str, str]]:
    """(operator, expression, file text) triples."""
    out: list[tuple[str, str, str]] = []
    for name, strategy in FILE_OPERATORS.items():
        found: dict[tuple[str, str], None] = {}

        @settings(max_examples=EXAMPLES, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def collect(case: tuple[str, str]) -> None:
            found.setdefault(case)  # noqa: B023 -- run at once, in this iteration

        collect()
        out += [(name, expr, text) for expr, text in found]
    return out


def _collect(name: str, strategy: st.SearchStrategy[str], out: dict[str, str]) -> None:
    @settings(max_examples=EXAMPLES, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(expr: str) -> None:
        out.setdefault(expr, name)

    collect()


_PRINTED = re.compile(r'^"tlaconf_probe (\d+) (.*)"$', re.MULTILINE)


def probe(cases: list[tuple[str, str]]) -> str:
    lines = ["---- MODULE TlaconfOverrides ----",
             f"EXTENDS {', '.join(MODULES)}, TLC, Integers, Sequences, FiniteSets",
             "VARIABLE tlaconf_x",
             # the record fields of the JSON cases, first met in this order (TLC orders
             # record fields by the order it first met their names)
             'Keys == <<"k1", "k2", "k3">>']
    for i, (_, expr) in enumerate(cases):
        lines.append(f'P_{i} == PrintT("tlaconf_probe {i} " \\o ToString({expr}))')
    lines += ["Init == tlaconf_x = 0", "Next == UNCHANGED tlaconf_x", "===="]
    return "\n".join(lines) + "\n"


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def answers(classpath: str, cases: list[tuple[str, str]]) -> dict[int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        return _run_probe(classpath, cases, Path(tmp))


def _run_probe(classpath: str, cases: list[tuple[str, str]], folder: Path) -> dict[int, str]:
    (folder / "TlaconfOverrides.tla").write_text(probe(cases))
    (folder / "TlaconfOverrides.cfg").write_text("INIT Init\nNEXT Next\n")
    run = subprocess.run(
        ["java", "-XX:+UseParallelGC", "-cp", classpath, "tlc2.TLC", "-workers", "1",
         "-metadir", str(folder / "states"), "TlaconfOverrides.tla"],
        cwd=folder, capture_output=True, text=True, check=False)
    output = run.stdout + run.stderr
    if "Parsing or semantic analysis failed" in output or "Model checking completed" not in output:
        raise SystemExit("TLC refused the probe:\n" + output[-2000:])
    return {int(m.group(1)): _unescape(m.group(2)) for m in _PRINTED.finditer(output)}


def file_answers(classpath: str, cases: list[tuple[str, str, str, str]]) -> dict[int, str]:
    """TLC's answers on the cases reading a file, in one run (the files beside it)."""
    with tempfile.TemporaryDirectory() as tmp:
        for _, _, name, text in cases:
            (Path(tmp) / name).write_text(text)
        return _run_probe(classpath, [(op, expr) for op, expr, _, _ in cases], Path(tmp))


def main() -> int:
    jar, community = os.environ.get("TLC_JAR"), os.environ.get("TLACONF_COMMUNITY_JAR")
    if not jar or not community:
        print("set TLC_JAR (tla2tools.jar) and TLACONF_COMMUNITY_JAR "
              "(CommunityModules-deps.jar)", file=sys.stderr)
        return 2
    cases = draw_cases()
    got = answers(f"{jar}:{community}", cases)
    files = [(op, expr.format(file=f"tlaconf_{i}.json"), f"tlaconf_{i}.json", text)
             for i, (op, expr, text) in enumerate(draw_file_cases())]
    read = file_answers(f"{jar}:{community}", files)
    data = {
        "tlc": "TLC 1.8.0 (tlaplus/tlaplus cc6b616), CommunityModules-deps.jar",
        "modules": list(MODULES),
        "cases": [{"operator": op, "expr": expr, "tlc": got.get(i)}
                  for i, (op, expr) in enumerate(cases)]
        + [{"operator": op, "expr": expr, "file": name, "text": text, "tlc": read.get(i)}
           for i, (op, expr, name, text) in enumerate(files)],
    }
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(cases)} cases, {len(got)} values, {len(cases) - len(got)} errors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
