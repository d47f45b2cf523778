"""``tlaconf eval [--json] [-m MODULE] EXPR|-``: evaluate constant TLA+ expressions.

The context extends Integers, Sequences, FiniteSets and TLC; ``-m`` adds a module
whose operators are then usable.  ``-`` reads one expression per line from stdin
and answers one line each.  ``--json`` prints ``{"value": <ITF>}`` or
``{"error": "<message>"}``.  A value tlaconf cannot enumerate (``Nat``,
``{x \\in Nat : x > 3}``, a set too large) is an error, never printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.errors import UserError
from tlaconf.values import encode, to_tla
from tlaconf.values.itf import NotEncodable


def register(sub: Any) -> None:
    p = sub.add_parser("eval", help="evaluate a constant TLA+ expression",
                       description=doc_description(__doc__))
    p.add_argument("expr", metavar="EXPR", help="a TLA+ expression, or - to read one per line")
    p.add_argument("--json", action="store_true", help="print ITF JSON values")
    p.add_argument("-m", "--module", type=Path, help="a .tla module to add to the context")
    p.add_argument("-D", "--constant", action="append", default=[], metavar="NAME=EXPR",
                   help="bind a CONSTANT of the module to the value of EXPR (repeatable)")
    p.set_defaults(run=run)


def _answer(ctx: Any, text: str, as_json: bool) -> tuple[str, bool]:
    """The printed answer to one expression, and whether it succeeded."""
    try:
        value = ctx.evaluate(text)
        try:
            encoded = encode(value)
        except NotEncodable as err:
            raise UserError(
                f"cannot print {err.text}: tlaconf cannot enumerate it (it is infinite, or too "
                "large), and eval prints only values it can enumerate"
            ) from None
    except UserError as err:
        if as_json:
            return json.dumps({"error": str(err)}), False
        raise
    return (json.dumps({"value": encoded}) if as_json else to_tla(value)), True


def run(args: argparse.Namespace) -> int:
    from tlaconf.evaluate.context import default_context

    constants: dict[str, Any] = {}
    if args.constant:
        base = default_context()
        for item in args.constant:
            name, sep, text = item.partition("=")
            if not sep or not name.strip().isidentifier():
                raise UserError(f"-D expects NAME=EXPR, got {item!r}")
            constants[name.strip()] = base.evaluate(text)
    ctx = default_context(args.module, constants=constants)
    if args.expr != "-":
        out, ok = _answer(ctx, args.expr, args.json)
        print(out)
        return 0 if ok else 2
    failed = False
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        try:
            out, ok = _answer(ctx, text, args.json)
        except UserError as err:
            out, ok = f"error: {err}", False
        failed = failed or not ok
        print(out, flush=True)
    return 2 if failed else 0
