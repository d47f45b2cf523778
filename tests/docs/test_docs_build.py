"""The manual under docs/ builds with mkdocs in strict mode: a broken link or anchor fails."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MKDOCS, "-f", str(root / "mkdocs.yml"), "--site-dir", str(site)],
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_manual_builds_strictly(tmp_path: Path) -> None:
    run = _build(ROOT, tmp_path / "site")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / "cli" / "index.html").is_file()


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", copy / "docs")
    page = copy / "docs" / "cli.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](missing.md#gone).\n",
                    encoding="utf-8")
    run = _build(copy, tmp_path / "site")
    assert run.returncode != 0
    assert "missing.md" in run.stderr


def test_every_readme_link_to_docs_names_a_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert targets, "the README links to no docs page"
    missing = [t for t in targets if not (ROOT / t).is_file()]
    assert not missing, missing
