"""The package layers: parse -> evaluate -> replay -> report, imports only go down.

Every ``import`` of a ``tlaconf`` module (at module level or inside a function)
is checked against the rank of the importing package: a package may import its
own modules and those of lower layers, never a higher one.  ``harness`` (the
implementation under test) may use only the public recorder, the trace writer, values
and errors.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tlaconf

ROOT = Path(tlaconf.__file__).resolve().parent
CHECKOUT = ROOT.parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),
    ("environment",),
    ("signals",),
    ("files",),
    ("values",),
    ("tla",),
    ("spec",),
    ("trace", "revision"),
    ("evaluate",),
    ("replay", "explore"),
    ("validate",),
    ("recorder",),
    ("report",),
    ("gate",),
    ("mbt",),
    ("hypothesis",),
    ("api",),
    ("cli", "pytest_plugin"),
)
"""Lowest first; packages on one line do not import each other."""

RANK = {name: i for i, names in enumerate(LAYERS) for name in names}
HARNESS_MAY_USE = ("tlaconf.errors", "tlaconf.values", "tlaconf.trace.writer",
                   "tlaconf.recorder", "tlaconf.Recorder", "tlaconf.Some")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute tlaconf import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("tlaconf")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tlaconf":
                out += [(node.lineno, f"tlaconf.{a.name}") for a in node.names]
            elif node.module.startswith("tlaconf."):
                out.append((node.lineno, node.module))
    return out


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_violations(root: Path) -> list[str]:
    """Imports under ``root`` (a tlaconf package tree) that go up a layer."""
    bad: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        own = rel.parts[0].removesuffix(".py")
        if own == "__init__":
            continue
        for line, target in _imports(path):
            pkg = _package(target)
            if pkg in ("", "__version__"):
                continue
            if pkg not in RANK or own not in RANK:
                bad.append(f"{rel}:{line}: {target} (package not in LAYERS)")
            elif pkg != own and RANK[pkg] >= RANK[own]:
                bad.append(f"{rel}:{line}: {own} imports {target}, which is not below it")
    return bad


def test_every_tlaconf_package_has_a_layer() -> None:
    packages = {p.name.removesuffix(".py") for p in ROOT.iterdir()
                if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert packages - {"__init__"} == set(RANK)


def test_imports_only_go_down() -> None:
    assert layer_violations(ROOT) == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    (tmp_path / "trace").mkdir()
    (tmp_path / "trace" / "x.py").write_text(
        "def f():\n    from tlaconf.replay.engine import replay_trace\n"
    )
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "y.py").write_text("from tlaconf.spec.cfg import read_cfg\n")
    assert layer_violations(tmp_path) == [
        "trace/x.py:2: trace imports tlaconf.replay.engine, which is not below it"
    ]


@pytest.mark.parametrize("path", sorted((CHECKOUT / "harness").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(CHECKOUT)))
def test_the_harness_only_writes_traces(path: Path) -> None:
    used = [(line, m) for line, m in _imports(path) if not m.startswith(HARNESS_MAY_USE)]
    assert used == []
