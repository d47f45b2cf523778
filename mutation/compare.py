"""``python -m mutation.compare --check REPORT... [--mbt REPORT...] [--directed REPORT...]
[--exhaustive REPORT...]``: one table of the same mutants run through the scenarios
(``--oracle check``) and through spec-driven testing in its modes (``--oracle mbt``:
random requests; ``directed``; ``exhaustive``).  A mutant is killed by MBT when any
mode given killed it; with more than one mode, a column per mode too.

Each REPORT is a ``report.json`` of ``python -m mutation``; the reports of one oracle are
joined (several samples), and only the mutants every oracle ran are compared.  Prints a
Markdown table (killed by both, by the scenarios only, by MBT only, by neither; per file
and in all) and then every mutant not killed by both, with why it survived.  A mutant
the scenarios count as equivalent (no trace can observe it) is listed apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

COLUMNS = ("both", "scenarios only", "MBT only", "neither")


def _load(paths: list[Path]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in paths:
        for m in json.loads(path.read_text(encoding="utf-8"))["mutants"]:
            out[m["mutant"]] = m
    return out


def cell(check: dict[str, Any], modes: list[dict[str, Any]]) -> str:
    """Which column a mutant falls in (``modes``: its outcome in each MBT mode compared;
    killed by MBT when any of them killed it)."""
    by_check = check["status"] == "killed"
    by_mbt = any(m["status"] == "killed" for m in modes)
    if by_check and by_mbt:
        return "both"
    if by_check:
        return "scenarios only"
    return "MBT only" if by_mbt else "neither"


def table(check: dict[str, dict[str, Any]], mbt: dict[str, dict[str, dict[str, Any]]]) -> str:
    """``mbt``: per MBT mode (random, directed, exhaustive; those given), its mutants."""
    common = sorted(check.keys() & set.intersection(*(set(r) for r in mbt.values())))
    names = list(mbt)
    per_mode = len(names) > 1
    rows: dict[str, Counter[str]] = {}
    equivalent = [m for m in common if check[m]["status"] == "equivalent"]
    for m in common:
        if m in equivalent:
            continue
        folder = m.split(":", 1)[0]
        c = rows.setdefault(folder, Counter())
        c[cell(check[m], [mbt[n][m] for n in names])] += 1
        for n in names:
            c["mode " + n] += mbt[n][m]["status"] == "killed"
    total: Counter[str] = sum(rows.values(), Counter())
    extra = [f"killed by {n}" for n in names] if per_mode else []
    lines = ["| file | mutants | killed by MBT | " + "".join(f"{e} | " for e in extra)
             + "killed by the scenarios | " + " | ".join(COLUMNS) + " |",
             "|---" * (4 + len(extra) + len(COLUMNS)) + "|"]

    def row(name: str, c: Counter[str]) -> str:
        n = sum(c[k] for k in COLUMNS)
        by_mbt, by_check = c["both"] + c["MBT only"], c["both"] + c["scenarios only"]
        modes = "".join(f"{c['mode ' + m]} | " for m in names) if per_mode else ""
        return (f"| {name} | {n} | {by_mbt} | {modes}{by_check} | "
                + " | ".join(str(c[k]) for k in COLUMNS) + " |")

    lines += [row(f"`{name}`", rows[name]) for name in sorted(rows)]
    lines.append(row("**all**", total))
    lines.append("")
    for m in common:
        where = "equivalent" if m in equivalent else cell(check[m], [mbt[n][m] for n in names])
        if where == "both" and all(mbt[n][m]["status"] == "killed" for n in names):
            continue
        whys = "; ".join(f"{n}: {mbt[n][m]['why']}" for n in names)
        lines.append(f"- `{m}` ({where}): scenarios: {check[m]['why']}; {whys}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m mutation.compare", description=__doc__)
    p.add_argument("--check", type=Path, action="append", required=True, metavar="REPORT",
                   help="a report.json of --oracle check (repeatable)")
    p.add_argument("--mbt", type=Path, action="append", metavar="REPORT",
                   help="a report.json of --oracle mbt: random requests (repeatable)")
    p.add_argument("--directed", type=Path, action="append", metavar="REPORT",
                   help="a report.json of --oracle directed (repeatable)")
    p.add_argument("--exhaustive", type=Path, action="append", metavar="REPORT",
                   help="a report.json of --oracle exhaustive (repeatable)")
    args = p.parse_args(argv)
    given = {n: getattr(args, k) for n, k in (("random", "mbt"), ("directed", "directed"),
                                              ("exhaustive", "exhaustive"))
             if getattr(args, k)}
    if not given:
        p.error("give at least one of --mbt, --directed, --exhaustive")
    try:
        check = _load(args.check)
        mbt = {n: _load(paths) for n, paths in given.items()}
    except (OSError, ValueError, KeyError) as err:
        print(f"python -m mutation.compare: cannot read a report: {err}", file=sys.stderr)
        return 2
    print(table(check, mbt))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
