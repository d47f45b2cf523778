"""A user project's settings: the ``[tool.tlaconf]`` table of its ``pyproject.toml``.

The project is the nearest folder, from the working directory up, that holds a
``pyproject.toml`` with a ``[tool.tlaconf]`` table.  Keys (all optional; paths are
relative to that folder):

* ``spec``: the spec directory (default ``spec``);
* ``traces``: the golden traces of ``tlaconf gate`` (default ``traces``);
* ``scenarios``: what ``tlaconf check`` runs, ``MODULE[:FUNCTION]`` (the project's folder
  is put on ``sys.path`` to import it);
* ``strict``: treat every warning as a failure (as ``--strict``);
* ``drivers``: what ``tlaconf mbt`` drives without arguments, a list of
  ``MODULE:ATTR`` (drivers, or functions or classes that make one).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import read_text, too_long

PYPROJECT = "pyproject.toml"
_KEYS: dict[str, type] = {"spec": str, "traces": str, "scenarios": str, "strict": bool,
                          "drivers": list}
_KINDS = {str: "string", bool: "boolean", list: "list of strings"}


@dataclass(frozen=True)
class Project:
    """The settings of one project (``root`` holds its ``pyproject.toml``)."""

    root: Path
    spec: Path | None = None
    traces: Path | None = None
    scenarios: str | None = None
    strict: bool = False
    drivers: tuple[str, ...] = ()


def find_project(start: Path | None = None) -> Project | None:
    """The project around ``start`` (the working directory), or None outside any."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / PYPROJECT
        if candidate.exists() or candidate.is_symlink():  # a folder or a pipe is refused
            project = read_project(candidate)
            if project is not None:
                return project
    return None


def _too_deep(text: str, limit: int = 100) -> str:
    """``line:col`` where ``text`` first nests more than ``limit`` arrays and inline
    tables (strings and comments skipped; a table header closes on its own line)."""
    depth, quote, line, start = 0, "", 1, 0
    for i, c in enumerate(text):
        if c == "\n":
            line, start = line + 1, i + 1
            if quote == "#":
                quote = ""
        elif quote:
            if c == quote and quote != "#" and text[i - 1] != "\\":
                quote = ""
        elif c in "\"'#":
            quote = c
        elif c in "[{":
            depth += 1
            if depth > limit:
                return f"{line}:{i - start + 1}"
        elif c in "]}":
            depth -= 1
    return "1"


def read_project(path: Path) -> Project | None:
    """The ``[tool.tlaconf]`` settings of ``path``; None when it has no such table."""
    try:
        text = read_text(path, "project file")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"cannot read {path}: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"{path}: not valid TOML: {err}") from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise UserError(f"{path}:{_too_deep(text)}: TOML nested deeper than Python's "
                        "parser can read (arrays or inline tables inside each other)"
                        ) from None
    table = doc.get("tool", {}).get("tlaconf") if isinstance(doc.get("tool"), dict) else None
    if table is None:
        return None
    where = f"{path}: [tool.tlaconf]"
    if not isinstance(table, dict):
        raise UserError(f"{where} must be a table")
    for key, value in table.items():
        kind = _KEYS.get(key)
        if kind is None:
            raise UserError(f"{where}: unknown key {key!r} (expected: {', '.join(_KEYS)})")
        if type(value) is not kind or (isinstance(value, list)
                                       and not all(type(v) is str for v in value)):
            raise UserError(f"{where}: {key} must be a {_KINDS[kind]}")
        if key in ("spec", "traces") and isinstance(value, str):
            why = "an empty string" if not value.strip() else too_long(value)
            if why is not None:
                raise UserError(f"{where}: {key} must be a path to a folder; it "
                                f"{'is ' if why[0] == 'a' else ''}{why}")
    root = path.parent

    def folder(key: str) -> Path | None:
        value = table.get(key)
        return None if value is None else root / value

    return Project(root, folder("spec"), folder("traces"), table.get("scenarios"),
                   bool(table.get("strict", False)), tuple(table.get("drivers", ())))
