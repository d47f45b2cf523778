"""``--cluster`` gives the reports and exit codes of ``-j N``: JSON, JUnit, HTML, for a
corpus with conforming traces, violations (blame with source locations), bad input and a
trace this machine cannot read; and on ``gate`` and ``check``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.clihelp import PY_BACKEND
from tests.replay.counter_backend import SCENARIOS
from tests.replay.counter_backend import SPEC as COUNTER_SPEC
from tlaconf.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def without_times(report: dict[str, Any]) -> dict[str, Any]:
    report["summary"].pop("seconds")
    return report


def add_bad_input(traces: Path) -> None:
    """A malformed trace, one of an unknown module, and a folder named like a trace."""
    good = (traces / "use-conforming.trace.jsonl").read_text().splitlines()
    (traces / "malformed.trace.jsonl").write_text("\n".join([good[0], good[1], "{oops"]) + "\n")
    header = json.loads(good[0]) | {"module": "NoSuchModule"}
    (traces / "unknown.trace.jsonl").write_text("\n".join([json.dumps(header), *good[1:]]) + "\n")
    (traces / "folder.trace.jsonl").mkdir()


def test_the_reports_are_those_of_dash_j(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path,
    scheduler: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(project)  # relative paths: the workers' folders must not show
    add_bad_input(project / "traces")
    reports = {}
    for name, mode in (("jobs", ("-j", "2")), ("cluster", ("--cluster", scheduler))):
        code, out, _ = run(capsys, "replay", "traces", "--spec", "spec", *mode, "--json",
                           "--junit", f"{name}.xml", "--html", f"{name}-html")
        html = (project / f"{name}-html" / "index.html").read_text()
        junit = (project / f"{name}.xml").read_text()
        reports[name] = (code, without_times(json.loads(out)),
                         re.sub(r'time="[0-9.]+"', "", junit),
                         re.sub(r"<td>[0-9.]+s</td>", "", html))
    assert reports["cluster"] == reports["jobs"]
    code, report, _, html = reports["cluster"]
    assert code == 2  # bad input among the traces
    verdicts = [t["verdict"] for t in report["traces"]]
    assert verdicts.count("error") == 3 and verdicts.count("violation") == 2
    assert "spec/conformance/AbilityActivity.tla" in json.dumps(report)
    assert "tlaconf-worker-" not in json.dumps(report) + html
    assert "\x00" not in json.dumps(report)


def test_gate_and_check_take_cluster(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path,
    scheduler: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(project)
    gate = ("gate", "--traces", "traces", "--spec", "spec", "--cluster", scheduler)
    assert run(capsys, *gate, "--update")[0] == 0
    recorded = json.loads((project / "traces" / "verdicts.json").read_text())
    assert len(recorded) == 4 and "violation" in json.dumps(recorded)
    assert run(capsys, *gate)[0] == 0
    (project / "traces" / "activity-conforming.trace.jsonl").write_text(
        (project / "traces" / "activity-face-up-only.trace.jsonl").read_text())
    code, out, _ = run(capsys, *gate, "--json")
    assert code == 1  # a conforming golden trace now violates: a difference
    assert "activity-conforming" in out
    code, out, err = run(capsys, "check", "--spec", COUNTER_SPEC, "--backend", PY_BACKEND,
                         "--no-coverage", "--json", "--scenarios",
                         f"{SCENARIOS}:generate_all_buggy", "--seed", "1",
                         "--cluster", scheduler)
    verdicts = {Path(t["path"]).name: t["verdict"] for t in json.loads(out)["traces"]}
    assert code == 1 and verdicts["counter-big.trace.jsonl"] == "violation", err
