"""Build revision R2 of the reference profile from revision R and the definitions pages publish.

* A page's definition whose name revision R defines replaces that definition
  in its module (``changed``), or keeps the old text when the two parse to the
  same AST (``unchanged``: layout and comments do not count); either way its
  provenance comment becomes ``\\* verbatim: PAGE, reference-profile · input
  revision N · LICENCE``.  An authored definition the page now publishes is
  replaced too, its comment block with it; a ``\\* @type:`` annotation line
  of the block stays, above the provenance comment (Apalache reads it).
* A new name is appended to the module :mod:`tlaconf.revision.placement` picks.
* Every other definition, authored ones included, is copied unchanged; so are
  the folder's other files.  A module that now uses a standard module's names
  (``Len``) it did not see gets that module added to its ``EXTENDS``.
* The new revision must parse and resolve together with ``conformance/`` and
  ``tcs/``, else nothing is written.  Writing goes through a temporary folder
  renamed into place.  An existing target folder is never overwritten: if it
  already holds every page definition (same AST) the revision is up to date,
  otherwise revise stops.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tlaconf.errors import UserError
from tlaconf.files import missing, read_text
from tlaconf.revision.pages import PageDefinition, read_page
from tlaconf.revision.placement import Placer, uses
from tlaconf.revision.profile import ProfileModule, read_revision
from tlaconf.spec import revision_dir
from tlaconf.tla.resolve import ResolveErrors, load, resolve_sources
from tlaconf.tla.stdnames import modules_of, standard_names

Status = Literal["unchanged", "changed", "new"]
_TYPE_NOTE = re.compile(r"\s*\\\*\s*@type:")
"""A model checker's type annotation in a comment block: it stays with the definition."""


@dataclass(frozen=True)
class OperatorChange:
    """What revise did with one definition a page publishes."""

    name: str
    module: str
    status: Status
    page: str
    line: int
    note: str = ""


@dataclass
class Revision:
    """A built revision: its folder, the files it holds and what changed."""

    source: str
    target: str
    folder: Path
    changes: list[OperatorChange]
    files: dict[str, str] = field(default_factory=dict)
    up_to_date: bool = False
    """The target folder already exists and holds every page definition."""


def _published(pages: Sequence[str | Path]) -> dict[str, PageDefinition]:
    out: dict[str, PageDefinition] = {}
    for page in pages:
        for d in read_page(page):
            prev = out.get(d.name)
            if prev is not None and prev.unit != d.unit:
                raise UserError(
                    f"{d.name} is published twice with different definitions (first at "
                    f"{prev.where})",
                    d.where,
                )
            out.setdefault(d.name, d)
    if not out:
        raise UserError(f"the pages {', '.join(map(str, pages))} publish no definition (no "
                        "'reference-profile' marker)")
    return out


def _target(published: dict[str, PageDefinition], target: str | None) -> str:
    if target is not None:
        return target
    named = sorted({d.revision for d in published.values()})
    if len(named) > 1:
        raise UserError(f"the pages' markers name revisions {', '.join(named)}: give --to R")
    return named[0]


def _new_in_order(published: dict[str, PageDefinition], home: dict[str, str]) -> list[str]:
    """The new names, each after the new ones it uses (page order otherwise)."""
    new = [n for n in published if n not in home]
    done: list[str] = []
    pending = list(new)
    while pending:
        ready = [n for n in pending if uses(published[n], pending) - {n} <= set(done)] or pending
        first = ready[0]
        done.append(first)
        pending.remove(first)
    return done


class _Editor:
    """Line edits to the modules of the revision being built."""

    def __init__(self, modules: dict[str, ProfileModule], source_dir: Path) -> None:
        self.modules = modules
        self.source_dir = source_dir
        self.replace: dict[str, list[tuple[int, int, list[str]]]] = {m: [] for m in modules}
        self.append: dict[str, list[list[str]]] = {m: [] for m in modules}
        self.standard: dict[str, set[str]] = {m: set() for m in modules}

    def put(self, module: str, defn: PageDefinition, keep_old: bool) -> str:
        """Replace ``defn.name`` in ``module`` (or append it); the note for the report."""
        pm = self.modules[module]
        old = pm.definitions().get(defn.name)
        self.standard[module].update(standard_names([defn.unit]))
        if old is None:
            self.append[module].append([defn.provenance(), *defn.text.split("\n"), ""])
            return ""
        start, kind = pm.provenance_block(old.span.line)
        old_text = pm.lines[old.span.line - 1 : old.span.end_line]
        body = old_text if keep_old else defn.text.split("\n")
        types = [ln for ln in pm.lines[start : old.span.line - 1] if _TYPE_NOTE.match(ln)]
        self.replace[module].append((start, old.span.end_line, [*types, defn.provenance(), *body]))
        return "replaces an authored definition" if kind == "authored" and not keep_old else ""

    def _visible(self, module: str) -> set[str]:
        try:
            return set(load(self.modules[module].path, [self.source_dir]).symbols)
        except UserError:
            return set()

    def _extends(self, module: str, lines: list[str]) -> list[str]:
        if not self.standard[module]:
            return lines
        missing = modules_of(self.standard[module] - self._visible(module))
        if not missing:
            return lines
        at = next((i for i, s in enumerate(lines) if re.match(r"\s*EXTENDS\b", s)), None)
        if at is None:
            return [lines[0], f"EXTENDS {', '.join(missing)}", *lines[1:]]
        while lines[at].rstrip().endswith(",") and at + 1 < len(lines):
            at += 1
        return [*lines[:at], f"{lines[at].rstrip()}, {', '.join(missing)}", *lines[at + 1 :]]

    def text(self, module: str) -> str:
        lines = list(self.modules[module].lines)
        for start, end, new in sorted(self.replace[module], reverse=True):
            lines[start:end] = new
        if self.append[module]:
            close = max(i for i, s in enumerate(lines) if s.strip().startswith("===="))
            block = [line for chunk in self.append[module] for line in chunk]
            if lines[close - 1].strip():
                block = ["", *block]
            lines[close:close] = block
        return "\n".join(self._extends(module, lines))


def _origin(
    err: UserError, files: dict[str, str], folder: Path, published: list[PageDefinition]
) -> str:
    """``err`` as text, with the page line it comes from when it lies in a page's definition."""
    text = str(err)
    file, line = getattr(err, "file", ""), getattr(err, "line", 0)
    if not line or Path(file).parent != folder or Path(file).name not in files:
        return text
    source = files[Path(file).name].split("\n")[line - 1].strip()
    for d in published:
        lines = [s.strip() for s in d.text.split("\n")]
        if source and source in lines:
            head, _, rest = text.partition("\n")
            return f"{head} (published at {d.page}:{d.line + lines.index(source)})\n{rest}"
    return text


def _validate(
    spec_dir: Path, folder: Path, files: dict[str, str], target: str,
    published: list[PageDefinition],
) -> None:  # fmt: skip
    """Parse and resolve the new revision with conformance/ and tcs/; UserError if it fails."""
    shared = [d for d in (spec_dir / "conformance", spec_dir / "tcs") if d.is_dir()]
    sources = [(str(folder / name), text) for name, text in files.items()
               if name.endswith(".tla")]  # fmt: skip
    sources += [(str(tla), read_text(tla, "module")) for d in shared
                for tla in sorted(d.glob("*.tla"))]  # fmt: skip
    try:
        resolve_sources(sources, shared)
    except ResolveErrors as err:
        detail = "\n".join(_origin(e, files, folder, published) for e in err.errors)
        raise _unresolved(target, detail) from None
    except UserError as err:
        raise _unresolved(target, _origin(err, files, folder, published)) from None


def _unresolved(target: str, detail: str) -> UserError:
    return UserError(f"revision {target} would not parse and resolve; nothing was written", None,
                     detail)  # fmt: skip


def _up_to_date(folder: Path, published: dict[str, PageDefinition]) -> bool:
    """Whether the existing ``folder`` defines every published definition with the same AST."""
    defined = {}
    for tla in sorted(folder.glob("*.tla")):
        defined.update(ProfileModule.read(tla).definitions())
    return all(defined.get(n) == d.unit for n, d in published.items())


def build_revision(
    spec_dir: Path, pages: Sequence[str | Path], source: str, target: str | None = None
) -> Revision:
    """Revision ``target`` (default: the pages' markers') from ``source`` and the pages."""
    published = _published(pages)
    target = _target(published, target)
    source_dir = revision_dir(spec_dir, source)
    folder = revision_dir(spec_dir, target)
    if (folder.exists() and not folder.is_dir()) or (folder.is_symlink() and not folder.exists()):
        raise UserError(f"revision {target}: {folder} "
                        f"{'is a file, not a folder' if folder.exists() else missing(folder)}")
    modules, others = read_revision(source_dir)
    home = {n: m.name for m in modules.values() for n in m.definitions()}
    editor = _Editor(modules, source_dir)
    changes: list[OperatorChange] = []
    for name, d in published.items():
        if name in home:
            same = modules[home[name]].definitions()[name] == d.unit
            note = editor.put(home[name], d, keep_old=same)
            status: Status = "unchanged" if same else "changed"
            changes.append(OperatorChange(name, home[name], status, d.page, d.line, note))
    placer = Placer(modules, published, home)
    for name in _new_in_order(published, home):
        d = published[name]
        module, why = placer.place(d)
        editor.put(module, d, keep_old=False)
        changes.append(OperatorChange(name, module, "new", d.page, d.line, f"placed: {why}"))
    order = {n: i for i, n in enumerate(published)}
    changes.sort(key=lambda c: order[c.name])
    files = {m.path.name: editor.text(name) for name, m in modules.items()}
    files.update(others)
    _validate(spec_dir, folder, files, target, list(published.values()))
    revision = Revision(source, target, folder, changes, files)
    if folder.exists():
        if not _up_to_date(folder, published):
            changed = ", ".join(c.name for c in changes if c.status != "unchanged")
            if folder.resolve() == source_dir.resolve():
                raise UserError(
                    f"the pages change revision {source} itself ({changed}): give --to a new "
                    "revision"
                )
            raise UserError(
                f"{folder} already exists and does not hold the pages' definitions: "
                "remove it to rebuild it, or choose another --to"
            )
        revision.up_to_date = True
    return revision


def write_revision(revision: Revision) -> None:
    """Write the revision's folder (through a temporary folder renamed into place)."""
    parent = revision.folder.parent
    tmp = Path(tempfile.mkdtemp(prefix=f".{revision.folder.name}.", dir=parent))
    try:
        for name, text in revision.files.items():
            (tmp / name).write_text(text, encoding="utf-8")
        os.rename(tmp, revision.folder)
    except OSError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(f"cannot write {revision.folder}: {err.strerror}") from None
