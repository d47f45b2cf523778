"""``tlaconf diff-spec``: AST comparison, transitive uses, affected golden traces, CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tlaconf.errors import UserError
from tlaconf.gate.diff_spec import affected_traces, diff_specs
from tlaconf.trace import TraceWriter

ZONES = """---- MODULE Zones ----
EXTENDS Naturals
Helper(s) == TRUE
Step(s, t, p) == Helper(s) /\\ t = s
Part(s) == s = s
Unused == 1
====
"""
ZM = """---- MODULE ZM ----
EXTENDS Zones
VARIABLE a
Move(p) == Step(a, a', p)
Inv == Part(a)
====
"""
OTHER = """---- MODULE Other ----
EXTENDS Naturals
VARIABLE x
Z == INSTANCE Zones
Tick(p) == x' = x + 1
Look(p) == Z!Part(x) /\\ UNCHANGED x
====
"""


def make_spec(root: Path, zones: str = ZONES, zm: str = ZM, other: str = OTHER,
              cfg: str = "INVARIANT Inv\n") -> Path:  # fmt: skip
    (root / "conformance").mkdir(parents=True)
    (root / "reference-profile" / "rev2").mkdir(parents=True)
    (root / "reference-profile" / "rev2" / "Zones.tla").write_text(zones)
    (root / "conformance" / "ZM.tla").write_text(zm)
    (root / "conformance" / "ZM.cfg").write_text(cfg)
    (root / "conformance" / "Other.tla").write_text(other)
    return root


def names(keys: object) -> list[str]:
    return sorted(k[1] for k in keys)  # type: ignore[attr-defined]


def test_layout_and_comments_are_not_changes(tmp_path: Path) -> None:
    reformatted = ZONES.replace("Part(s) == s = s", "\\* a comment\nPart(s) ==\n    s = s")
    diff = diff_specs(make_spec(tmp_path / "old"), make_spec(tmp_path / "new", zones=reformatted))
    assert (diff.modified, diff.added, diff.removed, diff.affected) == ((), (), (), {})


def test_changes_and_their_transitive_users(tmp_path: Path) -> None:
    new_zones = (ZONES.replace("Helper(s) == TRUE", "Helper(s) == s # {}")
                 .replace("Unused == 1\n", "Added == 2\n"))  # fmt: skip
    diff = diff_specs(make_spec(tmp_path / "old"), make_spec(tmp_path / "new", zones=new_zones))
    zones = "reference-profile/rev2/Zones.tla"
    assert diff.modified == ((zones, "Helper"),)
    assert diff.added == ((zones, "Added"),)
    assert diff.removed == ((zones, "Unused"),)
    assert diff.affected == {
        (zones, "Step"): ((zones, "Helper"),),
        ("conformance/ZM.tla", "Move"): ((zones, "Helper"),),
    }


def test_named_instances_and_declarations(tmp_path: Path) -> None:
    new_zones = ZONES.replace("Part(s) == s = s", "Part(s) == s /= s")
    new_other = OTHER.replace("VARIABLE x", "VARIABLES x, y")
    diff = diff_specs(
        make_spec(tmp_path / "old"),
        make_spec(tmp_path / "new", zones=new_zones, other=new_other),
    )
    assert names(diff.modified) == ["Look", "Part", "Tick", "Z"]
    assert names(diff.affected) == ["Inv"]


def write_trace(path: Path, module: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with TraceWriter(path, module, "2") as w:
        w.init({"a": 1} if module == "ZM" else {"x": 1})


def test_affected_golden_traces(tmp_path: Path) -> None:
    old = make_spec(tmp_path / "old")
    new = make_spec(tmp_path / "new", zones=ZONES.replace("Helper(s) == TRUE", "Helper(s) == 1"),
                    cfg="INVARIANT Inv\nCONSTANT N = 2\n")  # fmt: skip
    traces = tmp_path / "traces"
    write_trace(traces / "zones" / "a.trace.jsonl", "ZM")
    write_trace(traces / "other" / "b.trace.jsonl", "Other")
    write_trace(traces / "gone" / "c.trace.jsonl", "Gone")
    diff = diff_specs(old, new)
    assert diff.cfg_changed == ("conformance/ZM.cfg",)
    impacts = {t.path: t for t in affected_traces(diff, new, traces)}
    assert sorted(impacts) == ["gone/c.trace.jsonl", "zones/a.trace.jsonl"]
    assert impacts["zones/a.trace.jsonl"].reasons == (
        "Move uses Helper (reference-profile/rev2/Zones.tla)",
        "conformance/ZM.cfg changed",
    )
    assert "not in the new spec" in impacts["gone/c.trace.jsonl"].reasons[0]


def test_bad_input(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is not a directory"):
        diff_specs(tmp_path / "nope", tmp_path)
    bad = make_spec(tmp_path / "bad", zones="---- MODULE Zones ----\nHelper(s) == (\n====\n")
    with pytest.raises(UserError, match=r"Zones\.tla:"):
        diff_specs(bad, bad)


def tlaconf(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tlaconf.cli.main", *args], capture_output=True, text=True
    )


def test_cli(tmp_path: Path) -> None:
    old = make_spec(tmp_path / "old")
    new = make_spec(tmp_path / "new", zones=ZONES.replace("Helper(s) == TRUE", "Helper(s) == 1"))
    write_trace(tmp_path / "traces" / "zones" / "a.trace.jsonl", "ZM")
    r = tlaconf("diff-spec", str(old), str(new))
    assert r.returncode == 0, r.stderr
    assert "1 modified, 0 added, 0 removed, 2 affected through uses" in r.stdout
    assert "conformance/ZM.tla  Move  (uses Helper)" in r.stdout
    assert "1 golden trace(s) affected" in r.stdout and "zones/a.trace.jsonl  [ZM]" in r.stdout
    r = tlaconf("diff-spec", "--json", str(old), str(new))
    doc = json.loads(r.stdout)
    assert doc["modified"] == [{"module": "reference-profile/rev2/Zones.tla", "operator": "Helper"}]
    assert doc["traces"][0]["path"] == "zones/a.trace.jsonl"
    shutil.rmtree(tmp_path / "traces")
    assert json.loads(tlaconf("diff-spec", "--json", str(old), str(new)).stdout)["traces"] is None
    for args, message in [
        (["diff-spec", str(old), str(tmp_path / "missing")], "missing does not exist"),
        (["diff-spec", str(tmp_path / "missing"), str(new)], "missing does not exist"),
        (["diff-spec", str(old), str(new), "--traces", str(tmp_path / "t")], "does not exist"),
    ]:
        r = tlaconf(*args)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
