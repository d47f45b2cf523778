"""Entry point of the ``tlaconf`` command.

Each subcommand lives in ``tlaconf.cli.<name>`` and provides
``register(subparsers)`` and ``run(args) -> int``.  Exit codes: 0 all conform,
1 a nonconformance was found, 2 bad input (a :class:`~tlaconf.errors.UserError`),
3 tlaconf could not decide: an external checker failed, or any other exception,
which is a bug in tlaconf (one line on stderr, the traceback saved to a file).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tlaconf import __version__, errors
from tlaconf.errors import UserError, internal_error
from tlaconf.evaluate import budget

COMMANDS: tuple[str, ...] = (
    "init", "check", "replay", "coverage", "gate", "eval", "parse", "fragments", "revise",
    "convert", "export", "diff-spec", "explore", "validate", "mbt",
)
"""Subcommand modules, in the order ``tlaconf --help`` lists them."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _seconds(text: str) -> float:
    try:
        return budget.parse_seconds(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_global_options(parser: argparse.ArgumentParser, default: object) -> None:
    """``--eval-budget`` and ``--debug``, before the command or after it."""
    parser.add_argument(
        "--eval-budget", type=_seconds, metavar="SECONDS", default=default,
        help="stop any one evaluation after SECONDS and report it (default: "
        "$TLACONF_EVAL_BUDGET or 60; 0 = no limit)",
    )
    parser.add_argument(
        "--debug", action="store_true", default=default,
        help="on an internal error, also print the traceback (it is always saved to a file)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tlaconf", description="TLA+ conformance checking of implementation traces."
    )
    parser.add_argument("--version", action="version", version=f"tlaconf {__version__}")
    _add_global_options(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"tlaconf.cli.{name.replace('-', '_')}").register(sub)
    for command in sub.choices.values():
        _add_global_options(command, argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    errors.debug = bool(args.debug)
    default_budget = budget.seconds
    try:
        budget.seconds = budget.from_env() if args.eval_budget is None else args.eval_budget
        code: int = args.run(args)
    except UserError as err:
        print(f"tlaconf: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        message, _ = internal_error(exc)
        print(f"tlaconf: {message}", file=sys.stderr)
        return 3
    finally:
        errors.debug = False
        budget.seconds = default_budget
    return code


if __name__ == "__main__":
    sys.exit(main())
