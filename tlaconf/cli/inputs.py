"""Every path a subcommand takes, checked by what it must be before any work starts.

Each function here is an argparse ``type=``: argparse calls it while it reads the
command line, so a path of the wrong kind is a usage error (exit 2) naming the
option and the path, before anything is read, replayed or written.  The kinds:

- :func:`existing_file`: a regular file that can be read (not a folder, a named
  pipe or a device; a symbolic link is followed, a loop or a dangling one is named);
- :func:`existing_dir`: a folder that can be read;
- :func:`existing_path`: either (a trace or a folder of traces);
- :func:`spec_dir`: a folder that holds a spec (``conformance/``, ``reference-profile/``,
  ``tcs/`` or ``.tla`` modules), where a folder holding none would be read as an empty spec;
- :func:`output_file` / :func:`output_dir`: where a file or a folder can be written;
- :func:`spare_inputs` (after parsing): no output file is one of the run's inputs;
  :func:`once_each`: a file named twice is read once;
- :func:`positive_int`: a count (``--steps``, ``--depth``, ...) of at least 1;
  :func:`bound`: a count or 0 for none; :func:`positive_seconds`: a finite time.
  Missing folders on the way to an output are created when it is written (as
  pytest's ``--junitxml`` does), everywhere; what already exists on the way must be
  a writable folder.

Reading the files themselves (UTF-8, sizes, JSON depth) is :mod:`tlaconf.files`'.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import check_output, missing, too_long


def _missing(p: Path) -> str:
    return f"{p} {missing(p)}"


def _path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a path, got an empty string")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a path (it holds a NUL character)")
    long = too_long(text)
    if long is not None:
        raise argparse.ArgumentTypeError(f"{text[:60]}...: it {long}")
    return Path(text)


def existing_file(text: str) -> Path:
    """A regular file that can be read."""
    p = _path(text)
    if not p.exists():
        raise argparse.ArgumentTypeError(_missing(p))
    if p.is_dir():
        raise argparse.ArgumentTypeError(f"{p} is a directory, not a file")
    if not p.is_file():
        raise argparse.ArgumentTypeError(
            f"{p} is not a regular file (a named pipe, device or socket)")
    if not os.access(p, os.R_OK):
        raise argparse.ArgumentTypeError(f"{p} is not readable (permission denied)")
    return p


def existing_dir(text: str) -> Path:
    """A folder that can be read."""
    p = _path(text)
    if not p.exists():
        raise argparse.ArgumentTypeError(_missing(p))
    if not p.is_dir():
        raise argparse.ArgumentTypeError(f"{p} is a file, not a directory")
    if not os.access(p, os.R_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{p} is not readable (permission denied)")
    return p


SPEC_PARTS = ("conformance", "reference-profile", "tcs")


def spec_dir(text: str) -> Path:
    """A folder that holds a spec: ``conformance/``, ``reference-profile/``, ``tcs/`` or
    ``.tla`` modules of its own (an empty or unrelated folder is refused, not read as a
    spec without definitions)."""
    p = existing_dir(text)
    if not any((p / part).is_dir() for part in SPEC_PARTS) and next(p.glob("*.tla"), None) is None:
        raise argparse.ArgumentTypeError(
            f"{p} is not a spec directory (it has no {', '.join(f'{x}/' for x in SPEC_PARTS)} "
            "and no .tla module)")
    return p


def existing_path(text: str) -> Path:
    """A regular file or a folder that can be read."""
    p = _path(text)
    return existing_dir(text) if p.is_dir() else existing_file(text)


def _output(text: str, folder: bool) -> Path:
    p = _path(text)
    try:
        check_output(p, "", folder=folder)
    except UserError as err:
        raise argparse.ArgumentTypeError(err.message.lstrip()) from None
    return p


def output_file(text: str) -> Path:
    """Where a file can be written (missing folders on the way are created)."""
    return _output(text, folder=False)


def output_dir(text: str) -> Path:
    """Where a folder can be written into (it and missing folders on the way are created)."""
    return _output(text, folder=True)


def positive_int(text: str) -> int:
    """A whole number >= 1 (argparse ``type=``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def bound(text: str) -> int:
    """A bound: a whole number >= 1, or 0 for no bound (argparse ``type=``)."""
    return 0 if text.strip() == "0" else positive_int(text)


def positive_seconds(text: str) -> float:
    """A finite number of seconds > 0 (argparse ``type=``)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


def once_each(paths: list[Path]) -> list[Path]:
    """``paths`` with each file kept at its first place only (``t.trace.jsonl
    ./t.trace.jsonl``, or a folder and a trace inside it, name one trace: it is checked,
    and counted, once, as pytest collects a file once)."""
    seen: set[Path] = set()
    out: list[Path] = []
    for p in paths:
        key = Path(os.path.realpath(p))  # Path.resolve raises on a symbolic-link loop
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def refuse_partial(paths: Sequence[Path], command: str, why: str) -> None:
    """UserError at the first partial trace of ``paths`` (header ``"partial": true``):
    ``command`` needs every variable in every state (``why``), which a partial trace does
    not give; ``replay`` and ``validate`` check it."""
    from tlaconf.trace.partial import is_partial

    for p in paths:
        if is_partial(p):
            raise UserError("a partial trace (its header says \"partial\": true): "
                            f"{command} {why}; check it with 'tlaconf replay {p}' or "
                            f"'tlaconf validate {p}'", f"{p}:1")


_READ_HERE = (".tla", ".cfg", ".jsonl", ".json", ".ndjson")
"""What a command may read inside an input folder (modules, configs, traces, verdicts)."""


def _option(action: argparse.Action) -> str:
    return action.option_strings[-1] if action.option_strings else str(action.metavar)


def spare_inputs(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """UserError when an existing output file (``--junit``, ``--html FILE``, ``-o``,
    ``--trace``, ``OUT``) is one of the run's input files, or a module, config, trace or
    JSON file inside one of its input folders: writing it would destroy the input (a
    ``replay --junit t.trace.jsonl t.trace.jsonl`` overwrote the trace)."""
    commands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    sub = commands[0].choices.get(str(getattr(args, "command", ""))) if commands else None
    actions = sub._actions if sub is not None else parser._actions
    inputs: list[tuple[str, Path]] = []
    outputs: list[tuple[str, Path]] = []
    for action in actions:
        value = getattr(args, action.dest, None)
        for v in value if isinstance(value, list) else [value]:
            if not isinstance(v, Path):
                continue
            if action.type in (existing_file, existing_dir, existing_path, spec_dir):
                inputs.append((_option(action), v))
            elif action.type is output_file and v.is_file():
                outputs.append((_option(action), v))
    for out_option, out in outputs:
        for in_option, given in inputs:
            if given.is_dir():
                inside = out.resolve().is_relative_to(given.resolve())
                if inside and out.name.endswith(_READ_HERE):
                    raise UserError(f"{out_option} {out}: it is a file of the input folder "
                                    f"{in_option} {given}: writing it would overwrite an "
                                    "input")
            elif out.samefile(given):
                raise UserError(f"{out_option} {out}: it is the input {in_option} {given}: "
                                "writing it would destroy it")
