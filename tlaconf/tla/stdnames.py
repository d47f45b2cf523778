"""Which standard modules a piece of TLA+ needs: those exporting the names it uses.

:func:`standard_modules_for` answers for a list of definitions (a page's
fragments, a definition added to a module): every name the definitions use but
do not define themselves that a standard module exports (``Len``, ``>``,
``Cardinality``, ``:>``) names that module, the first of :data:`ORDER` that
exports it (``-`` is Naturals', ``-.`` Integers').
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from tlaconf.tla import ast
from tlaconf.tla.resolve import STDLIB_DIR, load
from tlaconf.tla.visit import used_names

ORDER = ("Naturals", "Integers", "Sequences", "FiniteSets", "Bags", "TLC")


@lru_cache(maxsize=1)
def _exporter() -> dict[str, str]:
    """Name -> the first standard module (in :data:`ORDER`) that exports it."""
    out: dict[str, str] = {}
    for name in ORDER:
        for symbol in load(STDLIB_DIR / f"{name}.tla").exported:
            out.setdefault(symbol, name)
    return out


def is_standard_name(name: str) -> bool:
    """Whether a standard module exports ``name``."""
    return name in _exporter()


def standard_names(units: Iterable[ast.Unit]) -> set[str]:
    """The names standard modules export that ``units`` use and do not define themselves."""
    units = tuple(units)
    own = {u.name for u in units if isinstance(u, ast.OpDef | ast.FnDef)}
    exporter = _exporter()
    return {n for n in used_names(units) if n not in own and n in exporter}


def modules_of(names: Iterable[str]) -> tuple[str, ...]:
    """The standard modules (in :data:`ORDER`) that first export ``names``."""
    exporter = _exporter()
    needed = {exporter[n] for n in names}
    return tuple(m for m in ORDER if m in needed)


def standard_modules_for(units: Iterable[ast.Unit]) -> tuple[str, ...]:
    """The standard modules whose names ``units`` use (and do not define themselves)."""
    return modules_of(standard_names(units))
