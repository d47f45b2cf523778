"""Regenerate ``operators.json``: real SANY's verdict and tree on every pair of operators.

For every ordered pair of TLA+ operators (infix, prefix, postfix), chained (the same
operator twice) and mixed, with and without parentheses, one probe module is parsed by
SANY (``SanyProbe.java``, in one JVM) and its accept/reject and tree shape recorded.
``test_sany_operators.py`` checks tlaconf's parser against the file without Java.

    TLC_JAR=/path/to/tla2tools.jar python -m tests.tla.sany.generate_operators
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tlaconf.tla.precedence import CANONICAL_OPERATORS, INFIX, NFIX, PREFIX

HERE = Path(__file__).parent
DATA = HERE / "operators.json"

_BUILTIN = {
    "=", "/=", "\\in", "\\notin", "\\subseteq", "\\union", "\\intersect", "\\", "=>",
    "\\equiv", "\\land", "\\lor", "~>", "-+->", "\\times", "\\cdot",
}  # fmt: skip
"""Infix operators SANY predefines (the others are defined in each probe module)."""

INFIX_OPS = [o.name for o in CANONICAL_OPERATORS if o.fix in (INFIX, NFIX) and o.name != "."]
PREFIX_OPS = ["-" if o.name == "-." else o.name for o in CANONICAL_OPERATORS if o.fix == PREFIX]
POSTFIX_OPS = ["'", "^+", "^*", "^#", "[a]", ".f"]


def _pre(p: str, x: str) -> str:
    return f"{p} {x}"


def _post(x: str, s: str) -> str:
    return f"{x}{s}"


def probes() -> list[str]:
    """Every probe expression (operands ``a``, ``b``, ``c``)."""
    out: list[str] = []
    for i in INFIX_OPS:
        for j in INFIX_OPS:
            out += [f"a {i} b {j} c", f"(a {i} b) {j} c", f"a {i} (b {j} c)"]
        for p in PREFIX_OPS:
            out += [f"{_pre(p, 'a')} {i} b", f"a {i} {_pre(p, 'b')}",
                    f"({_pre(p, 'a')}) {i} b", f"{_pre(p, f'(a {i} b)')}",
                    f"a {i} ({_pre(p, 'b')})"]  # fmt: skip
        for s in POSTFIX_OPS:
            out += [f"a {i} {_post('b', s)}", f"{_post('a', s)} {i} b", _post(f"(a {i} b)", s)]
    for p in PREFIX_OPS:
        for q in PREFIX_OPS:
            out.append(_pre(p, _pre(q, "a")))
        for s in POSTFIX_OPS:
            out += [_pre(p, _post("a", s)), _post(f"({_pre(p, 'a')})", s),
                    _pre(p, f"({_post('a', s)})")]  # fmt: skip
    for s in POSTFIX_OPS:
        for t in POSTFIX_OPS:
            out.append(_post(_post("a", s), t))
    return out


def _definitions() -> str:
    lines = [f"x {o} y == 0" for o in INFIX_OPS if o not in _BUILTIN]
    lines += ["-. x == 0", "x^+ == 0", "x^* == 0", "x^# == 0"]
    return "\n".join(lines)


def main() -> int:
    jar = os.environ.get("TLC_JAR")
    if not jar:
        print("set TLC_JAR=/path/to/tla2tools.jar", file=sys.stderr)
        return 2
    exprs = probes()
    defs = _definitions()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["javac", "-cp", jar, "-d", tmp, str(HERE / "SanyProbe.java")], check=True)
        files = []
        for n, e in enumerate(exprs):
            path = Path(tmp, f"P{n}.tla")
            head = f"---- MODULE P{n} ----\nCONSTANTS a, b, c, f\n"
            path.write_text(f"{head}{defs}\nE == {e}\n====\n")
            files.append(str(path))
        results: dict[str, list[str]] = {}
        for k in range(0, len(files), 2000):
            run = subprocess.run(["java", "-cp", f"{jar}{os.pathsep}{tmp}", "SanyProbe",
                                  *files[k : k + 2000]], capture_output=True, text=True, check=True,
                                 cwd=tmp)  # fmt: skip
            for line in run.stdout.splitlines():
                name, *rest = line.split("\t")
                results[name] = rest
    table = {e: results[f"P{n}"] for n, e in enumerate(exprs)}
    DATA.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    accepted = sum(1 for v in table.values() if v[0] == "accept")
    print(f"{len(table)} probes, {accepted} accepted by SANY -> {DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
