"""``python -m mutation.compare --check REPORT... --mbt REPORT...``: one table of the same
mutants run through the scenarios (``--oracle check``) and through MBT (``--oracle mbt``).

Each REPORT is a ``report.json`` of ``python -m mutation``; the reports of one oracle are
joined (several samples), and only the mutants both oracles ran are compared.  Prints a
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


def cell(check: dict[str, Any], mbt: dict[str, Any]) -> str:
    """Which column a mutant falls in."""
    by_check, by_mbt = check["status"] == "killed", mbt["status"] == "killed"
    if by_check and by_mbt:
        return "both"
    if by_check:
        return "scenarios only"
    return "MBT only" if by_mbt else "neither"


def table(check: dict[str, dict[str, Any]], mbt: dict[str, dict[str, Any]]) -> str:
    common = sorted(check.keys() & mbt.keys())
    rows: dict[str, Counter[str]] = {}
    equivalent = [m for m in common if check[m]["status"] == "equivalent"]
    for m in common:
        if m in equivalent:
            continue
        folder = m.split(":", 1)[0]
        rows.setdefault(folder, Counter())[cell(check[m], mbt[m])] += 1
    total: Counter[str] = sum(rows.values(), Counter())
    lines = ["| file | mutants | killed by MBT | killed by the scenarios | "
             + " | ".join(COLUMNS) + " |", "|---" * (4 + len(COLUMNS)) + "|"]

    def row(name: str, c: Counter[str]) -> str:
        n = sum(c.values())
        by_mbt, by_check = c["both"] + c["MBT only"], c["both"] + c["scenarios only"]
        return (f"| {name} | {n} | {by_mbt} | {by_check} | "
                + " | ".join(str(c[k]) for k in COLUMNS) + " |")

    lines += [row(f"`{name}`", rows[name]) for name in sorted(rows)]
    lines.append(row("**all**", total))
    lines.append("")
    for m in common:
        where = "equivalent" if m in equivalent else cell(check[m], mbt[m])
        if where == "both":
            continue
        lines.append(f"- `{m}` ({where}): scenarios: {check[m]['why']}; MBT: {mbt[m]['why']}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m mutation.compare", description=__doc__)
    p.add_argument("--check", type=Path, action="append", required=True, metavar="REPORT",
                   help="a report.json of --oracle check (repeatable)")
    p.add_argument("--mbt", type=Path, action="append", required=True, metavar="REPORT",
                   help="a report.json of --oracle mbt (repeatable)")
    args = p.parse_args(argv)
    try:
        check, mbt = _load(args.check), _load(args.mbt)
    except (OSError, ValueError, KeyError) as err:
        print(f"python -m mutation.compare: cannot read a report: {err}", file=sys.stderr)
        return 2
    print(table(check, mbt))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
