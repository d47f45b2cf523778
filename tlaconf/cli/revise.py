"""``tlaconf revise PAGE... --from R [--to R2] [--spec DIR] [--dry-run] [--json]``.

Builds spec/reference-profile/revR2/ from revR and the definitions the pages
publish after their 'reference-profile · input revision N · LICENCE' markers.
A published definition replaces the same-named one of revR (unchanged when
both parse to the same AST, else changed); a new name goes to the module of
the same section, page or topic (see the README); every other definition is
copied.  The new revision must parse and resolve with conformance/ and tcs/,
else nothing is written (exit 2).  An existing revR2/ is never overwritten.
--to defaults to the revision the pages' markers name.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir, existing_file
from tlaconf.errors import ExitCode
from tlaconf.replay.result import display_path
from tlaconf.revision.build import Revision, build_revision, write_revision
from tlaconf.spec import resolve_spec_dir


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("pages", nargs="+", metavar="PAGE", type=existing_file,
                   help="specification pages (text files)")
    p.add_argument("--from", dest="source", required=True, metavar="R", help="the base revision")
    p.add_argument(
        "--to", dest="target", metavar="R2", help="the new revision (default: the pages' markers')"
    )
    p.add_argument(
        "--spec",
        metavar="DIR",
        type=existing_dir,
        help="spec directory (default: ./spec, else the tlaconf checkout's spec/)",
    )
    p.add_argument("--dry-run", action="store_true", help="report, write nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def to_json(rev: Revision, written: bool) -> dict[str, Any]:
    return {
        "from": rev.source,
        "to": rev.target,
        "folder": display_path(str(rev.folder)),
        "written": written,
        "operators": [
            {"name": c.name, "module": c.module, "status": c.status, "page": c.page,
             "line": c.line}
            for c in rev.changes
        ],
    }  # fmt: skip


def to_text(rev: Revision, written: bool, dry_run: bool) -> str:
    rows = [(c.status, c.module, c.name, f"{c.page}:{c.line}", c.note) for c in rev.changes]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    folder = display_path(str(rev.folder))
    lines = [f"revise: revision {rev.source} -> {rev.target} ({folder})"]
    for r in rows:
        cells = "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False))
        lines.append(f"  {cells}  {r[4]}".rstrip())
    counts = ", ".join(
        f"{sum(c.status == s for c in rev.changes)} {s}" for s in ("changed", "new", "unchanged")
    )
    if rev.up_to_date:
        lines.append(f"{folder} is up to date ({counts}); nothing written")
    elif written:
        lines.append(f"wrote {folder}: {len(rev.files)} file(s); {counts}")
    elif dry_run:
        lines.append(f"would write {folder}: {len(rev.files)} file(s); {counts} (--dry-run)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> ExitCode:
    spec_dir = resolve_spec_dir(args.spec)
    rev = build_revision(spec_dir, args.pages, args.source, args.target)
    written = not args.dry_run and not rev.up_to_date
    if written:
        write_revision(rev)
    if args.json:
        json.dump(to_json(rev, written), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(to_text(rev, written, args.dry_run))
    return ExitCode.OK
