"""Which operators changed between two revisions of ``spec/``, and which golden traces that affects.

Both directories are parsed module by module (every ``*.tla`` below them, keyed
by the path relative to the directory); definitions (operators, functions,
named instances) are compared as ASTs, whose equality ignores source positions,
so reformatting, comments and moved definitions are not changes.

* **changed**: a definition present in both revisions with a different AST,
  or added, or removed; a module whose ``EXTENDS``, ``CONSTANTS`` or
  ``VARIABLES`` differ counts every one of its definitions as changed;
* **affected**: a definition of the new revision that uses a changed one,
  directly or through other definitions: names are bound by the resolver, as TLC
  binds them (LOCAL, EXTENDS, INSTANCE ... WITH; a LET definition, parameter or
  bound variable hides a definition of the same name), each module on the search
  path replay uses for a revision (``conformance/``, ``reference-profile/revR/``,
  ``tcs/``; a module outside the revision folders under every revision it
  resolves under);
* **golden traces affected**: every ``*.trace.jsonl`` below the traces folder
  whose header module (looked up as replay does, for the header's revision, or
  the new revision when comparing two revisions) has a changed or affected
  definition, or whose ``.cfg`` changed.

The two directories are either two ``spec/`` trees, or two revision folders
``spec/reference-profile/revR1`` and ``.../revR2``: then each side is its tree
as that revision sees it (``conformance/``, ``tcs/`` and that one revision
folder), and a module of revR1 pairs with the same file of revR2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlaconf.errors import UserError
from tlaconf.files import read_text
from tlaconf.spec.lookup import search_path
from tlaconf.tla import ast
from tlaconf.tla.parser import load_module_file
from tlaconf.tla.resolve import ResolvedModule, Symbol, load
from tlaconf.tla.visit import FreeName, free_names
from tlaconf.trace.reader import open_trace

Key = tuple[str, str]
"""A definition: (module path relative to the spec directory, definition name)."""


PROFILE = "reference-profile"


def revision_of(folder: Path) -> str | None:
    """R for a folder ``.../reference-profile/revR``, else None."""
    if folder.parent.name == PROFILE and folder.name.startswith("rev") and len(folder.name) > 3:
        return folder.name[3:]
    return None


@dataclass(frozen=True)
class SpecTree:
    """The parsed modules of one ``spec/`` directory (or one revision's view of it), by key:
    the path relative to the directory (a revision's modules keyed under ``key_revision``)."""

    root: Path
    modules: dict[str, ast.Module]
    paths: dict[str, Path] = field(default_factory=dict)
    revision: str | None = None
    """The revision this view is of (None: the whole tree)."""

    @classmethod
    def load(
        cls, root: Path, revision: str | None = None, key_revision: str | None = None
    ) -> SpecTree:
        if not root.is_dir():
            raise UserError(f"{root} is not a directory")
        paths: dict[str, Path] = {}
        for p in sorted(root.rglob("*.tla")):
            rel = p.relative_to(root).as_posix()
            if revision is not None and rel.startswith(f"{PROFILE}/"):
                own = f"{PROFILE}/rev{revision}/"
                if not rel.startswith(own):
                    continue
                rel = f"{PROFILE}/rev{key_revision or revision}/" + rel[len(own) :]
            paths[rel] = p
        return cls(root, {k: load_module_file(p) for k, p in paths.items()}, paths, revision)


def _header(module: ast.Module) -> tuple[Any, ...]:
    return (module.extends, module.constants(), module.variables())


@dataclass
class Dependencies:
    """The definitions each definition of a tree uses, as the resolver binds its names
    (:mod:`tlaconf.tla.resolve`: LOCAL, EXTENDS, INSTANCE ... WITH; a LET definition or a
    bound variable hides a definition of the same name).  Each module is resolved on the
    search path replay uses (:func:`tlaconf.spec.lookup.search_path`); one outside the
    revision folders, for each revision under which it resolves."""

    tree: SpecTree
    uses: dict[Key, set[Key]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        keys = {p.resolve(): rel for rel, p in self.tree.paths.items()}
        for rel, path in self.tree.paths.items():
            resolved = [(rm, _through_instances(rm)) for rm in _resolved(self.tree, rel, path)]
            for name in self.tree.modules[rel].definitions():
                uses = self.uses.setdefault((rel, name), set())
                for rm, through in resolved:
                    uses |= _uses(rm, rm.module.definitions()[name], keys, through)


def _resolved(tree: SpecTree, rel: str, path: Path) -> list[ResolvedModule]:
    """The module at ``rel`` resolved for each revision it may be read under (the
    resolver's errors when it resolves under none)."""
    profile = tree.root / PROFILE
    if rel.startswith(f"{PROFILE}/rev"):
        revisions = [tree.revision or rel.split("/")[1][3:]]
    elif tree.revision is not None:
        revisions = [tree.revision]
    else:
        revisions = sorted(d.name[3:] for d in profile.glob("rev?*") if d.is_dir()) or [""]
    out: list[ResolvedModule] = []
    first: UserError | None = None
    for rev in revisions:
        try:
            out.append(load(path, search_path(tree.root, rev)))
        except UserError as err:
            first = first or err
    if not out and first is not None:
        raise first
    return out


def _substituted(rm: ResolvedModule, inst: ast.Instance, bound: list[str]) -> set[FreeName]:
    """The names an INSTANCE's substitutions use: those written after WITH, and each
    CONSTANT or VARIABLE left out (substituted by the name of the instantiating module)."""
    out = free_names(inst, bound)
    target = rm.graph.modules.get(inst.module)
    if target is not None:
        given = {n for n, _ in inst.substitutions}
        out |= {(n, ()) for n, s in target.symbols.items()
                if s.kind in ("constant", "variable") and n not in given and n not in bound}
    return out


def _free(rm: ResolvedModule, unit: ast.OpDef | ast.FnDef | ast.InstanceDef) -> set[FreeName]:
    """The names a definition uses (its parameters and bound names excepted)."""
    if isinstance(unit, ast.OpDef):
        return free_names(unit.body, [p.name for p in unit.params])
    if isinstance(unit, ast.InstanceDef):
        return _substituted(rm, unit.instance, [p.name for p in unit.params])
    out = free_names(unit.body, [n for b in unit.bounds for n in b.names])
    for b in unit.bounds:
        if b.domain is not None:
            out |= free_names(b.domain)
    return out


Through = dict[int, list[tuple[ResolvedModule, set[FreeName]]]]
"""Symbol (by identity) -> the modules whose unnamed INSTANCE imports it, and the names
that instance's substitutions use."""


def _through_instances(rm: ResolvedModule) -> Through:
    """For each symbol (by identity) an unnamed ``INSTANCE M WITH ...`` of a module of
    ``rm``'s graph imports: that module and the names its substitutions use."""
    out: Through = {}
    for home in rm.graph.modules.values():
        for u in home.module.units:
            target = rm.graph.modules.get(u.module) if isinstance(u, ast.Instance) else None
            if target is None or not isinstance(u, ast.Instance):
                continue
            names = _substituted(home, u, [])
            for sym in target.exported.values():
                out.setdefault(id(sym), []).append((home, names))
    return out


def _uses(rm: ResolvedModule, unit: ast.OpDef | ast.FnDef | ast.InstanceDef,
          keys: dict[Path, str], through: Through) -> set[Key]:  # fmt: skip
    """The tree's definitions ``unit`` (a definition of ``rm``) refers to: each name
    through ``rm``'s symbol table, ``I!N`` through the instance's exported names."""

    def key(sym: Symbol) -> Key | None:
        home = rm.graph.modules.get(sym.module)
        if home is None or sym.kind not in ("operator", "function", "instance"):
            return None
        rel = keys.get(Path(home.file).resolve()) if not home.standard else None
        return (rel, sym.name) if rel is not None else None

    found: set[Key | None] = set()
    for name, path in _free(rm, unit):
        sym = rm.symbols.get(path[0] if path else name)
        if sym is None:
            continue
        found.add(key(sym))  # for I!N: the instance definition I itself
        for home, names in through.get(id(sym), ()):  # imported by an unnamed INSTANCE
            found |= {key(s) for n, p in names if not p and (s := home.symbols.get(n))}
        target = sym.target
        for step in path[1:]:
            step_sym = target.exported.get(step) if target is not None else None
            if step_sym is not None:
                found.add(key(step_sym))
            target = step_sym.target if step_sym is not None else None
        if path and target is not None and (named := target.exported.get(name)) is not None:
            found.add(key(named))
    return {k for k in found if k is not None}


@dataclass(frozen=True)
class SpecDiff:
    """What changed between two spec trees (keys refer to the new tree, or the old for removals)."""

    added: tuple[Key, ...]
    removed: tuple[Key, ...]
    modified: tuple[Key, ...]
    affected: dict[Key, tuple[Key, ...]]
    """Definitions that use a changed one (transitively) -> the changed ones they reach."""
    cfg_changed: tuple[str, ...]

    @property
    def changed(self) -> set[Key]:
        return {*self.added, *self.modified}

    def touched(self) -> set[Key]:
        return self.changed | set(self.affected)


def load_pair(old_dir: Path, new_dir: Path) -> tuple[SpecTree, SpecTree]:
    """The two sides of a comparison: two trees, or two revision folders' views."""
    old_rev, new_rev = revision_of(old_dir.resolve()), revision_of(new_dir.resolve())
    if (old_rev is None) != (new_rev is None):
        raise UserError(
            "compare two spec/ directories or two revision folders (spec/reference-profile/revR),"
            f" not {old_dir} with {new_dir}"
        )
    if old_rev is None or new_rev is None:
        return SpecTree.load(old_dir), SpecTree.load(new_dir)
    old_root, new_root = old_dir.resolve().parents[1], new_dir.resolve().parents[1]
    return SpecTree.load(old_root, old_rev, new_rev), SpecTree.load(new_root, new_rev)


def diff_specs(old_dir: Path, new_dir: Path) -> SpecDiff:
    """Compare the spec trees (or revision folders) ``old_dir`` and ``new_dir``."""
    return diff_trees(*load_pair(old_dir, new_dir))


def diff_trees(old: SpecTree, new: SpecTree) -> SpecDiff:
    """Compare two loaded spec trees."""
    old_dir, new_dir = old.root, new.root
    old_defs = {(p, n): d for p, m in old.modules.items() for n, d in m.definitions().items()}
    new_defs = {(p, n): d for p, m in new.modules.items() for n, d in m.definitions().items()}
    header_changed = {
        p for p, m in new.modules.items()
        if p in old.modules and _header(old.modules[p]) != _header(m)
    }  # fmt: skip
    added = sorted(k for k in new_defs if k not in old_defs)
    removed = sorted(k for k in old_defs if k not in new_defs)
    modified = sorted(
        k for k in new_defs
        if k in old_defs and (old_defs[k] != new_defs[k] or k[0] in header_changed)
    )  # fmt: skip
    deps = Dependencies(new)
    changed = set(added) | set(modified)
    affected: dict[Key, tuple[Key, ...]] = {}
    for key in deps.uses:
        reached = _reach(key, deps.uses) & changed - {key}
        if reached and key not in changed:
            affected[key] = tuple(sorted(reached))
    cfg_changed = tuple(sorted(
        p.relative_to(new_dir).as_posix() for p in new_dir.rglob("*.cfg")
        if _cfg_text(p) != _cfg_text(old_dir / p.relative_to(new_dir))
        and (new.revision is None or not p.relative_to(new_dir).as_posix().startswith(PROFILE))
    ))  # fmt: skip
    return SpecDiff(tuple(added), tuple(removed), tuple(modified), affected, cfg_changed)


def _reach(start: Key, uses: dict[Key, set[Key]]) -> set[Key]:
    seen: set[Key] = set()
    todo = list(uses.get(start, ()))
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo.extend(uses.get(k, ()))
    return seen


def _cfg_text(path: Path) -> list[str] | None:
    """The lines of a .cfg without comments; None when there is none (a named pipe or a
    symbolic-link loop is refused by ``read_text``, not read as no .cfg)."""
    if not path.exists() and not path.is_symlink():
        return None
    lines = (line.split("\\*", 1)[0].strip() for line in read_text(path, "config").splitlines())
    return [line for line in lines if line]


@dataclass(frozen=True)
class TraceImpact:
    """A golden trace and why it is affected."""

    path: str
    module: str
    reasons: tuple[str, ...]


def affected_traces(
    diff: SpecDiff, new_dir: Path, traces_dir: Path, revision: str | None = None
) -> list[TraceImpact]:
    """The golden traces under ``traces_dir`` whose conformance module the diff touches
    (looked up for ``revision``, default: the revision each trace's header names)."""
    out: list[TraceImpact] = []
    touched = diff.touched() | set(diff.removed)
    for trace in sorted(traces_dir.rglob("*.trace.jsonl")):
        with open_trace(trace) as t:
            module, revision_used = t.header.module, revision or t.header.revision
        folders = ("conformance", f"reference-profile/rev{revision_used}", "tcs")
        path = next(
            (f"{d}/{module}.tla" for d in folders if (new_dir / d / f"{module}.tla").is_file()),
            None,
        )
        reasons: list[str] = []
        if path is None:
            reasons.append(f"module {module} (revision {revision_used}) is not in the new spec")
        else:
            reasons += [f"{name} {_why(diff, (p, name))}" for p, name in sorted(touched)
                        if p == path]  # fmt: skip
            cfg = path[: -len(".tla")] + ".cfg"
            if cfg in diff.cfg_changed:
                reasons.append(f"{cfg} changed")
        if reasons:
            rel = trace.relative_to(traces_dir).as_posix()
            out.append(TraceImpact(rel, module, tuple(reasons)))
    return out


def traces_using(
    tree: SpecTree, traces_dir: Path, revision: str | None = None
) -> dict[Key, list[Path]]:
    """Definition -> the golden traces whose conformance module uses it (directly or not)."""
    deps = Dependencies(tree)
    out: dict[Key, list[Path]] = {}
    for trace in sorted(traces_dir.rglob("*.trace.jsonl")):
        with open_trace(trace) as t:
            module, rev = t.header.module, revision or t.header.revision
        folders = ("conformance", f"reference-profile/rev{rev}", "tcs")
        path = next((p for d in folders if (p := f"{d}/{module}.tla") in tree.modules), None)
        if path is None:
            continue
        own = {(path, n) for n in tree.modules[path].definitions()}
        for key in own | {k for o in own for k in _reach(o, deps.uses)}:
            out.setdefault(key, []).append(trace)
    return out


def _why(diff: SpecDiff, key: Key) -> str:
    if key in diff.affected:
        return "uses " + ", ".join(f"{n} ({p})" for p, n in diff.affected[key])
    if key in diff.added:
        return "added"
    if key in diff.removed:
        return "removed"
    return "changed"
