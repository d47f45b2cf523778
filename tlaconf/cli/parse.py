"""``tlaconf parse FILE...``: parse and resolve modules (``.tla``) or pages; list operators."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tlaconf.cli.inputs import existing_dir, existing_file
from tlaconf.errors import ExitCode, UserError
from tlaconf.files import read_text
from tlaconf.spec import default_spec_dir
from tlaconf.tla import ast
from tlaconf.tla.fragments import (
    extract,
    fragment_revisions,
    is_fragments_module,
    page_module,
    split_elsewhere,
)
from tlaconf.tla.library import library_path
from tlaconf.tla.parser import load_module_file
from tlaconf.tla.resolve import ResolveErrors, check_file_name, parse_file, resolve


def register(p: argparse.ArgumentParser) -> None:
    p.description = (
        "For each .tla file, parse every module and resolve its names (EXTENDS "
        "and INSTANCE are looked up in the file's folder, then in -I folders, then on the "
        "library path, then among the standard modules); for any other file (a page), "
        "parse the fragments that follow its 'reference-profile' markers, as the module "
        "'tlaconf fragments' writes for it.  Prints each module's operators (name/arity) or "
        "the errors; exit status 2 if there is any error.  In a page, or a module written by "
        "'tlaconf fragments', a name used but not defined is listed as defined elsewhere in "
        "the profile (with the profile module defining it, if found), not as an error."
    )
    p.add_argument("files", nargs="+", metavar="FILE", type=existing_file)
    p.add_argument(
        "-I",
        "--search-path",
        type=existing_dir,
        action="append",
        default=[],
        metavar="DIR",
        help="module search folder (repeatable)",
    )
    p.add_argument(
        "--revision",
        metavar="R",
        help="for a module inside a spec/ tree, also search spec/conformance, "
        "spec/reference-profile/revR and spec/tcs (default: the only revR folder, if one)",
    )
    p.add_argument("--no-resolve", action="store_true", help="parse only; do not resolve names")
    p.set_defaults(run=run)


def _show(name: str, operators: list[tuple[str, int]]) -> None:
    print(f"  MODULE {name}: {len(operators)} operator(s)")
    for op, arity in operators:
        print(f"    {op}/{arity}")


def _own_operators(m: ast.Module) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for u in m.units:
        if isinstance(u, ast.OpDef | ast.InstanceDef):
            out.append((u.name, len(u.params)))
        elif isinstance(u, ast.FnDef):
            out.append((u.name, 0))
    return out


def spec_search_path(path: Path, revision: str | None) -> list[Path]:
    """The spec/ folders for a module inside a ``spec/`` tree (the search path the README gives)."""
    spec = next((d for d in path.resolve().parents if d.name == "spec"), None)
    if spec is None:
        if revision is not None:
            raise UserError(f"--revision {revision} applies only to a module inside a spec/ "
                            f"tree, and {path} is not inside one")
        return []
    profile = spec / "reference-profile"
    if revision is None:
        revs = sorted(profile.glob("rev*")) if profile.is_dir() else []
        rev_dirs = revs if len(revs) == 1 else []
    else:
        rev_dir = profile / f"rev{revision}"
        if not rev_dir.is_dir():
            raise UserError(f"unknown revision {revision} (no folder {rev_dir})")
        rev_dirs = [rev_dir]
    return [d for d in [spec / "conformance", *rev_dirs, spec / "tcs"] if d.is_dir()]


def _profile_modules(path: Path, revisions: set[str]) -> dict[str, str]:
    """Name -> the profile module defining it, in the revisions' folders of the spec tree
    holding ``path`` (else the default spec directory); empty when there is none."""
    spec = next((d for d in path.resolve().parents if d.name == "spec"), None)
    if spec is None:
        try:
            spec = default_spec_dir()
        except UserError:
            return {}
    found: dict[str, str] = {}
    for revision in sorted(revisions):
        for tla in sorted((spec / "reference-profile" / f"rev{revision}").glob("*.tla")):
            try:
                names = load_module_file(tla).definitions()
            except UserError:
                continue
            for name in names:
                found.setdefault(name, f"in {tla.stem} (revision {revision})")
    return found


def _resolve_fragments(
    path: Path, module: ast.Module, text: str, search: list[str | Path], revisions: set[str]
) -> None:
    """Resolve a page's (or a fragments module's) definitions; names used but not defined
    are listed as defined elsewhere in the profile; other errors raise."""
    try:
        resolve(module, [path.parent, *search], file=str(path), text=text)
        return
    except ResolveErrors as err:
        elsewhere, real = split_elsewhere(err.errors)
    if elsewhere:
        where = _profile_modules(path, revisions)
        print(f"  defined elsewhere in the profile: {len(elsewhere)} name(s)")
        for name, first in elsewhere.items():
            found = where.get(name, "not in the profile" if where else "")
            print(f"    {name}  (used at {first.location})" + (f"  {found}" if found else ""))
    if real:
        raise ResolveErrors(real)


def _check(path: Path, search: list[str | Path], no_resolve: bool) -> None:
    if path.suffix != ".tla":
        text = read_text(path, "page")
        fragments = extract(text, str(path))
        print(f"{path}: page, {len(fragments)} fragment(s)")
        for f in fragments:
            ops = [(u.name, len(u.params)) for u in f.units if isinstance(u, ast.OpDef)]
            ops += [(u.name, 0) for u in f.units if isinstance(u, ast.FnDef)]
            _show(f"(fragment at line {f.line}, revision {f.revision})", ops)
        if fragments and not no_resolve:
            revisions = {f.revision for f in fragments}
            _resolve_fragments(path, page_module(path, fragments), text, search, revisions)
        return
    modules, text = parse_file(path)
    if not no_resolve:
        check_file_name(path, modules[0], text)
    print(f"{path}:")
    fragments_module = is_fragments_module(text)
    for i, m in enumerate(modules):
        if fragments_module and not no_resolve:
            _show(m.name, _own_operators(m))
            _resolve_fragments(path, m, text, search, fragment_revisions(text))
            continue
        if not no_resolve:
            siblings = [x for j, x in enumerate(modules) if j != i]
            resolve(m, [path.parent, *search], file=str(path), text=text, siblings=siblings)
        _show(m.name, _own_operators(m))


def run(args: argparse.Namespace) -> ExitCode:
    unused = [flag for flag, value in (("-I/--search-path", args.search_path),
                                       ("--revision", args.revision),
                                       ("--library", args.library)) if value]
    if args.no_resolve and unused:
        raise UserError(f"{', '.join(unused)} say where names are resolved: they do not "
                        "apply with --no-resolve")
    failed = False
    library = library_path()  # --library first (checked by the command line)
    for name in args.files:
        try:
            path = Path(name)
            search = [*args.search_path, *spec_search_path(path, args.revision), *library]
            _check(path, search, args.no_resolve)
        except UserError as err:
            failed = True
            print(f"{name}: error", file=sys.stdout)
            print(str(err), file=sys.stderr)
    return ExitCode.BAD_INPUT if failed else ExitCode.OK
