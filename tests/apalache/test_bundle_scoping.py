"""The bundle takes each name as the resolver binds it: a LOCAL definition is neither
replaced by the value of a same-named definition of another module nor left unsent."""

from __future__ import annotations

from pathlib import Path

from tlaconf.replay.apalache.bundle import read_bundle
from tlaconf.replay.embedded import EmbeddedBackend
from tlaconf.spec.lookup import module_spec

MODULES = {
    "Root": "EXTENDS Naturals, Lib1, Lib2\nVARIABLE x\nInit == x = 0\n"
            "Two == 1 + 1\nLOCAL Three == 1 + 2\nInc == x' = Q(x) + Two + Three",
    "Lib1": "EXTENDS Naturals\nLOCAL Helper == 1\nQ(v) == v + Helper",
    "Lib2": "Helper == 2",
}


def _spec(tmp_path: Path) -> Path:
    folder = tmp_path / "conformance"
    folder.mkdir()
    for name, body in MODULES.items():
        (folder / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}\n====\n")
    return tmp_path


def test_a_local_definition_keeps_its_own_value(tmp_path: Path) -> None:
    spec = module_spec(_spec(tmp_path), "Root", "1", {})
    mod = EmbeddedBackend().load(spec)
    bundle = read_bundle(spec, {"Inc"}, mod.constant)
    root, lib1, lib2 = bundle.texts
    # Root's Helper is Lib2's (2), but Lib1's Q uses its own LOCAL Helper (1): sent as is
    assert "LOCAL Helper == 1" in lib1 and "Helper == 2" not in lib1
    assert "Helper" not in lib2  # reached by no check: Lib2's Helper is left out
    assert "Two == 2" in root  # a definition Root's name means is folded to its value
    assert "LOCAL Three == 3" in root  # and stays LOCAL
    assert bundle.folded == ("Three", "Two")
    assert "Helper" in bundle.left_out and "Init" in bundle.left_out
