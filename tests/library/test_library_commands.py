"""The library path on every command that loads modules: ``--library PATH`` (repeatable) and
``TLACONF_LIBRARY``, the same on replay (``-j`` workers too), gate, check, eval, explore,
validate and parse.

A small library module (``Doubling``, written by the test) is EXTENDed by a conformance
module; with ``TLACONF_COMMUNITY_MODULES`` (a tlaplus/CommunityModules checkout) a module
using the real ``SequencesExt`` and ``Functions`` is replayed too.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from tlaconf.cli.main import LOADING, build_parser, main
from tlaconf.trace.writer import TraceWriter

COMMUNITY = os.environ.get("TLACONF_COMMUNITY_MODULES")

DOUBLING = """---- MODULE Doubling ----
EXTENDS Naturals
Twice(n) == 2 * n
====
"""
DOUBLER = """---- MODULE Doubler ----
EXTENDS Naturals, Doubling
VARIABLE x
Init == x = 1
Double(p) == x' = Twice(x)
Next == x < 8 /\\ Double([none |-> 0])
Positive == x > 0
====
"""
SCENARIOS = """from tlaconf.trace.writer import TraceWriter

def generate(out_dir, seed):
    path = out_dir / "doubled.trace.jsonl"
    with TraceWriter(path, "Doubler", "1", {}, {}) as w:
        w.init({"x": 1})
        w.step("Double", {}, "accepted", {"x": 2})
    return [path]
"""


def write_trace(path: Path, values: list[int]) -> Path:
    with TraceWriter(path, "Doubler", "1", {}, {}) as w:
        w.init({"x": values[0]})
        for v in values[1:]:
            w.step("Double", {}, "accepted", {"x": v})
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """lib/Doubling.tla, spec/conformance/Doubler.tla (+ .cfg), traces/good and bad ones."""
    monkeypatch.delenv("TLACONF_LIBRARY", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "Doubling.tla").write_text(DOUBLING)
    conformance = tmp_path / "spec" / "conformance"
    conformance.mkdir(parents=True)
    (conformance / "Doubler.tla").write_text(DOUBLER)
    (conformance / "Doubler.cfg").write_text("INVARIANT Positive\n")
    (tmp_path / "Doubler.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Positive\n"
                                         "CHECK_DEADLOCK FALSE\n")
    (tmp_path / "Doubler.tla").write_text(DOUBLER)
    traces = tmp_path / "traces"
    traces.mkdir()
    write_trace(traces / "good.trace.jsonl", [1, 2, 4])
    write_trace(tmp_path / "bad.trace.jsonl", [1, 2, 5])
    (tmp_path / "libscen.py").write_text(SCENARIOS)
    return tmp_path


def test_every_loading_command_has_the_one_option() -> None:
    for name in sorted(LOADING):
        sub = build_parser((name,))._subparsers._group_actions[0].choices[name]  # type: ignore[union-attr]
        options = {o for a in sub._actions for o in a.option_strings}
        assert "--library" in options, name


def test_replay(project: Path, capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> None:
    good = project / "traces" / "good.trace.jsonl"
    assert main(["replay", "--spec", "spec", "--json", str(good)]) == 2
    assert "module Doubling not found" in capsys.readouterr().out
    assert main(["replay", "--spec", "spec", "--library", "lib", str(good)]) == 0
    capsys.readouterr()
    assert main(["replay", "--spec", "spec", "--library", "lib", "--json",
                 str(project / "bad.trace.jsonl")]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["traces"][0]["verdict"] == "violation"
    assert "TLACONF_LIBRARY" not in os.environ  # the command's --library does not outlive it
    monkeypatch.setenv("TLACONF_LIBRARY", str(project / "lib"))
    assert main(["replay", "--spec", "spec", str(good)]) == 0


def test_a_bad_entry_is_bad_input(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = project / "traces" / "good.trace.jsonl"
    assert main(["replay", "--spec", "spec", "--library", "nowhere", str(good)]) == 2
    assert "--library nowhere: no such folder or jar" in capsys.readouterr().err


def test_replay_on_two_processes_the_gate_and_check(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-j 2`` workers, the gate and check see the command's --library."""
    write_trace(project / "traces" / "good2.trace.jsonl", [2, 4, 8])
    monkeypatch.syspath_prepend(str(project))
    assert main(["replay", "--spec", "spec", "-j", "2", "--library", "lib", "--json",
                 "traces"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [t["verdict"] for t in report["traces"]] == ["conforms"] * 2
    assert main(["gate", "--spec", "spec", "--traces", "traces", "--library", "lib",
                 "--update"]) == 0
    verdicts = json.loads((project / "traces" / "verdicts.json").read_text())
    assert {v["verdict"] for v in verdicts.values()} == {"conforms"}
    assert main(["gate", "--spec", "spec", "--traces", "traces"]) == 1  # now differs: error
    check = ["check", "--spec", "spec", "--scenarios", "libscen:generate", "--no-coverage",
             "--seed", "1"]
    assert main([*check, "--library", "lib"]) == 0
    capsys.readouterr()
    assert main(check) == 2
    assert "module Doubling not found" in capsys.readouterr().out


def test_eval_explore_parse(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "Four.tla").write_text("---- MODULE Four ----\nEXTENDS Doubling\n"
                                      "Four == Twice(2)\n====\n")
    assert main(["eval", "-m", "Four.tla", "Four"]) == 2
    capsys.readouterr()
    assert main(["eval", "--library", "lib", "-m", "Four.tla", "Four"]) == 0
    assert capsys.readouterr().out.strip() == "4"
    assert main(["explore", "Doubler.tla"]) == 2
    capsys.readouterr()
    assert main(["explore", "--library", "lib", "--json", "Doubler.tla"]) == 0
    assert json.loads(capsys.readouterr().out)["distinct_states"] == 4
    assert main(["parse", "--library", "lib", "Four.tla"]) == 0


@pytest.mark.skipif(not COMMUNITY, reason="set TLACONF_COMMUNITY_MODULES to a "
                    "tlaplus/CommunityModules checkout to replay with its real modules")
def test_replay_with_the_community_modules(project: Path) -> None:
    conformance = project / "spec" / "conformance"
    (conformance / "Doubler.tla").write_text(DOUBLER.replace(
        "EXTENDS Naturals, Doubling", "EXTENDS Naturals, SequencesExt, Functions\n"
        "Plus(a, b) == a + b\nTwice(n) == FoldSeq(Plus, 0, <<n, n>>)").replace(
        "Positive == x > 0", "Positive == x > 0 /\\ IsPrefix(<<x>>, <<x, x>>) /\\ "
        "Range([i \\in 1..2 |-> x]) = {x}"))
    modules = Path(str(COMMUNITY)) / "modules"
    good = project / "traces" / "good.trace.jsonl"
    assert main(["replay", "--spec", "spec", str(good)]) == 2
    assert main(["replay", "--spec", "spec", "--library", str(modules), str(good)]) == 0
    assert main(["replay", "--spec", "spec", "--library", str(modules),
                 str(project / "bad.trace.jsonl")]) == 1


@pytest.mark.skipif(not os.environ.get("TLC_JAR"), reason="set TLC_JAR=/path/to/tla2tools.jar "
                    "to replay through TLC with a library jar")
def test_tlc_finds_modules_in_a_library_jar(project: Path) -> None:
    """A jar goes on TLC's class path (a folder still goes in -DTLA-Library)."""
    jar = project / "doubling.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.write(project / "lib" / "Doubling.tla", "Doubling.tla")
    good, bad = project / "traces" / "good.trace.jsonl", project / "bad.trace.jsonl"
    assert main(["replay", "--spec", "spec", "--backend", "tlc", "--library", str(jar),
                 str(good)]) == 0
    assert main(["replay", "--spec", "spec", "--backend", "tlc", "--library", str(jar),
                 str(bad)]) == 1
