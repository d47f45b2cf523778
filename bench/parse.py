"""Parse throughput (lines/s) on the spec/ modules and on a generated 10,000-line module."""

from __future__ import annotations

import time
from pathlib import Path

from tlaconf.tla.parser import _parser, parse_modules
from tlaconf.tla.resolve import resolve

ROOT = Path(__file__).resolve().parents[1]

_BLOCK = r"""Op{i}(a, b) ==
    /\ a \in 1..N /\ b \in SUBSET S
    /\ \A x \in b : \E y \in S : x # y => f[x] < g[y] + {i}
    /\ \/ state' = [state EXCEPT ![a].val = @ + 1, ![a].log = Append(@, b)]
       \/ UNCHANGED <<state, log>>
    /\ LET r == [id |-> a, size |-> Cardinality(b), tag |-> "op{i}"]
       IN  CASE r.size = 0 -> TRUE
             [] r.size > 3 -> r.id \in DOMAIN state
             [] OTHER      -> IF a > b THEN FALSE ELSE TRUE
    /\ {{x * 2 : x \in b}} \subseteq {{y \in S : y > 0}}
"""


def generated_module(lines: int = 10_000) -> str:
    """A module of ``lines`` lines made of realistic definitions."""
    head = [
        "---- MODULE Generated ----",
        "EXTENDS Naturals, Sequences, FiniteSets",
        "CONSTANTS N, S",
        "VARIABLES state, log",
        "f[x \\in S] == x",
        "g[x \\in S] == x",
    ]
    body: list[str] = []
    i = 0
    while len(head) + len(body) < lines - 1:
        body.extend(_BLOCK.format(i=i).splitlines())
        i += 1
    return "\n".join([*head, *body[: lines - 1 - len(head)], "===="]) + "\n"


def _measure(name: str, texts: list[tuple[str, str]], with_resolve: bool) -> None:
    lines = sum(t.count("\n") + 1 for _, t in texts)
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        cpu, wall = time.process_time(), time.perf_counter()
        for file, text in texts:
            modules = parse_modules(text, file)
            if with_resolve:
                resolve(modules[0], [Path(file).parent], file=file, text=text, siblings=modules[1:])
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    what = "parse+resolve" if with_resolve else "parse"
    print(
        f"{name}: {lines} lines, {what}: {lines / best_cpu:,.0f} lines/s CPU "
        f"({best_cpu:.3f} s), {lines / best_wall:,.0f} lines/s wall ({best_wall:.3f} s)"
    )


def main() -> None:
    start = time.perf_counter()
    _parser()
    print(f"parser construction: {time.perf_counter() - start:.3f} s (once per process)")
    specs = sorted((ROOT / "spec").rglob("*.tla")) if (ROOT / "spec").is_dir() else []
    if specs:
        texts = [(str(p), p.read_text(encoding="utf-8")) for p in specs]
        _measure(f"spec/ ({len(specs)} modules)", texts, with_resolve=False)
    else:
        print("spec/: no modules yet")
    gen = [("Generated.tla", generated_module())]
    _measure("generated module", gen, with_resolve=False)
    _measure("generated module", gen, with_resolve=True)


if __name__ == "__main__":
    main()
