"""``tlaconf init``: a project that checks, passes pytest, and catches a planted bug."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tlaconf.cli.main import main

BIN = Path(sys.executable).parent


def _run(cwd: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_a_new_project_checks_passes_and_catches_a_bug(tmp_path: Path) -> None:
    made = _run(tmp_path, str(BIN / "tlaconf"), "init", "bank")
    assert made.returncode == 0, made.stderr
    project = tmp_path / "bank"
    assert (project / "spec" / "conformance" / "Account.cfg").is_file()
    assert not (project / "spec" / "reference-profile").exists()  # no profile needed
    check = _run(project, str(BIN / "tlaconf"), "check")
    assert check.returncode == 0 and "3 conforms" in check.stdout, check.stdout + check.stderr
    tests = _run(project, str(BIN / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert tests.returncode == 0 and "5 passed" in tests.stdout, tests.stdout
    account = project / "bank" / "account.py"
    account.write_text(account.read_text().replace("amount > self.balance:",
                                                   "amount > self.balance + 10:"))
    check = _run(project, str(BIN / "tlaconf"), "check")
    assert check.returncode == 1 and "p.amount <= balance" in check.stdout
    tests = _run(project, str(BIN / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert tests.returncode == 1 and "expected conforms, got violation" in tests.stdout
    assert "FAILED tests/test_conformance.py::test_requests_drawn_from_the_spec_conform" in \
        tests.stdout  # the driver, mapped by the recorder's refine, finds it too
    assert "During handling" not in tests.stdout


def test_init_refuses_bad_names_and_existing_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "My-Bank"]) == 2
    assert "lower-case Python identifier" in capsys.readouterr().err
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    assert main(["init", "taken"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["keep.txt"]
    assert main(["init", "nowhere/bank"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]  # nothing half-written


def test_tool_tlaconf_settings_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.tlaconf]\nspecs = "spec"\n')
    assert main(["check"]) == 2
    assert "unknown key 'specs'" in capsys.readouterr().err
    pyproject.write_text('[tool.tlaconf]\nstrict = "yes"\n')
    assert main(["check"]) == 2
    assert "strict must be a boolean" in capsys.readouterr().err
    pyproject.write_text('[tool.tlaconf]\nspec = "nope"\n')
    assert main(["check"]) == 2
    assert "[tool.tlaconf] spec" in capsys.readouterr().err
    (tmp_path / "spec").mkdir()
    pyproject.write_text('[tool.tlaconf]\nspec = "spec"\n')
    assert main(["check"]) == 2
    assert "no scenarios to run" in capsys.readouterr().err
