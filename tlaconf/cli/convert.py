"""tlaconf convert IN OUT: a tlaconf trace to ITF JSON, or ITF JSON to a tlaconf trace.

The direction follows IN's content: a file whose first line is a
tlaconf-trace header is converted to ITF, anything else is read as ITF and
converted to a trace.  OUT must not name the same kind as IN (.jsonl is a
trace, .itf.json is ITF).  See the module tlaconf.trace.itf for the mapping.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.errors import UserError
from tlaconf.trace.itf import is_trace_file, itf_to_trace, trace_to_itf


def register(sub: Any) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a trace to ITF JSON or back",
        description=doc_description(__doc__),
    )
    p.add_argument("input", metavar="IN", type=Path, help="a .trace.jsonl or .itf.json file")
    p.add_argument("output", metavar="OUT", type=Path, help="the file to write")
    p.add_argument("--module", help="conformance module, for ITF without a tlaconf header")
    p.add_argument("--revision", help="profile revision, for ITF without a tlaconf header")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    src: Path = args.input
    dst: Path = args.output
    if not src.is_file():
        raise UserError(f"{src}: no such file")
    if src.resolve() == dst.resolve():
        raise UserError("IN and OUT are the same file")
    to_itf = is_trace_file(src)
    if to_itf and dst.name.endswith(".jsonl"):
        raise UserError(f"{src} is a tlaconf trace; OUT {dst} should be ITF (.itf.json)")
    if to_itf and (args.module or args.revision):
        raise UserError("--module/--revision apply only to ITF input")
    if not to_itf and dst.name.endswith(".json"):
        raise UserError(f"{src} is read as ITF; OUT {dst} should be a trace (.trace.jsonl)")
    try:
        if to_itf:
            steps = trace_to_itf(src, dst)
        else:
            steps = itf_to_trace(src, dst, args.module, args.revision)
    except OSError as err:
        raise UserError(f"cannot write {dst}: {err.strerror}") from None
    print(f"{dst}: {'ITF' if to_itf else 'tlaconf-trace v1'}, {steps} steps")
    return 0
