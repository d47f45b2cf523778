"""``python -m mutation.compare``: the same mutants through the scenarios and through MBT,
one table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mutation.compare import main


def _report(path: Path, statuses: dict[str, str]) -> Path:
    mutants = [{"mutant": m, "status": s, "why": f"why {m}", "diff": ""}
               for m, s in statuses.items()]
    path.write_text(json.dumps({"summary": {}, "mutants": mutants}), encoding="utf-8")
    return path


def test_each_mutant_falls_in_one_column(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c, d, e = (f"harness/x.py:{n}:1:compare:(x)" for n in range(1, 6))
    check = _report(tmp_path / "check.json",
                    {a: "killed", b: "killed", c: "survived", d: "survived", e: "equivalent"})
    mbt = _report(tmp_path / "mbt.json",
                  {a: "killed", b: "survived", c: "killed", d: "survived", e: "survived",
                   "harness/y.py:1:1:compare:(y)": "killed"})  # the scenarios never ran it
    assert main(["--check", str(check), "--mbt", str(mbt)]) == 0
    out = capsys.readouterr().out
    assert "| `harness/x.py` | 4 | 2 | 2 | 1 | 1 | 1 | 1 |" in out
    assert "harness/y.py" not in out
    assert f"`{b}` (scenarios only)" in out and f"`{c}` (MBT only)" in out
    assert f"`{d}` (neither)" in out and f"`{e}` (equivalent)" in out
    assert f"`{a}`" not in out


def test_an_unreadable_report_exits_2(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["--check", str(bad), "--mbt", str(bad)]) == 2
    assert "cannot read a report" in capsys.readouterr().err


def test_each_mbt_mode_has_its_column(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = (f"harness/x.py:{n}:1:compare:(x)" for n in range(1, 4))
    check = _report(tmp_path / "check.json", {a: "killed", b: "killed", c: "survived"})
    rand = _report(tmp_path / "random.json", {a: "killed", b: "survived", c: "survived"})
    directed = _report(tmp_path / "directed.json", {a: "killed", b: "killed", c: "survived"})
    assert main(["--check", str(check), "--mbt", str(rand), "--directed", str(directed)]) == 0
    out = capsys.readouterr().out
    assert "| killed by random | killed by directed |" in out
    # 3 mutants, MBT (any mode) 2, random 1, directed 2, scenarios 2; both 2, neither 1
    assert "| `harness/x.py` | 3 | 2 | 1 | 2 | 2 | 2 | 0 | 0 | 1 |" in out
    assert f"`{b}` (both)" in out  # listed: one mode missed it


def test_no_mbt_report_is_an_error(tmp_path: Path) -> None:
    check = _report(tmp_path / "check.json", {})
    with pytest.raises(SystemExit) as exc:
        main(["--check", str(check)])
    assert exc.value.code == 2
