"""``tlaconf init NAME``: scaffold a project that tlaconf checks.

Writes ``NAME/`` with a conformance module and its ``.cfg`` (``spec/conformance/``),
an implementation, a recorder built on :class:`tlaconf.Recorder`, seeded
scenarios, a pytest test using the ``tlaconf_replay`` fixture, and a
``pyproject.toml`` whose ``[tool.tlaconf]`` table ``check``, ``replay``, ``gate`` and
the pytest plugin read.  The project needs no reference profile.  Nothing is
written when ``NAME`` exists and is not empty.
"""

from __future__ import annotations

import argparse
import keyword
import shutil
import tempfile
from pathlib import Path

from tlaconf.cli import doc_description
from tlaconf.cli.scaffold import FILES
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import too_long


def register(p: argparse.ArgumentParser) -> None:
    p.description = doc_description(__doc__)
    p.add_argument("name", metavar="NAME",
                   help="the project folder to create (also its Python package name)")
    p.set_defaults(run=run)


def scaffold(target: Path) -> list[Path]:
    """Write the project into ``target`` (all or nothing); the files written."""
    name = target.name
    if not name.isidentifier() or keyword.iskeyword(name) or not name.islower():
        raise UserError(f"tlaconf init {target}: {name!r} must be a lower-case Python "
                        "identifier (it names the project's package), e.g. 'bank'")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UserError(f"tlaconf init {target}: it already exists and is not an empty folder")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        why = "is a file, not a folder" if parent.exists() else "does not exist"
        raise UserError(f"tlaconf init {target}: {parent} {why}")
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=parent))
    except OSError as err:
        raise UserError(f"tlaconf init {target}: cannot write in {parent}: {err.strerror}"
                        ) from None
    try:
        for rel, text in FILES.items():
            path = staging / rel.format(name=name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.format(name=name), encoding="utf-8")
        staging.chmod(0o755)
        if target.exists():
            target.rmdir()
        staging.rename(target)
    except OSError as err:
        shutil.rmtree(staging, ignore_errors=True)
        raise UserError(f"tlaconf init {target}: {err.strerror or err}") from None
    return sorted(p for p in target.rglob("*") if p.is_file())


def run(args: argparse.Namespace) -> ExitCode:
    long = too_long(args.name)
    if long is not None:
        raise UserError(f"NAME {args.name[:60]}...: it {long}")
    target = Path(args.name)
    for path in scaffold(target):
        print(f"wrote {path}")
    print(f"\nnext: cd {target} && tlaconf check && pytest")
    return ExitCode.OK
