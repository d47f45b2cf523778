"""Entry point of the ``tlaconf`` command, and its one escalation point.

Each subcommand lives in ``tlaconf.cli.<name>`` and provides ``register(parser)``
(its options) and ``run(args) -> ExitCode``.  Only the chosen subcommand's module is
imported (as pip registers its commands), so ``tlaconf --version`` and ``--help`` load
neither the evaluator nor pydantic nor rich.

Everything :func:`main` does, building the parser included, runs inside one ``try``
that turns what happened into an :class:`~tlaconf.errors.ExitCode`: a
:class:`~tlaconf.errors.UserError` or a usage error is BAD_INPUT (2), an
:class:`~tlaconf.errors.Undecided` (a cluster that cannot be used) is UNDECIDED (3),
SIGINT and SIGTERM are INTERRUPTED (130, after every context manager has unwound, see
:mod:`tlaconf.signals`), any other exception is a bug in tlaconf, INTERNAL_ERROR (4: one
line on stderr saying where the traceback was saved, never the traceback itself unless
``--debug``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Collection, Sequence
from typing import Any

from tlaconf import __version__, environment
from tlaconf.errors import ExitCode, Undecided, UserError, internal_error
from tlaconf.signals import Interrupted, interruptible

COMMANDS: dict[str, str] = {
    "init": "scaffold a project checked by tlaconf",
    "check": "run the harness scenarios, write their traces, replay them (the main job)",
    "replay": "check traces against their conformance modules",
    "coverage": "which guards, conjuncts, disjuncts and CASE arms the traces made TRUE and FALSE",
    "gate": "replay the golden traces and compare with traces/verdicts.json",
    "eval": "evaluate a constant TLA+ expression",
    "parse": "parse and resolve TLA+ modules or pages; list operators or errors",
    "fragments": "extract the TLA+ definitions published on pages into modules",
    "revise": "build a new revision of the profile from revision R and new pages",
    "convert": "convert a trace to ITF JSON or back",
    "export": "write a trace as a TLA+ module that TLC can check",
    "diff-spec": "which operators (and golden traces) a spec change touches",
    "explore": "explore a specification's states as TLC does",
    "validate": "run a TLC trace-validation spec (breadth-first, as TLC does) and report "
                "whether the log it reads is a behaviour of the spec",
    "mbt": "drive an implementation with requests drawn from its spec; shrink failures",
}
"""Subcommands and their one-line summaries, in the order ``tlaconf --help`` lists them."""

EVALUATING = frozenset({"check", "replay", "coverage", "gate", "eval", "export", "diff-spec",
                        "explore", "validate", "mbt"})
"""The subcommands that evaluate TLA+ and so take ``--eval-budget``."""

LOADING = EVALUATING | {"parse"}
"""The subcommands that load modules and so take ``--library``."""


class UsageError(Exception):
    """argparse refused the command line (it has already printed why)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


_GIVEN = "_tlaconf_given"
"""The namespace attribute noting the options of one value given so far (dest -> the
option and its value), removed once the command line is read."""


def _given(namespace: argparse.Namespace) -> dict[str, str]:
    given: dict[str, str] = vars(namespace).setdefault(_GIVEN, {})
    return given


class _Once(argparse._StoreAction):
    """An option that takes one value: given a second time, a usage error naming it
    (the last value would otherwise win silently).  Flags (``--json``) and the options
    meant to repeat (``append``: ``--library``, ``-D``, ``--seed``, ...) are not this."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        if option_string is not None:  # a positional is read once anyway
            given = _given(namespace)
            shown = (f"{option_string} {values}" if isinstance(values, (str, os.PathLike))
                     else option_string)
            earlier = given.get(self.dest) or getattr(parser, "given_before", {}).get(self.dest)
            if earlier is not None:
                raise argparse.ArgumentError(self, _twice(earlier, shown))
            given[self.dest] = shown
        super().__call__(parser, namespace, values, option_string)


def _twice(first: str, second: str) -> str:
    both = "" if first == second else f" ({first}, then {second})"
    return f"given twice{both}: it takes one value; give it once"


class _Commands(argparse._SubParsersAction):
    """The subcommand: it is told the options given before it (``tlaconf --eval-budget 5
    replay --eval-budget 6`` gives the option twice)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        before = vars(namespace).pop(_GIVEN, {})
        chosen = self._name_parser_map.get(str(values[0])) if values else None
        if isinstance(chosen, _Parser):
            chosen.given_before = before
        super().__call__(parser, namespace, values, option_string)
        vars(namespace)[_GIVEN] = {**before, **_given(namespace)}


class _Parser(argparse.ArgumentParser):
    """argparse's parser, exiting 2 on a usage error and refusing an option of one value
    given twice (:class:`_Once`), in every subcommand."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.given_before: dict[str, str] = {}
        """The options of one value given before this subcommand (see :class:`_Commands`)."""
        self.command_line: tuple[argparse.ArgumentParser, Sequence[str]] | None = None
        """The top parser and the whole command line being read (set by :func:`_parse`)."""
        self.register("action", None, _Once)
        self.register("action", "store", _Once)
        self.register("action", "parsers", _Commands)

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        """A value that its option refuses (a path that does not exist) is reported only
        after the words that are no option at all (``replay --nope x`` is about
        ``--nope``): argparse would name those last."""
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError:
            if self.command_line is not None:
                refuse_unknown_options(*self.command_line)
            raise

    def error(self, message: str) -> None:  # type: ignore[override]
        line = self.command_line
        if message.startswith("unrecognized arguments") and line is not None:
            self.command_line = None
            refuse_unknown_options(*line)  # an option is named as one, a stray word as is
        self.print_usage(sys.stderr)
        self.exit(ExitCode.BAD_INPUT, f"{self.prog}: error: {message}\n")


def _seconds(text: str) -> float:
    from tlaconf.evaluate import budget

    try:
        return budget.parse_seconds(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_library_option(parser: argparse.ArgumentParser) -> None:
    from tlaconf.tla.library import ENV

    parser.add_argument(
        "--library", action="append", default=[], metavar="PATH",
        help="a folder of .tla files or a jar holding them (e.g. the CommunityModules jar), "
        f"searched for modules after the spec's own folders (repeatable; before ${ENV}, "
        "':'-separated)",
    )


def _add_global_options(parser: argparse.ArgumentParser, default: object,
                        evaluates: bool) -> None:
    """``--debug`` (and ``--eval-budget`` where it applies), before the command or after."""
    if evaluates:
        parser.add_argument(
            "--eval-budget", type=_seconds, metavar="SECONDS", default=default,
            help="stop any one evaluation after SECONDS and report it (default: "
            "$TLACONF_EVAL_BUDGET or 60; 0 = no limit)",
        )
    parser.add_argument(
        "--debug", action="store_true", default=default,
        help="on an internal error, also print the traceback (it is always saved to a file)",
    )


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line: the first word that is not a global
    option (or an option's value), if it is a known command."""
    words = iter(argv)
    for word in words:
        if word == "--eval-budget":
            next(words, None)
        elif word in COMMANDS:
            return word
        elif not word.startswith("-") or word == "--":
            return None
    return None


def build_parser(commands: Collection[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The parser: every subcommand listed, only the modules of ``commands`` imported and
    their options registered."""
    parser = _Parser(
        prog="tlaconf", description="TLA+ conformance checking of implementation traces."
    )
    parser.add_argument("--version", action="version", version=f"tlaconf {__version__}")
    _add_global_options(parser, None, evaluates=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, summary in COMMANDS.items():
        p = sub.add_parser(name, help=summary)
        if name in commands:
            importlib.import_module(f"tlaconf.cli.{name.replace('-', '_')}").register(p)
            _add_global_options(p, argparse.SUPPRESS, evaluates=name in EVALUATING)
            if name in LOADING:
                _add_library_option(p)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(found[0].choices) if found else {}


def refuse_unknown_options(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """A usage error naming the first word of ``argv`` that looks like an option and is
    none of the parser's (or, after the subcommand, of the subcommand's parser).

    argparse checks the values of the arguments it knows (a path that does not exist) before
    it reports the words it did not understand, so ``replay --nope x`` blamed ``x``."""
    choices = _subparsers(parser)
    current = parser
    words = iter(argv)
    for word in words:
        if word == "--":
            return
        if current is parser and word in choices:
            current = choices[word]
            continue
        found = current._parse_optional(word)
        if found is None:
            continue
        action, _, explicit = found
        if action is None:
            current.error(f"unknown option {word.split('=', 1)[0]}")
        elif explicit is None and (action.nargs is None or isinstance(action.nargs, int)):
            for _ in range(1 if action.nargs is None else int(action.nargs)):
                next(words, None)


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed command line; UsageError when argparse refused it (or printed help)."""
    command = chosen_command(argv)
    parser = build_parser(() if command is None else (command,))
    try:
        for p in (parser, *_subparsers(parser).values()):
            if isinstance(p, _Parser):
                p.command_line = (parser, argv)
        args = parser.parse_args(argv)
        vars(args).pop(_GIVEN, None)
        if command is not None:
            from tlaconf.cli.inputs import spare_inputs

            spare_inputs(parser, args)
        if args.eval_budget is not None and args.command not in EVALUATING:
            parser.error(f"--eval-budget does not apply to {args.command} (it evaluates no "
                         "TLA+)")
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        raise UsageError(exc.code if isinstance(exc.code, int) else ExitCode.BAD_INPUT
                         ) from None
    return args


def _run(args: argparse.Namespace) -> ExitCode:
    if args.command not in LOADING:
        return ExitCode(args.run(args))
    from tlaconf.tla import library
    from tlaconf.values import recent

    try:
        with library.given(args.library):
            return _evaluate(args)
    finally:  # the values of the run are freed now, not walked by the collector at exit
        recent.forget()


def _evaluate(args: argparse.Namespace) -> ExitCode:
    if args.command not in EVALUATING:
        return ExitCode(args.run(args))
    from tlaconf.evaluate import budget

    with budget.run(budget.from_env() if args.eval_budget is None else args.eval_budget):
        return ExitCode(args.run(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tlaconf`` with ``argv`` (default: the process's arguments); the exit code."""
    debug = False  # --debug: an internal error's traceback goes to stderr too
    environment.drop_bad_columns()
    try:
        with interruptible():
            args = _parse(sys.argv[1:] if argv is None else list(argv))
            debug = bool(args.debug)
            return _run(args)
    except UsageError as err:
        return err.code
    except UserError as err:
        print(f"tlaconf: error: {err}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except Undecided as err:
        print(f"tlaconf: cannot decide: {err}", file=sys.stderr)
        return ExitCode.UNDECIDED
    except Interrupted as err:
        print(f"tlaconf: interrupted by {err.signal_name}: nothing was decided", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK
    except Exception as exc:
        message, _ = internal_error(exc, echo=debug)
        print(f"tlaconf: {message}", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
