"""Default spec/traces directories: the working directory's, else the checkout's, else an error."""

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
