"""Every module of the public tlaplus/Examples repository parses (when a checkout is given).

The checkout is ``$TLACONF_EXAMPLES`` (a folder with the ``.tla`` files or a bare git
repository); without it the test is skipped, saying so.  None of its files are part of
this repository.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.tla.parser import parse_modules


def _tla_files(tmp: Path) -> list[Path]:
    given = os.environ.get("TLACONF_EXAMPLES", "")
    if not given:
        pytest.skip("set TLACONF_EXAMPLES to a tlaplus/Examples checkout (or bare git "
                    "repository) to parse its modules")
    src = Path(given)
    if not src.exists():
        pytest.fail(f"TLACONF_EXAMPLES={given}: no such folder")
    if (src / "HEAD").is_file() and (src / "objects").is_dir():
        data = subprocess.run(
            ["git", f"--git-dir={src}", "archive", "HEAD"], check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        src = tmp
    return sorted(src.rglob("*.tla"))


def test_every_examples_module_parses(tmp_path: Path) -> None:
    files = _tla_files(tmp_path)
    assert files
    failures = []
    for f in files:
        try:
            parse_modules(f.read_text(encoding="utf-8"), str(f))
        except UserError as err:
            failures.append(str(err))
    assert failures == [], f"{len(failures)} of {len(files)} failed"
