"""Default spec/traces folders: the project's, else the working directory's, else the checkout's."""

from __future__ import annotations

from pathlib import Path

import pytest

import tlaconf
from tlaconf.errors import UserError
from tlaconf.gate import default_traces_dir
from tlaconf.spec.lookup import default_dir, default_spec_dir

CHECKOUT = Path(tlaconf.__file__).resolve().parents[1]


def test_the_working_directory_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spec").mkdir()
    (tmp_path / "traces").mkdir()
    monkeypatch.chdir(tmp_path)
    assert default_spec_dir() == tmp_path / "spec"
    assert default_traces_dir() == tmp_path / "traces"


def test_else_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert default_spec_dir() == CHECKOUT / "spec"
    assert default_traces_dir() == CHECKOUT / "traces"


def test_else_an_error_naming_the_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match=r"no nowhere directory: .* pass --nowhere DIR"):
        default_dir("nowhere", "--nowhere DIR")


def test_inside_a_project_only_the_projects_folder(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A project without ``traces/`` must not gate the checkout's corpus instead."""
    (tmp_path / "pyproject.toml").write_text('[tool.tlaconf]\nspec = "spec"\n')
    (tmp_path / "spec").mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert default_spec_dir() == tmp_path / "spec"
    with pytest.raises(UserError, match=r"no traces directory in the project .*--traces DIR"):
        default_traces_dir()
    (tmp_path / "traces").mkdir()
    assert default_traces_dir() == tmp_path / "traces"
