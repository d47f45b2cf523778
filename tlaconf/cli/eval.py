"""``tlaconf eval [--json] [-m MODULE] EXPR|-``: evaluate constant TLA+ expressions.

The context extends Integers, Sequences, FiniteSets and TLC; ``-m`` adds a module
whose operators are then usable: a ``.tla`` file, or a module name looked up in the
spec directory (``--spec DIR``, default ``./spec``): its ``conformance/``, then the
newest ``reference-profile/rev*/``, then ``tcs/``; what it EXTENDS is also looked up on
the library path (``--library``).  ``-D NAME=EXPR`` binds a CONSTANT
of that module (so it needs ``-m``).  ``-`` reads one expression per line from stdin
and answers one line each.  ``--json`` prints ``{"value": <ITF>}`` or
``{"error": "<message>"}``.  A value tlaconf cannot enumerate (``Nat``,
``{x \\in Nat : x > 3}``, a set too large) is an error, never printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tlaconf.cli import doc_description
from tlaconf.cli.inputs import existing_dir
from tlaconf.errors import ExitCode, UserError
from tlaconf.evaluate import budget
from tlaconf.files import decode, unreadable_path
from tlaconf.spec import read_cfg, resolve_spec_dir
from tlaconf.tla.library import library_path
from tlaconf.values import encode, to_tla
from tlaconf.values.itf import NotEncodable


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("expr", metavar="EXPR", help="a TLA+ expression, or - to read one per line")
    p.add_argument("--json", action="store_true", help="print ITF JSON values")
    p.add_argument("-m", "--module", metavar="MODULE",
                   help="a .tla file or a module name of the spec directory to add")
    p.add_argument("--spec", metavar="DIR", type=existing_dir,
                   help="where -m NAME is looked up (default ./spec)")
    p.add_argument("-D", "--constant", action="append", default=[], metavar="NAME=EXPR",
                   help="bind a CONSTANT of the module to the value of EXPR (repeatable)")
    p.set_defaults(run=run)


def _answer(ctx: Any, text: str, as_json: bool) -> tuple[str, bool]:
    """The printed answer to one expression, and whether it succeeded."""
    try:
        value = ctx.evaluate(text)
        with budget.deep():
            try:
                encoded = encode(value)
                return (json.dumps({"value": encoded}) if as_json else to_tla(value)), True
            except NotEncodable as err:
                raise UserError(
                    f"cannot print {err.text}: tlaconf cannot enumerate it (it is infinite, or "
                    "too large), and eval prints only values it can enumerate"
                ) from None
            except RecursionError:
                raise UserError("the value is nested too deeply to print") from None
    except UserError as err:
        if as_json:
            return json.dumps({"error": str(err)}), False
        raise


def module_file(module: str, spec: str | None) -> tuple[Path, tuple[Path, ...], dict[str, Any]]:
    """The ``.tla`` file ``-m MODULE`` names (a path, or a module of the spec directory),
    the search path for what it EXTENDS, and the constants of the ``.cfg`` beside it."""
    path = Path(module)
    if path.suffix == ".tla" or path.is_file() or not module.isidentifier():
        why = unreadable_path(path)
        if why is not None:
            raise UserError(f"-m {module}: module file {path} {why}")
        return path, (), {}
    spec_dir = resolve_spec_dir(spec)
    revisions = sorted((spec_dir / "reference-profile").glob("rev*"), reverse=True,
                       key=lambda d: (len(d.name), d.name))
    for folder in [spec_dir / "conformance", *revisions, spec_dir / "tcs"]:
        found = folder / f"{module}.tla"
        if found.is_file():
            rev = folder if folder in revisions else next(iter(revisions), None)
            dirs = (spec_dir / "conformance", *([rev] if rev else []), spec_dir / "tcs")
            cfg = found.with_suffix(".cfg")
            there = cfg.exists() or cfg.is_symlink()  # a pipe or a loop is refused, not skipped
            constants = dict(read_cfg(cfg).constants) if there else {}
            return found, tuple(d for d in dirs if d.is_dir()), constants
        if found.exists() or found.is_symlink():
            raise UserError(f"-m {module}: module file {found} {unreadable_path(found)}")
    raise UserError(f"-m {module}: no {module}.tla in {spec_dir} (looked in conformance/, "
                    "reference-profile/rev*/ and tcs/); give a path to a .tla file")


def _constants(items: list[str]) -> dict[str, Any]:
    """The values ``-D NAME=EXPR`` options bind; UserError naming the option and NAME."""
    if not items:
        return {}
    from tlaconf.evaluate.context import default_context

    base = default_context()
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep:
            raise UserError(f"-D {item}: expected NAME=EXPR (a CONSTANT name, '=' and a "
                            "constant TLA+ expression)")
        if not name.isidentifier():
            raise UserError(f"-D {item}: expected a CONSTANT name before '=', got {name!r}")
        if not text.strip():
            raise UserError(f"-D {item}: expected a constant TLA+ expression after '{name}='")
        if name in out:
            raise UserError(f"-D {item}: constant {name} is given twice")
        try:
            out[name] = base.evaluate(text)
        except UserError as err:
            raise UserError(f"-D {item}: cannot evaluate the value of {name}: {err}") from None
    return out


def run(args: argparse.Namespace) -> ExitCode:
    from tlaconf.evaluate.context import default_context

    if args.constant and args.module is None:
        raise UserError("-D binds a CONSTANT of a module: give the module with -m MODULE")
    if args.spec is not None and args.module is None:
        raise UserError("--spec says where -m MODULE is looked up: give the module with "
                        "-m MODULE (without it the expression sees the standard modules only)")
    module, search, constants = (None, (), {}) if args.module is None else module_file(
        args.module, args.spec)
    given = _constants(args.constant)
    constants.update(given)
    ctx = default_context(module, (*search, *library_path()), constants)
    undeclared = sorted(set(given) - set(ctx.constants))
    if undeclared:
        raise UserError(f"-D {undeclared[0]}=...: module {Path(args.module).stem} declares no "
                        f"CONSTANT {undeclared[0]} (it declares: "
                        f"{', '.join(ctx.constants) or 'none'})")
    ctx.check_assumptions()
    if args.expr != "-":
        out, ok = _answer(ctx, args.expr, args.json)
        print(out)
        return ExitCode.OK if ok else ExitCode.BAD_INPUT
    failed = False
    for number, raw, more in stdin_expressions():
        try:
            out, ok = _answer(ctx, decode(raw, "stdin", number).strip(), args.json)
        except UserError as err:
            out, ok = (json.dumps({"error": str(err)}) if args.json else f"error: {err}"), False
        failed = failed or not ok
        print(out, flush=not more)
    return ExitCode.BAD_INPUT if failed else ExitCode.OK


MAX_EXPRESSIONS = 10_000
"""The most expressions one ``eval -`` answers (about a second of work per thousand):
more input is refused, not left running for minutes."""

MAX_EXPRESSION_BYTES = 1_000_000
"""The longest expression line ``eval -`` reads."""


def stdin_expressions() -> Iterator[tuple[int, bytes, bool]]:
    """(line number, expression, whether more input is already waiting) for each
    non-blank line of stdin; a line longer than MAX_EXPRESSION_BYTES or more than
    MAX_EXPRESSIONS lines are UserErrors.
    Answers are flushed whenever no more input is waiting, so a program talking to
    ``eval -`` through a pipe gets each answer at once."""
    count = 0
    for number, raw, more in _stdin_lines():
        if not raw.strip():
            continue
        count += 1
        if count > MAX_EXPRESSIONS:
            raise UserError(f"more than {MAX_EXPRESSIONS:,} expressions: eval - answers at "
                            "most that many per run (split the input)", f"stdin:{number}")
        yield number, raw, more


def _stdin_lines() -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, more waiting) per line of stdin, read in large chunks."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # a stream without a file (tests)
        for number, line in enumerate(sys.stdin, 1):
            yield number, line.encode("utf-8"), False
        return
    number = 0
    pending = b""
    while chunk := os.read(fd, 1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        if len(pending) > MAX_EXPRESSION_BYTES:
            raise UserError(f"a line longer than {MAX_EXPRESSION_BYTES:,} bytes",
                            f"stdin:{number + len(lines) + 1}")
        for i, line in enumerate(lines):
            number += 1
            if len(line) > MAX_EXPRESSION_BYTES:
                raise UserError(f"a line longer than {MAX_EXPRESSION_BYTES:,} bytes",
                                f"stdin:{number}")
            yield number, line, i + 1 < len(lines)
    if pending:
        yield number + 1, pending, False
