"""Every module of the public tlaplus/Examples repository parses (when a mirror is present).

The mirror is looked up at ``$TLACONF_EXAMPLES`` (a folder with the ``.tla`` files or a
bare git repository) or at ``/work/.mirror/tlaplus+Examples/repo``; without one the test
is skipped.  None of its files are part of this repository.
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

_DEFAULT = Path("/work/.mirror/tlaplus+Examples/repo")


def _tla_files(tmp: Path) -> list[Path]:
    src = Path(os.environ.get("TLACONF_EXAMPLES", _DEFAULT))
    if not src.exists():
        pytest.skip("no tlaplus/Examples mirror on this machine")
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
