"""One revision of the reference profile as text to edit: its modules, what they define and cite.

:class:`ProfileModule` holds a module's lines (edited in place by
:mod:`tlaconf.revision.build`), its parsed AST, the pages and sections its
provenance comments cite (``\\* verbatim: PAGE, ...``, ``\\* authored: PAGE,
SECTION``), its header comment, and the modules it imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.files import read_text
from tlaconf.revision.pages import normalize
from tlaconf.tla import ast
from tlaconf.tla.parser import parse_modules

PROVENANCE_RE = re.compile(
    r"^\\\*\s*(?P<kind>verbatim|authored):\s*(?P<page>[^,]+)(?:,\s*(?P<rest>.*))?$"
)


@dataclass
class ProfileModule:
    """One ``.tla`` file of a revision folder."""

    path: Path
    lines: list[str]
    module: ast.Module
    pages: set[str] = field(default_factory=set)
    sections: set[str] = field(default_factory=set)
    header: str = ""

    @property
    def name(self) -> str:
        return self.module.name

    @classmethod
    def read(cls, path: Path) -> ProfileModule:
        try:
            text = read_text(path, "module")
        except (OSError, UnicodeDecodeError) as err:
            raise UserError(f"cannot read module: {err}", str(path)) from None
        pm = cls(path, text.split("\n"), parse_modules(text, str(path))[0])
        for line in pm.lines:
            m = PROVENANCE_RE.match(line.strip())
            if m is not None:
                pm.pages.add(m["page"].strip())
                if m["kind"] == "authored" and m["rest"]:
                    pm.sections.add(normalize(m["rest"]))
        head: list[str] = []
        for line in pm.lines[1:]:
            if not line.strip().startswith(("(*", "\\*")):
                break
            head.append(line.strip().strip("()*\\ "))
        pm.header = normalize(" ".join(head))
        return pm

    def definitions(self) -> dict[str, ast.OpDef | ast.FnDef | ast.InstanceDef]:
        return self.module.definitions()

    def imports(self) -> tuple[str, ...]:
        """Modules whose definitions it sees unqualified: EXTENDS and unnamed INSTANCEs."""
        unnamed = tuple(u.module for u in self.module.units if isinstance(u, ast.Instance))
        return self.module.extends + unnamed

    def provenance_block(self, line: int) -> tuple[int, str | None]:
        """For a definition starting at 1-based ``line``: the 0-based index where its comment
        block starts and the block's provenance kind (None: no provenance comment above)."""
        start = line - 1
        while start > 0 and self.lines[start - 1].strip().startswith("\\*"):
            start -= 1
        if start == line - 1:
            return start, None
        first = start  # the block's type annotations may come before its provenance
        while first < line - 2 and re.match(r"\\\*\s*@type:", self.lines[first].strip()):
            first += 1
        m = PROVENANCE_RE.match(self.lines[first].strip())
        return (start, m["kind"]) if m else (line - 1, None)


def read_revision(folder: Path) -> tuple[dict[str, ProfileModule], dict[str, str]]:
    """The modules of a revision folder by module name, and its other files (name -> text)."""
    if not folder.is_dir():
        raise UserError(f"unknown revision: there is no folder {folder}")
    modules: dict[str, ProfileModule] = {}
    others: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix == ".tla":
            pm = ProfileModule.read(path)
            modules[pm.name] = pm
        elif path.is_file():
            try:
                others[path.name] = read_text(path, "module")
            except (OSError, UnicodeDecodeError) as err:
                raise UserError(f"cannot read {path}: {err}") from None
    if not modules:
        raise UserError(f"revision folder {folder} holds no .tla module")
    return modules, others


def import_closure(modules: dict[str, ProfileModule], name: str) -> set[str]:
    """``name`` and every profile module it imports, transitively."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in modules:
            continue
        seen.add(n)
        todo.extend(modules[n].imports())
    return seen
