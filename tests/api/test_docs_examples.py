"""Every Python example of the manual's API page runs, from the repository's root."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example-{i + 1}" for i in range(len(BLOCKS))])
def test_an_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {"__name__": "__example__"})
    assert "Traceback" not in out.getvalue()


def test_the_recorder_examples_write_what_the_page_says(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.chdir(ROOT)
    printed = []
    for code in BLOCKS:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), {"__name__": "__example__"})
        printed.append(out.getvalue())
    assert printed[0].split()[1] == "1"  # NONCONFORMING: traces/zones has violations
    assert printed[1].split() == ["violation", "5", "Small"]
    assert printed[2].strip() == ('{"action": "Withdraw", "params": {"amount": 9}, '
                                  '"outcome": "rejected", "state": {"balance": 5}}')
    assert printed[3].strip() == ('{"action": "Vote", "params": {"peer": "n2", "voter": '
                                  '"n1"}, "outcome": "accepted", "state": {"votes": '
                                  '{"#partial": {"n1": {"#partial": {"n2": true}}}}}}')


def test_the_online_example_stops_at_the_bad_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    [code] = [c for c in BLOCKS if "check=True" in c]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {"__name__": "__example__"})
    assert out.getvalue().split() == ["violation", "4"]
