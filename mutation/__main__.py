"""``python -m mutation [--sample N] [--sample-seed S] [--only TEXT] [-j N] [--seed N]...``

Plants every mutant of :mod:`mutation.operators` in ``harness/`` (the scenario
generators under ``harness/scenarios/`` and the Hypothesis strategies excepted: they
drive the check, they are not the implementation) one at a time and runs ``tlaconf
check`` on each.  Prints killed / survived / equivalent and the mutation score
(killed / (killed + survived)), and writes ``.tlaconf-out/mutation/report.md`` and
``report.json`` with every survivor's diff and why it survived.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from mutation import run as run_module
from mutation.operators import Mutant, mutants
from mutation.run import ROOT, TIMEOUT, Outcome, _diff, run_all

EQUIVALENT = Path(__file__).with_name("equivalent.json")


def all_mutants(only: list[str] | None) -> list[Mutant]:
    out: list[Mutant] = []
    for path in sorted((ROOT / "harness").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if "scenarios" in path.parts or path.name == "strategies.py":
            continue
        if only and not any(text in rel for text in only):
            continue
        out.extend(mutants(rel, path.read_text(encoding="utf-8")))
    return out


def same_mutants(candidates: list[Mutant], earlier: list[dict[str, str]]) -> list[Mutant]:
    """The mutants of an earlier report that still exist: by id, else (the code moved) the
    same change in the same file, on the nearest line to where it was."""
    by_id = {m.ident: m for m in candidates}
    out: dict[str, Mutant] = {}
    for e in earlier:
        found = by_id.get(e["mutant"])
        if found is None:
            file, line, _, operator, new = e["mutant"].split(":", 4)
            body = e["diff"].split("\n", 1)[1:]
            same = [m for m in candidates if (m.file, m.operator, m.new) == (file, operator, new)
                    and _diff(m).split("\n", 1)[1:] == body]
            found = min(same, key=lambda m: abs(m.line - int(line)), default=None)
        if found is not None:
            out[found.ident] = found
    return [m for m in candidates if m.ident in out]


def load_equivalent() -> dict[str, str]:
    """Mutant id -> why no trace can tell it from the original."""
    if not EQUIVALENT.is_file():
        return {}
    return {e["mutant"]: e["reason"] for e in json.loads(EQUIVALENT.read_text())}


def report(outcomes: list[Outcome], out_dir: Path) -> str:
    counts = Counter(o.status for o in outcomes)
    killed, survived, equivalent = counts["killed"], counts["survived"], counts["equivalent"]
    score = 100.0 * killed / (killed + survived) if killed + survived else 100.0
    head = (f"{len(outcomes)} mutants: {killed} killed, {survived} survived, {equivalent} "
            f"equivalent; mutation score {score:.1f}% (killed / (killed + survived))")
    md = [f"# Mutation run\n\n{head}\n"]
    kinds = Counter(o.why.split(":")[0].split(" (")[0] for o in outcomes if o.status == "killed")
    md.append("## How the killed mutants were caught\n")
    md += [f"- {n} × {k}" for k, n in kinds.most_common()]
    for status in ("survived", "equivalent"):
        chosen = [o for o in outcomes if o.status == status]
        md.append(f"\n## {status.capitalize()} ({len(chosen)})\n")
        for o in chosen:
            md.append(f"### `{o.mutant.ident}`\n\n```diff\n{o.diff}\n```\n\n{o.why}\n")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    doc = {"summary": {"mutants": len(outcomes), "killed": killed, "survived": survived,
                       "equivalent": equivalent, "score": round(score, 1)},
           "mutants": [{"mutant": o.mutant.ident, "status": o.status, "why": o.why,
                        "diff": o.diff} for o in outcomes]}
    (out_dir / "report.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return head


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m mutation", description=__doc__)
    p.add_argument("--sample", type=int, metavar="N", help="run a random sample of N mutants")
    p.add_argument("--sample-seed", type=int, default=0, metavar="S", help="the sample's seed")
    p.add_argument("--only", metavar="TEXT", action="append",
                   help="only files whose path contains TEXT (repeatable)")
    p.add_argument("--oracle", choices=("check", "mbt", "directed", "exhaustive"),
                   default="check",
                   help="what kills a mutant: tlaconf check (the scenarios, default), or "
                        "tlaconf mbt through the harness drivers: random requests only "
                        "(mbt), directed then random (directed), every behaviour to depth "
                        "2 (exhaustive; the drivers whose model is small enough)")
    p.add_argument("-j", "--jobs", type=int, default=2, metavar="N", help="mutants at a time")
    p.add_argument("--seed", type=int, action="append", metavar="N",
                   help="tlaconf check seeds (default: its own, 1 2 3)")
    p.add_argument("--out", type=Path, default=ROOT / ".tlaconf-out" / "mutation",
                   help="where report.md and report.json go")
    p.add_argument("--mutants", type=Path, metavar="REPORT_JSON",
                   help="run the mutants of an earlier report.json that still exist "
                        "(the same sample before and after a change)")
    p.add_argument("--list", action="store_true", help="list the mutants and stop")
    p.add_argument("--timeout", type=int, default=TIMEOUT, metavar="SECONDS",
                   help=f"a run that has not finished by then kills its mutant (default "
                        f"{TIMEOUT}; the directed oracle solving with Apalache, when APALACHE_MC "
                        "is set, needs more)")
    args = p.parse_args(argv)
    run_module.TIMEOUT = args.timeout
    chosen = all_mutants(args.only)
    if args.mutants is not None:
        chosen = same_mutants(chosen, json.loads(args.mutants.read_text())["mutants"])
    if args.sample is not None and args.sample < len(chosen):
        chosen = sorted(random.Random(args.sample_seed).sample(chosen, args.sample),
                        key=lambda m: (m.file, m.line, m.col, m.operator, m.new))
    if args.list:
        for m in chosen:
            print(m.ident)
        return 0
    seeds = tuple(args.seed or (1, 2, 3))
    outcomes = run_all(chosen, seeds, args.jobs, load_equivalent(), oracle=args.oracle)
    print(report(outcomes, args.out))
    for o in outcomes:
        if o.status == "survived":
            print(f"\nSURVIVED {o.mutant.ident}\n{o.diff}\n  why: {o.why}")
    print(f"\nreport: {args.out / 'report.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
