"""The evaluator core is made of parts with one job each, composed, not stacked.

Found by reading the source (``ast``), for ``tlaconf.evaluate`` and ``tlaconf.values``:

* no import cycle between their modules (imports inside functions included, blocks
  under ``if TYPE_CHECKING`` excepted: they are never run);
* no class inherits from more than one class of the project (no mixins sharing one
  ``self``);
* no assignment to another object's private (``_name``) attribute: only a class writes
  the private fields it declares (on ``self``, or on another instance of its own kind).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tlaconf
from tlaconf.explore.temporal.scc import components

ROOT = Path(tlaconf.__file__).resolve().parent
PACKAGES = ("evaluate", "values")


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _run_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        stack += [c for c in ast.iter_child_nodes(node) if not _type_checking(c)]
    return out


def imports_of(source: str, module: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``source`` (the text of ``module``) imports."""
    package = module if module.endswith(PACKAGES) else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in _run_nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1],
                                 *([base] if base else [])])
            subs = {f"{base}.{a.name}" for a in node.names}
            found |= {m for m in subs if m in known} or {base}
    return {m for m in found if m in known and m != module}


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    known = set(sources)
    return {m: imports_of(src, m, known) for m, src in sources.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module."""
    names = sorted(graph)
    number = {m: i for i, m in enumerate(names)}
    found = components(range(len(names)), lambda i: [number[m] for m in graph[names[i]]],
                       lambda i: True)
    return sorted(sorted(names[i] for i in comp) for comp in found if len(comp) > 1)


def _project_names(tree: ast.Module) -> set[str]:
    """Names bound in a module to a class of the project: imported from ``tlaconf`` or
    defined there."""
    names = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                "tlaconf")):
            names |= {a.asname or a.name for a in node.names}
    return names


def _base_name(base: ast.expr) -> str:
    while isinstance(base, ast.Subscript):
        base = base.value
    return ast.unparse(base).split(".")[-1]


def multiple_bases(source: str) -> list[tuple[str, list[str]]]:
    """The classes of ``source`` with more than one base class from the project."""
    tree = ast.parse(source)
    project = _project_names(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [_base_name(b) for b in node.bases]
            mine = [b for b in bases if b in project]
            if len(mine) > 1:
                out.append((node.name, mine))
    return out


def _declared(cls: ast.ClassDef) -> set[str]:
    """The attributes a class declares: in ``__slots__`` or assigned on ``self``/``cls``."""
    names: set[str] = set()
    for n in ast.walk(cls):
        if (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name) and n.value.id in ("self", "cls")):
            names.add(n.attr)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                             for t in n.targets):
            names |= {c.value for c in ast.walk(n.value)
                      if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return names


def _stores(target: ast.expr) -> list[ast.expr]:
    """The places an assignment target stores into (a tuple's items, one by one)."""
    if isinstance(target, ast.Tuple | ast.List):
        return [x for e in target.elts for x in _stores(e)]
    if isinstance(target, ast.Starred):
        return _stores(target.value)
    return [target]


def private_writes(source: str) -> list[tuple[int, str]]:
    """(line, target) of each assignment to an object's ``_private`` attribute (or an item
    of it) made outside the class that declares it."""
    out: list[tuple[int, str]] = []

    def visit(node: ast.AST, own: set[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, _declared(child))
                continue
            targets: list[ast.expr] = []
            if isinstance(child, ast.Assign):
                targets = child.targets
            elif isinstance(child, ast.AugAssign | ast.AnnAssign):
                targets = [child.target]
            for target in targets:
                for sub in _stores(target):
                    t = sub
                    while isinstance(t, ast.Subscript):
                        t = t.value
                    if (isinstance(t, ast.Attribute) and t.attr.startswith("_")
                            and not t.attr.startswith("__")
                            and not (isinstance(t.value, ast.Name)
                                     and t.value.id in ("self", "cls"))
                            and t.attr not in own):
                        out.append((child.lineno, ast.unparse(target)))
            visit(child, own)

    visit(ast.parse(source), set())
    return out


SOURCES = {_module(p): p.read_text(encoding="utf-8") for pkg in PACKAGES for p in _files(pkg)}


def test_no_import_cycle() -> None:
    assert cycles(import_graph(SOURCES)) == []


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_no_class_stacks_project_classes(module: str) -> None:
    assert multiple_bases(SOURCES[module]) == []


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_no_private_field_written_from_outside(module: str) -> None:
    assert private_writes(SOURCES[module]) == []


# --------------------------------------------------------------- the checks themselves


def test_a_cycle_through_a_function_level_import_is_found() -> None:
    graph = import_graph({
        "tlaconf.evaluate.a": "from tlaconf.evaluate.b import f\n",
        "tlaconf.evaluate.b": "def f():\n    from tlaconf.evaluate import a\n",
        "tlaconf.evaluate.c": "from tlaconf.evaluate import a\n",
        "tlaconf.evaluate.d": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                               "    from tlaconf.evaluate import c\n"),
    })
    assert cycles(graph) == [["tlaconf.evaluate.a", "tlaconf.evaluate.b"]]


def test_the_old_module_ends_of_the_cycle_are_found() -> None:
    graph = import_graph({
        "tlaconf.evaluate.lazysets": "from tlaconf.evaluate import semantics as sem  # last\n",
        "tlaconf.evaluate.semantics": "from tlaconf.evaluate.lazysets import LazySet\n",
    })
    assert cycles(graph) == [["tlaconf.evaluate.lazysets", "tlaconf.evaluate.semantics"]]


def test_mixins_are_found() -> None:
    src = ("from tlaconf.evaluate.fold import Folding\n"
           "from tlaconf.evaluate.fastpaths import FastPaths\n"
           "from typing import Generic\n"
           "class Compiler(Folding, FastPaths): pass\n"
           "class One(Folding, Generic[T]): pass\n"
           "class Own(dict[str, int]): pass\n"
           "class Two(Own, One): pass\n")
    assert multiple_bases(src) == [("Compiler", ["Folding", "FastPaths"]),
                                   ("Two", ["Own", "One"])]


def test_private_writes_from_outside_are_found() -> None:
    src = ("class Walker:\n"
           "    __slots__ = ('_seen',)\n"
           "    def go(self, comp, other):\n"
           "        self._mine = 1\n"
           "        other._seen = 2\n"
           "        comp._consts[3] = 4\n"
           "        comp.G['x'] = 5\n"
           "def f(out):\n"
           "    out._d = {}\n")
    assert private_writes(src) == [(6, "comp._consts[3]"), (9, "out._d")]
