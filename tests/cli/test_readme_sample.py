"""The README's sample output is what the command prints today (times aside)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TLACONF = Path(sys.executable).parent / "tlaconf"


def _times(text: str) -> str:
    return re.sub(r"\d+\.\d\ds", "0.00s", text)


def test_the_readme_sample_is_real_output() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n\$ COLUMNS=80 (tlaconf [^\n]+)\n(.*?)```", readme, re.S)
    assert blocks, "the README has no sample run"
    for command, shown in blocks:
        env = {**os.environ, "COLUMNS": "80"}
        env.pop("NO_COLOR", None)
        run = subprocess.run([str(TLACONF), *command.split()[1:]], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
        assert _times(run.stdout) == _times(shown), f"README sample of {command!r} is stale"
