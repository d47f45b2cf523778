"""``tlaconf fragments PAGE... -o DIR``: extract spec fragments from pages into modules."""

from __future__ import annotations

import argparse

from tlaconf.cli.inputs import existing_file, output_dir
from tlaconf.errors import ExitCode, UserError
from tlaconf.tla.fragments import write_modules


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Find every definition after a 'reference-profile · input revision N · "
        "LICENCE' marker in each page and write one module per page (Fragments_<page>.tla) "
        "with a provenance comment per definition. All modules are written, or none "
        "(a page that cannot be read or parsed stops the run before anything is written)."
    )
    p.add_argument("pages", nargs="+", metavar="PAGE", type=existing_file, help="page text files")
    p.add_argument("-o", "--output", required=True, metavar="DIR", type=output_dir,
                   help="output folder")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> ExitCode:
    written = 0
    for page, path, fragments in write_modules(args.pages, args.output):
        if path is None:
            print(f"{page}: no fragment")
            continue
        written += 1
        names = [n for f in fragments for n in f.names()]
        print(f"{page}: {len(names)} definition(s) -> {path}")
        for f in fragments:
            for n in f.names():
                print(f"  {n}  (line {f.line}, revision {f.revision}, {f.licence})")
    if not written:  # a wrong file given as the page is not a success
        raise UserError("none of the pages publishes a definition (no 'reference-profile · "
                        "input revision N · LICENCE' marker): nothing was written")
    return ExitCode.OK
