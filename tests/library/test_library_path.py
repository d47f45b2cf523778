"""The library path: ``--library`` folders and jars, ``TLACONF_LIBRARY``, for ``tlaconf parse``."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.evaluate import load_module
from tlaconf.tla.library import library_path

DATA = Path(__file__).with_name("data")
LIB = DATA / "lib"
EXAMPLES = os.environ.get("TLACONF_EXAMPLES")
COMMUNITY = os.environ.get("TLACONF_COMMUNITY_MODULES")


def tlaconf(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "TLACONF_LIBRARY"}
    return subprocess.run([sys.executable, "-m", "tlaconf.cli.main", *map(str, args)],
                          capture_output=True, text=True, env={**environ, **(env or {})},
                          timeout=120)


def jar_of(folder: Path, jar: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(jar, "w") as z:
        for tla in folder.glob("*.tla"):
            z.write(tla, prefix + tla.name)
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    return jar


def test_without_the_library_the_module_is_not_found() -> None:
    run = tlaconf("parse", DATA / "Uses.tla")
    assert run.returncode == 2
    assert "module IOUtils not found" in run.stderr
    assert "module Json not found" not in run.stderr  # Json ships with SANY, as in TLC


def test_a_folder_given_with_library() -> None:
    run = tlaconf("parse", "--library", LIB, DATA / "Uses.tla")
    assert run.returncode == 0, run.stderr
    assert "MODULE Uses: 1 operator(s)" in run.stdout


def test_a_jar_from_the_environment(tmp_path: Path) -> None:
    jar = jar_of(LIB, tmp_path / "Community.jar", prefix="modules/")
    both = f"/nonexistent-but-later:{jar}"
    run = tlaconf("parse", DATA / "Uses.tla", env={"TLACONF_LIBRARY": both})
    assert run.returncode == 2  # every entry is checked, in order
    assert "TLACONF_LIBRARY /nonexistent-but-later: no such folder or jar" in run.stderr
    run = tlaconf("parse", DATA / "Uses.tla", env={"TLACONF_LIBRARY": str(jar)})
    assert run.returncode == 0, run.stderr


def test_errors_in_a_jar_module_name_the_member(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "IOUtils.tla").write_text("---- MODULE IOUtils ----\nX == 1 +\n====\n")
    jar = jar_of(broken, tmp_path / "b.jar")
    run = tlaconf("parse", "--library", jar, DATA / "Uses.tla")
    assert run.returncode == 2
    assert f"{jar}!/IOUtils.tla:3" in run.stderr or f"{jar}!/IOUtils.tla:2" in run.stderr


def test_standard_modules_come_before_the_library(tmp_path: Path) -> None:
    """As on TLC's class path: a library's own ``Json.tla`` (or tlapm's ``Bags.tla``) is
    not read in place of the standard module."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "Json.tla").write_text("---- MODULE Json ----\nX == 1 +\n====\n")
    run = tlaconf("parse", "--library", broken, "--library", jar_of(broken, tmp_path / "b.jar"),
                  DATA / "Uses.tla")
    assert "Json.tla" not in run.stderr


@pytest.mark.parametrize("kind", ["missing", "not-a-jar"])
def test_a_bad_library_entry(tmp_path: Path, kind: str) -> None:
    entry = tmp_path / "x.jar"
    if kind == "not-a-jar":
        entry.write_text("plain text")
    run = tlaconf("parse", "--library", entry, DATA / "Uses.tla")
    assert run.returncode == 2
    assert str(entry) in run.stderr
    assert "Traceback" not in run.stderr


def test_spec_folder_comes_first(tmp_path: Path) -> None:
    (tmp_path / "SequencesExt.tla").write_text(
        "---- MODULE SequencesExt ----\nEXTENDS Sequences\nRemoveAt(s, i) == <<\"mine\">>\n====\n")
    main = tmp_path / "Uses.tla"
    main.write_text((DATA / "Uses.tla").read_text())
    ctx = load_module(main, library_path([LIB]), {})
    assert ctx.evaluate("Dropped") == ("mine",)


def test_library_path_order() -> None:
    assert library_path([LIB], {"TLACONF_LIBRARY": f"{DATA}::"}) == (LIB, DATA)
    with pytest.raises(UserError, match="--library nope"):
        library_path(["nope"], {})


@pytest.mark.skipif(not (EXAMPLES and COMMUNITY), reason="set TLACONF_EXAMPLES (a tlaplus/Examples "
                    "checkout) and TLACONF_COMMUNITY_MODULES (a CommunityModules checkout)")
def test_ewd998_chan_trace_parses_with_the_community_modules() -> None:
    folder = Path(str(EXAMPLES)) / "specifications" / "ewd998"
    modules = Path(str(COMMUNITY)) / "modules"
    for name in ("EWD998ChanTrace.tla", "EWD998Chan.tla"):
        assert tlaconf("parse", folder / name).returncode == 2
        run = tlaconf("parse", "--library", modules, folder / name)
        assert run.returncode == 0, run.stderr
