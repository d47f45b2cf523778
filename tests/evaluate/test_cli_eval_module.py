"""``tlaconf eval -m``: a file or a module name of the spec directory; ``-D`` needs ``-m``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SPEC = str(ROOT / "spec")


def _eval(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["eval", *args])
    out, err = capsys.readouterr()
    return code, out.strip(), err


def test_a_module_name_is_looked_up_in_the_spec_directory_with_its_cfg(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _eval(capsys, "--spec", SPEC, "-m", "ZoneMembership",
                 "Cardinality(ZoneInstances4)")[:2] == (0, "12")
    assert _eval(capsys, "--spec", SPEC, "-m", "ZoneMembership", "-D", 'Seats4={"X"}',
                 "Cardinality(ZoneInstances4)")[:2] == (0, "8")
    assert _eval(capsys, "--spec", SPEC, "-m", "Zones4", "-D", 'Seats4={"X", "Y", "Z"}',
                 "Cardinality(ZoneInstances4)")[:2] == (0, "16")


def test_a_module_file_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "spec" / "reference-profile" / "rev2" / "Zones4.tla")
    assert _eval(capsys, "-m", path, "-D", 'Seats4={"X"}', "Cardinality(ZoneInstances4)")[:2] == (
        0, "8")


def test_bad_module_arguments_are_input_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _eval(capsys, "-D", "K=1", "1")
    assert code == 2 and "-D binds a CONSTANT of a module" in err and "-m MODULE" in err
    code, _, err = _eval(capsys, "--spec", SPEC, "-m", "NoSuchModule", "1")
    assert code == 2 and "no NoSuchModule.tla" in err
    code, _, err = _eval(capsys, "-m", "missing/file.tla", "1")
    assert code == 2 and "module file missing/file.tla does not exist" in err
