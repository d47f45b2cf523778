"""Fixtures for end-to-end CLI tests (helpers in :mod:`tests.cli.clihelp`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.clihelp import Cli, runner


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """``cli(*args, cwd=tmp_path, env=None)`` runs ``python -m tlaconf.cli.main`` (no terminal)."""
    return runner(tmp_path)
