"""Every subcommand fuzzed through the real CLI: the exit-code contract holds on any input.

Hypothesis drives each command's arguments and input files: valid inputs mutated
(truncated, bytes flipped or inserted, control characters inserted, lines duplicated or
dropped, re-encoded as Latin-1 or UTF-16, deeply nested), paths of the wrong kind (a
folder, a symbolic-link loop, a dangling link, nothing), output paths under a file,
options given twice.  Whatever the input:
exit 0 or 1 only for a verdict, exit 2 naming what is wrong, exit 3 only at a bound the
input set, never exit 4 (an internal error) and never a traceback.
``TLACONF_FUZZ_EXAMPLES`` sets the examples per command (``make test``: a few dozen;
``make fuzz``: thousands).  Every bug found this way becomes a case in ``cases/``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import uuid
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tlaconf.cli.main import build_parser, main

SPEC = Path(__file__).parent / "spec"
EXAMPLES = int(os.environ.get("TLACONF_FUZZ_EXAMPLES", "25"))
OUTCOMES: collections.Counter[tuple[str, int]] = collections.Counter()
"""(command, exit code) -> examples run, printed by the last test."""

HEADER = {"format": "tlaconf-trace", "version": 1, "module": "Tally", "revision": "1",
          "constants": {}, "meta": {}}
TRACE = "\n".join(json.dumps(x) for x in [
    HEADER, {"state": {"count": 0}},
    {"action": "Inc", "params": {"by": 1}, "outcome": "accepted", "state": {"count": 1}},
    {"action": "Inc", "params": {"by": 0}, "outcome": "rejected", "state": {"count": 1}},
    {"state": {"count": 3}},
]).encode() + b"\n"
ITF = json.dumps({"#meta": {"format": "ITF"}, "vars": ["count"], "states": [
    {"#meta": {"index": 0}, "count": 0}, {"#meta": {"index": 1}, "count": 1}]}).encode()
MODULE = (SPEC / "conformance" / "Tally.tla").read_bytes()
OPS = (SPEC / "reference-profile" / "rev1" / "TallyOps.tla").read_bytes()
CFG = (SPEC / "conformance" / "Tally.cfg").read_bytes()
PAGE = ("Prose.\n\nreference-profile · input revision 2 · CC0 1.0\n\nPlus(a, b) == a + b\n\n"
        "Definition and resolved references · Exact module download\n").encode()
VERDICTS = b'{"a.trace.jsonl": {"verdict": "conforms"}}\n'


@st.composite
def mutated(draw: st.DrawFn, valid: bytes) -> bytes:
    """``valid``, or it changed the way a damaged or hostile file is."""
    data = valid
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["truncate", "flip", "insert", "dup", "drop", "latin1",
                                   "utf16", "nest", "bom", "empty", "huge", "control"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        lines = data.split(b"\n")
        j = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "truncate":
            data = data[:i]
        elif op == "flip" and data:
            data = data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
        elif op == "insert":
            data = data[:i] + draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b"{", b"}", b"[", b"\"", b"\\", b"\n", b"\x00", b"\xff", b"#set", b"=="])
            ) + data[i:]
        elif op == "dup":
            data = b"\n".join([*lines[: j + 1], lines[j], *lines[j + 1:]])
        elif op == "drop":
            data = b"\n".join([*lines[:j], *lines[j + 1:]])
        elif op == "latin1":
            data = data.decode("utf-8", "replace").encode("latin-1", "replace") + b"\xe9"
        elif op == "utf16":
            data = data.decode("utf-8", "replace").encode("utf-16")
        elif op == "nest":
            depth = draw(st.sampled_from([50, 201, 1000, 5000]))
            data = data[:i] + b"[" * depth + b"]" * depth + data[i:]
        elif op == "bom":
            data = b"\xef\xbb\xbf" + data
        elif op == "control":  # a C0 control character (tab, LF and CR are text)
            data = data[:i] + bytes([draw(st.sampled_from([0, 1, 8, 11, 12, 27, 31]))]) + data[i:]
        elif op == "empty":
            data = b""
        elif op == "huge":
            data = data + b" " * 2_000_000
    return data


KINDS = st.sampled_from(["file"] * 6 + ["dir", "loop", "dangling", "missing", "fifo"])


def place(root: Path, name: str, data: bytes, kind: str) -> str:
    """Put ``data`` at ``root/name`` as a ``kind`` of path; the path to pass."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "file":
        path.write_bytes(data)
    elif kind == "dir":
        path.mkdir()
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "dangling":
        path.symlink_to("nowhere")
    elif kind == "fifo":
        os.mkfifo(path)
    return name


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="tlaconf-fuzz-") as tmp:
        old = Path.cwd()
        os.chdir(tmp)
        try:
            yield Path(tmp)
        finally:
            os.chdir(old)


BOUNDED: collections.Counter[str] = collections.Counter()
"""command -> examples that ended undecided at a bound the command line set (exit 3 by
the contract: the search was stopped, not an internal error)."""


HANG = 60.0
"""Seconds after which a run is taken to be blocked on a named pipe it should not read."""


def _unblock(root: Path, hung: list[str]) -> None:
    """Open every named pipe under ``root`` for writing and close it: a reader blocked on
    one gets end-of-file (and the test reports the hang instead of waiting forever)."""
    for p in root.rglob("*"):
        if p.is_fifo():
            with contextlib.suppress(OSError):
                os.close(os.open(p, os.O_WRONLY | os.O_NONBLOCK))  # fails if nobody reads
                hung.append(str(p.relative_to(root)))


def run(command: str, args: list[str], root: Path, stdin: str = "",
        bound: str | None = None) -> tuple[int, str]:
    """Run ``tlaconf args`` in ``root``; assert the exit-code contract (exit 3 only when
    the output names ``bound``, a limit given on the command line that was reached); the
    exit code and the output."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    hung: list[str] = []
    watchdog = threading.Timer(HANG, _unblock, (root, hung))
    watchdog.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        watchdog.cancel()
        sys.stdin = old_stdin
    assert not hung, f"tlaconf {args} blocked reading the named pipe(s) {hung}"
    text = out.getvalue() + err.getvalue()
    OUTCOMES[(command, int(code))] += 1
    assert "Traceback" not in text, text
    if code == 3 and bound is not None and bound in text and "internal error" not in text:
        BOUNDED[command] += 1
    else:
        assert code != 4, f"exit 4 (internal error) from input: tlaconf {args}\n{text}"
        assert code != 3, f"exit 3 (undecided) from input: tlaconf {args}\n{text}"
        assert code in (0, 1, 2), code
    if code == 2:
        assert "error" in text, f"exit 2 without saying what is wrong: {args}\n{text}"
    leftovers = [p.name for p in root.rglob("*") if p.name.endswith(".part")
                 or ".tlaconf-tmp" in p.name]
    assert leftovers == [], leftovers
    return int(code), text


FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OUT = st.sampled_from(["out.xml", "reports/x/out.xml", "note.txt/out.xml", ".",
                       "t.trace.jsonl", "./t.trace.jsonl"])
"""Where the JUnit report goes: new folders, under a file, a folder, the input itself."""


@FUZZ
@given(mutated(TRACE), KINDS, st.booleans(), OUT)
def test_replay(data: bytes, kind: str, as_json: bool, junit: str) -> None:
    with folder() as root:
        (root / "note.txt").write_text("a file")
        trace = place(root, "t.trace.jsonl", data, kind)
        run("replay", ["replay", "--spec", str(SPEC), *(["--json"] if as_json else []),
                       "--junit", junit, trace], root)
        if kind == "file":
            assert (root / trace).read_bytes() == data, "the input trace was overwritten"


@FUZZ
@given(mutated(TRACE), KINDS)
def test_coverage(data: bytes, kind: str) -> None:
    with folder() as root:
        run("coverage", ["coverage", "--spec", str(SPEC),
                         place(root, "t/a.trace.jsonl", data, kind)], root)


@FUZZ
@given(mutated(TRACE), mutated(VERDICTS), KINDS, st.sampled_from([[], ["--update"],
                                                                  ["--json"], ["--assemble"]]))
def test_gate(data: bytes, verdicts: bytes, kind: str, extra: list[str]) -> None:
    with folder() as root:
        place(root, "g/a.trace.jsonl", data, kind)
        place(root, "g/verdicts.json", verdicts, "file")
        spec = [] if extra == ["--assemble"] else ["--spec", str(SPEC)]
        run("gate", ["gate", *spec, "--traces", "g", *extra], root)


SCENARIOS = """from pathlib import Path

def generate_all(out, seed):
    (out / "t.trace.jsonl").write_bytes(Path({data!r}).read_bytes())
    return [out / "t.trace.jsonl"]
"""


PYPROJECT = b'[tool.tlaconf]\nscenarios = "NAME"\nspec = "SPEC"\n'


@FUZZ
@given(mutated(TRACE), st.text(max_size=12), st.booleans(), st.none() | mutated(PYPROJECT))
def test_check(data: bytes, seeds: str, real: bool, project: bytes | None) -> None:
    """``project``: the scenarios and spec named by a (damaged) pyproject.toml instead."""
    with folder() as root:
        (root / "data").write_bytes(data)
        name = f"fuzz_scenarios_{uuid.uuid4().hex}"
        (root / f"{name}.py").write_text(SCENARIOS.format(data=str(root / "data")))
        chosen = ["--spec", str(SPEC), "--scenarios", name if real else (seeds or "nothing")]
        if project is not None:
            (root / "pyproject.toml").write_bytes(
                project.replace(b"NAME", name.encode()).replace(b"SPEC", str(SPEC).encode()))
            chosen = []
        sys.path.insert(0, str(root))
        try:
            run("check", ["check", "--out", "out", "--seeds", seeds if not real else "1..2",
                          "--no-coverage", *chosen], root)
        finally:
            sys.path.remove(str(root))
            sys.modules.pop(name, None)


EXPR = st.lists(st.sampled_from(["1", "+", "-", "{", "}", "<<", ">>", "..", "\\in", "x",
                                 "\\E", ":", "(", ")", "[", "]", "|->", "TRUE", "=", ",",
                                 '"a"', "CHOOSE", "Plus", "Len", "SUBSET", "99999999999999",
                                 "\\X", "DOMAIN", "'", "@@", ":>"]), max_size=12).map(" ".join)


@FUZZ
@given(EXPR | st.text(max_size=30), st.lists(EXPR | st.text(max_size=10), max_size=5),
       st.booleans())
def test_eval(expr: str, lines: list[str], with_module: bool) -> None:
    with folder() as root:
        module = ["-m", "TallyOps", "--spec", str(SPEC)] if with_module else []
        run("eval", ["eval", *module, expr or "1"], root)
        run("eval", ["eval", "--json", *module, "-"], root, "\n".join(lines))


@FUZZ
@given(mutated(MODULE), KINDS, st.booleans())
def test_parse(data: bytes, kind: str, no_resolve: bool) -> None:
    with folder() as root:
        place(root, "TallyOps.tla", OPS, "file")
        run("parse", ["parse", *(["--no-resolve"] if no_resolve else []),
                      place(root, "Tally.tla", data, kind)], root)


@FUZZ
@given(mutated(PAGE), KINDS)
def test_fragments(data: bytes, kind: str) -> None:
    with folder() as root:
        run("fragments", ["fragments", place(root, "page.txt", data, kind), "-o", "out"], root)


@FUZZ
@given(mutated(PAGE), KINDS)
def test_revise(data: bytes, kind: str) -> None:
    with folder() as root:
        run("revise", ["revise", place(root, "page.txt", data, kind), "--from", "1",
                       "--spec", str(SPEC), "--dry-run"], root)


@FUZZ
@given(mutated(TRACE) | mutated(ITF), KINDS, st.sampled_from(["out.itf.json",
                                                              "out.trace.jsonl", "x/y.json"]))
def test_convert(data: bytes, kind: str, out: str) -> None:
    with folder() as root:
        extra = [] if out.endswith(".itf.json") else ["--module", "Tally", "--revision", "1"]
        args = ["convert", place(root, "in.json", data, kind), out]
        run("convert", [*args, *(extra if not data.startswith(b'{"format"') else [])], root)


@FUZZ
@given(mutated(TRACE), KINDS)
def test_export(data: bytes, kind: str) -> None:
    with folder() as root:
        run("export", ["export", "--spec", str(SPEC), place(root, "t.trace.jsonl", data, kind),
                       "-o", "out/T.tla"], root)


@FUZZ
@given(mutated(MODULE), mutated(CFG), mutated(OPS), KINDS, st.booleans(),
       st.sampled_from(["Tally.tla", "Tally.cfg", "TallyOps.tla"]))
def test_diff_spec(module: bytes, cfg: bytes, ops: bytes, kind: str, power: bool,
                   odd: str) -> None:
    """A copy of the spec with its module, .cfg and profile module damaged (one of them of
    the wrong kind), against the spec; with the golden-trace replay (power) or not."""
    with folder() as root:
        shutil.copytree(SPEC, root / "new")
        (root / "g").mkdir()
        (root / "g" / "a.trace.jsonl").write_bytes(TRACE)
        for name, data in (("conformance/Tally.tla", module), ("conformance/Tally.cfg", cfg),
                           ("reference-profile/rev1/TallyOps.tla", ops)):
            (root / "new" / name).unlink()
            place(root, f"new/{name}", data, kind if name.endswith(odd) else "file")
        run("diff-spec", ["diff-spec", *([] if power else ["--no-power"]), "--traces", "g",
                          str(SPEC), "new"], root)


@FUZZ
@given(st.text(max_size=15))
def test_init(name: str) -> None:
    with folder() as root:
        run("init", ["init", name or "x"], root)


CLOCK = b"""---- MODULE Clock ----
EXTENDS Naturals
CONSTANT N
VARIABLE h
Init == h \\in 1..N
Next == h' = IF h = N THEN 1 ELSE h + 1
Small == h <= N
Tiny == h < 3
====
"""
CLOCK_CFG = b"CONSTANT N = 4\nINIT Init\nNEXT Next\nINVARIANT Small\n"
FILE = st.sampled_from(["file"] * 4) | KINDS
"""Mostly a file (when another path of the command is fuzzed for its kind)."""


@FUZZ
@given(mutated(CLOCK), mutated(CLOCK_CFG) | mutated(CLOCK_CFG.replace(b"Small", b"Tiny")),
       st.booleans(), FILE, st.sampled_from([[], [], ["--walks", "2"], ["--json"],
                                             ["--trace", "."], ["--trace", "note.txt/v.jsonl"]]))
def test_explore(module: bytes, cfg: bytes, damage_module: bool, kind: str,
                 extra: list[str]) -> None:
    with folder() as root:
        (root / "note.txt").write_text("a file")
        tla = place(root, "Clock.tla", module if damage_module else CLOCK,
                    kind if damage_module else "file")
        place(root, "Clock.cfg", CLOCK_CFG if damage_module else cfg,
              "file" if damage_module else kind)
        run("explore", ["explore", "--eval-budget", "5", tla, "--depth", "4",
                        "--trace", "out/v.jsonl", *extra], root)


VALIDATION = Path(__file__).parents[1] / "validate" / "data"
LIBRARY = Path(__file__).parents[1] / "library" / "data" / "lib"
LOG = (VALIDATION / "good.ndjson").read_bytes()
TRACE_SPEC = (VALIDATION / "CounterTrace.tla").read_bytes()
TRACE_CFG = (VALIDATION / "CounterTrace.cfg").read_bytes()
PARTIAL = "\n".join(json.dumps(x) for x in [
    {"format": "tlaconf-trace", "version": 1, "module": "Tally", "revision": "1",
     "partial": True}, {"state": {}},
    {"action": "Add", "params": {"who": "a", "n": 2}, "state": {"count": {"#partial": {"a": 2}}}},
    {"action": "Add", "params": {"who": "b", "n": 1}, "state": {}},
    {"state": {"count": {"a": 2, "b": 1}}}]).encode() + b"\n"


@FUZZ
@given(mutated(LOG), mutated(TRACE_SPEC), mutated(TRACE_CFG), FILE,
       st.sampled_from(["log", "log", "log", "spec", "cfg"]), st.booleans(), st.booleans())
def test_validate(log: bytes, spec: bytes, cfg: bytes, kind: str, damaged: str,
                  as_json: bool, constrained: bool) -> None:
    with folder() as root:
        (root / "Counter.tla").write_bytes((VALIDATION / "Counter.tla").read_bytes())
        place(root, "log.ndjson", log if damaged == "log" else LOG, kind)
        (root / "CounterTrace.tla").write_bytes(spec if damaged == "spec" else TRACE_SPEC)
        # A damaged .cfg may have lost the constraint that ties each step to the log: the
        # trace spec's state space is then infinite, and --max-states ends the search
        # undecided (exit 3 naming the bound).
        kept = cfg + b"\nACTION_CONSTRAINT TraceNextConstraint\n" if constrained else cfg
        (root / "CounterTrace.cfg").write_bytes(kept if damaged == "cfg" else TRACE_CFG)
        run("validate", ["validate", "--library", str(LIBRARY), "--env", "JSON=log.ndjson",
                         "--max-states", "2000", "--max-seconds", "20",
                         *(["--json"] if as_json else []), "CounterTrace.tla"], root,
            bound="(--max-")


@FUZZ
@given(mutated(PARTIAL), FILE, st.sampled_from([[], ["--strict"], ["--max-candidates", "1000"],
                                                 ["--env", "JSON=x"], ["--revision", "9"]]))
def test_validate_partial(data: bytes, kind: str, extra: list[str]) -> None:
    with folder() as root:
        trace = place(root, "p.trace.jsonl", data, kind)
        run("validate", ["validate", "--spec", str(VALIDATION / "pspec"), trace, *extra], root)


BANK = Path(__file__).parents[1] / "mbt" / "bank"
WORDS = st.sampled_from(["Bank", "Other", "Bank.tla", "nope.tla", "", "-x", "a b", "1x"])
DRIVERS = st.sampled_from(["tests.mbt.bank.bank:correct", "tests.mbt.bank.bank:capped_at_2"]
                          * 3 + ["tests.mbt.bank.bank:nothing", "nosuchmodule:x", "bank", ":"])


@settings(FUZZ, suppress_health_check=[*FUZZ.suppress_health_check,
                                      HealthCheck.nested_given])  # mbt runs Hypothesis itself
@given(mutated((BANK / "Bank.tla").read_bytes()), FILE, st.lists(WORDS, max_size=2), DRIVERS,
       st.sampled_from(["1", "2"] * 3 + ["0", "-3", "x", "1e3"]),
       st.sampled_from(["out"] * 5 + ["note.txt", "note.txt/deeper", ""]))
def test_mbt(module: bytes, kind: str, modules: list[str], driver: str, count: str,
             out: str) -> None:
    with folder() as root:
        (root / "note.txt").write_text("a file")
        place(root, "Bank.tla", module, kind)
        (root / "Bank.cfg").write_bytes((BANK / "Bank.cfg").read_bytes())
        run("mbt", ["mbt", *modules, "--driver", driver, "--steps", "3", "--examples", count,
                    "--out", out, "--no-database", "--no-shrink", "--seed", "1",
                    *([] if modules else ["--spec", "."])], root)


FAKE_TLC = """#!/bin/sh
# java as far as tlaconf's TLC backend asks it: -version, or TLC's -tool answer "no error";
# it refuses what Java refuses (an unknown -XX option, -Xmx0, a word before the class that
# is no option).
value=
for word in $JDK_JAVA_OPTIONS $JAVA_TOOL_OPTIONS "$@"; do
  if [ -n "$value" ]; then value=; continue; fi
  case "$word" in
    -version|tlc2.TLC) break ;;
    -cp) value=1 ;;
    -XXbogus|-Xmx0|[!-]*) echo "Unrecognized option: $word" >&2
      echo "Error: Could not create the Java Virtual Machine." >&2; exit 1 ;;
  esac
done
case " $* " in
  *" -version "*) echo 'openjdk version "17.0.15"' >&2 ;;
  *) printf '@!@!@STARTMSG 2193:0 @!@!@\\nModel checking completed. No error has been found.\\n'
     printf '@!@!@ENDMSG 2193 @!@!@\\n' ;;
esac
"""
SETTINGS = ["TLACONF_EVAL_BUDGET", "TLC_TIMEOUT", "TLACONF_TLC_CHUNK", "TLC_JAVA_OPTS",
            "JDK_JAVA_OPTIONS", "TLC_JAR", "COLUMNS", "TLACONF_LIBRARY", "NO_COLOR"]
"""The environment variables tlaconf reads (for a replay through the TLC backend)."""
SETTING_VALUES = st.sampled_from(["", "0", "-1", "1", "2.5", "nan", "inf", "1e999", "1e-300",
                                  "\u00b2", "-Xmx0", "-XXbogus", "Xmx4g", "-version", "-Xmx2g",
                                  "/nonexistent", ".", "a:b", "::", "x" * 300]) | st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


@contextlib.contextmanager
def environment(settings: dict[str, str]) -> Iterator[None]:
    old = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@FUZZ
@given(st.sampled_from(SETTINGS), SETTING_VALUES)
def test_environment(name: str, value: str) -> None:
    """A replay through the TLC backend (a java and a jar that stand in for TLC) under one
    environment variable of any value: it runs (the trace conforms), or exit 2 names the
    variable; exit 3 only when TLC_TIMEOUT ran out."""
    with folder() as root:
        with zipfile.ZipFile(root / "tla2tools.jar", "w") as z:
            z.writestr("tlc2/TLC.class", b"")
        (root / "bin").mkdir()
        (root / "bin" / "java").write_text(FAKE_TLC)
        (root / "bin" / "java").chmod(0o755)
        (root / "t.trace.jsonl").write_bytes(TRACE)
        settings = {"TLC_JAR": str(root / "tla2tools.jar"), "JAVA_HOME": str(root), name: value}
        with environment(settings):
            code, text = run("environment", ["replay", "--backend", "tlc", "--spec", str(SPEC),
                                             "t.trace.jsonl"], root, bound="TLC_TIMEOUT")
        assert code in (0, 2, 3), text
        if code == 2:
            assert name in text, f"{name}={value!r}: exit 2 without naming it\n{text}"


def _valued_options() -> list[tuple[str, argparse.Action]]:
    """(command, option) for every option of every subcommand that takes a value."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(name, a) for name, p in sub.choices.items() for a in p._actions
            if a.option_strings and a.nargs != 0]


VALUES = ["1", "2", "1..2", "tlc", "enumeration", "JSON=x", "N=1", "a=b", "Mod:attr", "tcp://127.0.0.1:9",
          "note.txt", "out.xml", ".", str(SPEC)]
"""Values to give an option: for each option, the first one its type takes."""


def _value(action: argparse.Action) -> str | None:
    for v in VALUES:
        try:
            converted = action.type(v) if callable(action.type) else v
        except (argparse.ArgumentTypeError, TypeError, ValueError):
            continue
        if action.choices is None or converted in action.choices:
            return v
    return None


def _spelled(option: str, value: str, joined: bool) -> list[str]:
    return [f"{option}={value}"] if joined and option.startswith("--") else [option, value]


def test_every_valued_option_has_a_value_to_fuzz() -> None:
    """So the fuzzer below gives every option a value its type takes (a new option whose
    type takes none of VALUES fails here, not silently)."""
    with folder() as root:
        (root / "note.txt").write_text("a file")
        assert [(c, a.dest) for c, a in _valued_options() if _value(a) is None] == []


@FUZZ
@given(st.sampled_from(_valued_options()), st.data(), st.booleans(), st.booleans())
def test_repeated_options(chosen: tuple[str, argparse.Action], data: st.DataObject,
                          joined: bool, global_first: bool) -> None:
    """An option of one value given twice (any spelling: short or long, ``=``, also once
    before the command and once after it) is refused naming it; an option meant to repeat
    (``append``) is not.  A stray option at the end stops every run before any work."""
    command, action = chosen
    with folder() as root:
        (root / "note.txt").write_text("a file")
        value = _value(action)
        assert value is not None
        first, second = (data.draw(st.sampled_from(action.option_strings)) for _ in "12")
        before = (_spelled(first, value, joined)
                  if global_first and action.dest == "eval_budget" else [])
        args = [*before, command, *([] if before else _spelled(first, value, joined)),
                *_spelled(second, value, not joined), "--no-such-option"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
        text = out.getvalue() + err.getvalue()
        OUTCOMES[("repeated options", int(code))] += 1
        assert code == 2, (args, text)
        if isinstance(action, argparse._AppendAction):
            assert "given twice" not in text, (args, text)
        else:
            assert f"argument {'/'.join(action.option_strings)}: given twice" in text, (
                args, text)


def test_every_command_is_fuzzed() -> None:
    """Each subcommand the CLI parser lists has a fuzzer here (``test_<name>``); a new
    subcommand without one fails this test."""
    parser = build_parser(())
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert len(sub.choices) >= 15
    assert _unfuzzed(sub.choices) == [], "subcommands without a Hypothesis fuzzer"
    assert _unfuzzed([*sub.choices, "new-command"]) == ["new-command"]


def _unfuzzed(commands: Iterable[str]) -> list[str]:
    fuzzers = {name for name, f in globals().items() if name.startswith("test_")
               and hasattr(f, "hypothesis")}
    return [c for c in commands if f"test_{c.replace('-', '_')}" not in fuzzers]


def test_outcomes_so_far(capsys: pytest.CaptureFixture[str]) -> None:
    """The figures: examples per command and exit code (run after the fuzz tests); exit 3
    appears only as a bound the command line set (``bounded``), never otherwise."""
    with capsys.disabled():
        for c in sorted({c for c, _ in OUTCOMES}):
            codes = {code: n for (cmd, code), n in OUTCOMES.items() if cmd == c}
            total = sum(codes.values())
            print(f"\nfuzz {c}: {total} examples, exits {dict(sorted(codes.items()))}"
                  + (f" (exit 3 at a bound set by the input: {BOUNDED[c]})" if BOUNDED[c] else ""),
                  end="")
        print()
    assert not any(code == 3 and BOUNDED[c] < n for (c, code), n in OUTCOMES.items())
