"""Where conformance modules are found: the spec directory and its search path.

The spec directory is ``--spec DIR`` when given; otherwise the ``spec`` of the
project's ``[tool.tlaconf]`` (see :mod:`tlaconf.spec.project`), else
``<project>/spec``; otherwise ``./spec`` when the current directory has one;
otherwise the ``spec/`` folder of the tlaconf checkout the package runs from.
For a trace of revision R the search path is ``spec/conformance/``,
``spec/reference-profile/revR/``, ``spec/tcs/`` (in that order, folders that
exist); a spec directory without ``reference-profile/`` (a project with no
profile) has no revisions: its search path is ``conformance/``, ``tcs/`` and the
folder itself.  The library path (``--library``, ``TLACONF_LIBRARY``) comes last.
The module ``M`` is the first ``M.tla`` on it, and its constants and invariants
come from ``M.cfg`` beside it (none when there is no ``.cfg``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.spec.cfg import read_cfg
from tlaconf.spec.module_spec import ModuleSpec
from tlaconf.spec.project import PYPROJECT, find_project
from tlaconf.tla.library import library_path
from tlaconf.values import ModelValue, kind, to_tla

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_REVISION = re.compile(r"[A-Za-z0-9_.-]+\Z")


def default_dir(name: str, option: str) -> Path:
    """The project's ``<name>`` folder (its ``[tool.tlaconf]`` setting, else
    ``<project>/<name>``; inside a project nothing else), else ``./<name>`` if present,
    else the checkout's ``<name>/``; UserError naming ``option``."""
    project = find_project()
    if project is not None:
        configured = getattr(project, name, None)
        folder = configured if isinstance(configured, Path) else project.root / name
        if folder.is_dir():
            return folder
        if configured is not None:
            raise UserError(f"{project.root / PYPROJECT}: [tool.tlaconf] {name} = "
                            f"{folder}: no such directory")
        raise UserError(f"no {name} directory in the project {project.root} (no {folder}): "
                        f"create it, set [tool.tlaconf] {name} in {PYPROJECT}, or pass {option}")
    here = Path.cwd() / name
    if here.is_dir():
        return here
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise UserError(f"no {name} directory: there is no ./{name} here; pass {option}")


def default_spec_dir() -> Path:
    """``./spec`` if present, else the checkout's ``spec/``; UserError when neither exists."""
    return default_dir("spec", "--spec DIR")


def resolve_spec_dir(spec: str | Path | None) -> Path:
    """The spec directory to use for ``--spec`` (None = the default)."""
    if spec is None:
        return default_spec_dir()
    path = Path(spec)
    if not path.is_dir():
        why = "is not a directory" if path.exists() else "does not exist"
        raise UserError(f"spec directory {path} {why}")
    return path


def revision_dir(spec_dir: Path, revision: str) -> Path:
    """``spec_dir/reference-profile/rev<revision>`` (which may not exist); UserError when
    ``revision`` is not a revision name."""
    if not _REVISION.match(revision):
        raise UserError(f"{revision!r} is not a revision name (letters, digits, '_', '.', '-')")
    return spec_dir / "reference-profile" / f"rev{revision}"


def search_path(spec_dir: Path, revision: str) -> tuple[Path, ...]:
    """The module search path for ``revision``, then the library path
    (:mod:`tlaconf.tla.library`); UserError "unknown revision" without revR/ (a spec
    directory without ``reference-profile/`` has no revisions to choose from)."""
    if not (spec_dir / "reference-profile").is_dir():
        dirs: tuple[Path, ...] = (spec_dir / "conformance", spec_dir / "tcs", spec_dir)
    else:
        rev = spec_dir / "reference-profile" / f"rev{revision}"
        if not _REVISION.match(revision) or not rev.is_dir():
            raise UserError(f"unknown revision {revision!r} (there is no {rev})")
        dirs = (spec_dir / "conformance", rev, spec_dir / "tcs")
    return tuple(d for d in dirs if d.is_dir()) + library_path()


def module_spec(
    spec_dir: Path, module: str, revision: str, header_constants: Mapping[str, Any]
) -> ModuleSpec:
    """Find ``module`` for ``revision``: its file, search path, constants and invariants."""
    path_dirs = search_path(spec_dir, revision)
    if not _NAME.match(module):
        raise UserError(f"unknown module {module!r} (not a TLA+ module name)")
    for d in path_dirs:
        tla = d / f"{module}.tla"
        if tla.exists():  # a directory or pipe of that name is reported when read
            break
    else:
        where = ", ".join(str(d) for d in path_dirs) or str(spec_dir)
        raise UserError(f"unknown module {module!r} (no {module}.tla in {where})")
    cfg_path = tla.with_suffix(".cfg")
    constants: dict[str, Any] = {}
    invariants: tuple[str, ...] = ()
    origins: dict[str, str] = {}
    if cfg_path.exists():
        cfg = read_cfg(cfg_path)
        constants.update(cfg.constants)
        invariants = cfg.invariants
        origins = {name: f"{cfg_path}:{line}" for name, line in cfg.lines.items()}
    for name, value in header_constants.items():
        given = constants.get(name)
        if given is not None and type(given) is not ModelValue and kind(given) != kind(value):
            raise UserError(
                f"the header's constant {name} is the {kind(value)} {to_tla(value, 60)}, but "
                f"{origins.get(name, cfg_path)} gives {name} the {kind(given)} "
                f"{to_tla(given, 60)}: a header constant replaces the .cfg's value with one "
                "of the same kind")
    constants.update(header_constants)
    return ModuleSpec(module, tla, path_dirs, constants, invariants, origins)
