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
    "convert", "export", "diff-spec",
)
"""Subcommand modules, in the order ``tlaconf --help`` lists them."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tlaconf", description="TLA+ conformance checking of implementation traces."
    )
    parser.add_argument("--version", action="version", version=f"tlaconf {__version__}")
    parser.add_argument(
        "--eval-budget", type=_seconds, metavar="SECONDS", default=None,
        help="stop any one evaluation after SECONDS and report it (default: "
        "$TLACONF_EVAL_BUDGET or 60; 0 = no limit)",
    )
    parser.add_argument(
        "--debug", action="store_true",
        help="on an internal error, also print the traceback (it is always saved to a file)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"tlaconf.cli.{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    errors.debug = args.debug
    default_budget = budget.seconds
    if args.eval_budget is not None:
        budget.seconds = args.eval_budget
    try:
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
