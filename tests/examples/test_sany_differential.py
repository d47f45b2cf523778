"""tlaconf accepts exactly the tlaplus/Examples modules that real SANY accepts.

Both read each module from its folder with nothing else on the library path (so a module
that needs TLAPS or the community modules is refused by both).  SANY's verdict includes
semantic analysis and level checking; tlaconf's is parsing and name resolution.  Modules
on which they may disagree are listed in :data:`KNOWN`, each with the reason; the figures
are in the README ("TLA+ support").
"""

from __future__ import annotations

from pathlib import Path

from tlaconf.errors import UserError
from tlaconf.tla.resolve import load

from .corpus import examples_root, modules, sany_verdicts, tlc_jar

KNOWN: dict[str, str] = {}
"""Module path (relative to the checkout) -> why tlaconf and SANY disagree on it."""


def tlaconf_accepts(path: Path) -> bool:
    try:
        load(path)
    except UserError:
        return False
    return True


def figures(root: Path, jar: str) -> tuple[dict[str, int], list[str]]:
    sany = sany_verdicts(jar, root)
    counts = {"both accept": 0, "both reject": 0, "disagree": 0}
    disagree: list[str] = []
    for path in modules(root):
        theirs = sany[path] == "accept"
        ours = tlaconf_accepts(path)
        if theirs == ours:
            counts["both accept" if ours else "both reject"] += 1
            continue
        counts["disagree"] += 1
        rel = path.relative_to(root).as_posix()
        if rel not in KNOWN:
            side = "tlaconf accepts, SANY rejects" if ours else "SANY accepts, tlaconf rejects"
            disagree.append(f"{rel}: {side} ({sany[path]})")
    return counts, disagree


def test_tlaconf_accepts_what_sany_accepts() -> None:
    root, jar = examples_root(), tlc_jar()
    counts, disagree = figures(root, jar)
    print(f"tlaplus/Examples: {counts}")
    assert sum(counts.values()) == len(modules(root)) > 100
    assert counts["both accept"] > 0
    assert not disagree, "\n".join(disagree)


def test_a_module_sany_rejects_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "Chain.tla"
    bad.write_text("---- MODULE Chain ----\nCONSTANTS a, b, c\nE == a => b => c\n====\n")
    assert not tlaconf_accepts(bad)
    bad.write_text("---- MODULE Chain ----\nCONSTANTS a, b, c\nE == a => (b => c)\n====\n")
    assert tlaconf_accepts(bad)
