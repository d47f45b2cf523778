"""``tlaconf.validate`` and ``tlaconf.explore`` use only public names of the packages
below them: no ``_name`` imported from another package, no ``obj._attr`` on anything but
``self`` and ``cls``; and validate uses the explorer only through ``tlaconf.explore``
itself (not its modules)."""

from __future__ import annotations

import ast
from pathlib import Path

import tlaconf

ROOT = Path(tlaconf.__file__).resolve().parent


def private_uses(source: str, name: str, package: str = "validate") -> list[str]:
    """``file:line: what`` for every private cross-package use in ``source``, a module of
    ``tlaconf.<package>``."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("tlaconf.explore.") and package != "explore":
                bad.append(f"{name}:{node.lineno}: imports {node.module} (use tlaconf.explore)")
            if node.module.startswith("tlaconf.") and not node.module.startswith(
                    f"tlaconf.{package}"):
                bad += [f"{name}:{node.lineno}: imports {a.name} from {node.module}"
                        for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                bad.append(f"{name}:{node.lineno}: .{node.attr}")
    return bad


def test_validate_and_explore_use_public_names_only() -> None:
    bad = [b for package in ("validate", "explore")
           for p in sorted((ROOT / package).glob("*.py"))
           for b in private_uses(p.read_text(encoding="utf-8"), p.name, package)]
    assert bad == []


def test_the_check_finds_each_kind() -> None:
    source = ("from tlaconf.spec.cfg import _tokens\n"
              "from tlaconf.explore.adapter import Successors\n"
              "x = ctx._call_node('A', ())\n"
              "y = self._own\n")
    assert private_uses(source, "m.py") == [
        "m.py:1: imports _tokens from tlaconf.spec.cfg",
        "m.py:2: imports tlaconf.explore.adapter (use tlaconf.explore)",
        "m.py:3: ._call_node",
    ]
