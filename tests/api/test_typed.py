"""A user's code calling the public API type-checks under ``mypy --strict`` (tlaconf is
typed: ``py.typed``), and a misuse of it is caught."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GOOD = '''\
from pathlib import Path

import tlaconf


def refine(state: dict[str, int]) -> dict[str, int]:
    return {"balance": state["balance"]}


def check(path: Path) -> tlaconf.ExitCode:
    with tlaconf.Recorder(path, "Account", refine, constants={"Limit": 10}) as rec:
        rec.init({"balance": 0})
        rec.accepted("Deposit", {"amount": 5}, {"balance": 5})
    results: list[tlaconf.TraceResult] = tlaconf.replay(path, spec="spec", jobs=2)
    for r in results:
        if r.failure is not None and r.failure.blame is not None:
            print(r.failure.step, r.failure.blame.text, r.failure.blame.location)
    found = tlaconf.explore("Spec.tla", depth=3)
    outcome = tlaconf.validate("Trace.tla", env={"JSON": "log.ndjson"})
    print(found.distinct_states, outcome.result)
    return tlaconf.exit_code(results)
'''

BAD = '''\
import tlaconf

count: int = tlaconf.replay("t.trace.jsonl")
tlaconf.Recorder("t.trace.jsonl", "M").accepted("A", {}, {"x": 1}, "extra")
'''


def test_user_code_is_checked_by_mypy_strict(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--no-incremental", "good.py", "bad.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[0:2] for e in errors] == [["bad.py", "3"], ["bad.py", "4"]], run.stdout
    assert "list[TraceResult]" in errors[0] and "Too many arguments" in errors[1]
