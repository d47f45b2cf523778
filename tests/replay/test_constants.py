"""Constants a module does not declare are errors, from the trace header or the ``.cfg``."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.replay.counter_backend import SPEC, state, write_trace
from tlaconf.replay import get_backend, replay_trace

INC = ("Inc", {"by": 2, "who": "a"}, "accepted", state(2, a=2, b=0))


def test_a_header_constant_the_module_does_not_declare(tmp_path: Path) -> None:
    path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC],
                       constants={"Limit": 5, "Limt": 3})  # fmt: skip
    r = replay_trace(path, SPEC, get_backend("embedded"))
    assert r.verdict == "error" and r.failure is not None and r.failure.line == 1
    assert r.failure.reason.startswith("line 1: cannot load module 'Counter': ")
    assert "the trace header gives constant(s) Limt, which module Counter does not declare" \
        in r.failure.reason
    assert "(it declares: Limit)" in r.failure.reason
    ok = write_trace(tmp_path / "ok.trace.jsonl", state(0), [INC], constants={"Limit": 5})
    assert replay_trace(ok, SPEC, get_backend("embedded")).verdict == "conforms"


def test_a_cfg_constant_the_module_does_not_declare(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(SPEC, spec)
    cfg = spec / "conformance" / "Counter.cfg"
    cfg.write_text(cfg.read_text() + "CONSTANT\n  Extra = 3\n")
    path = write_trace(tmp_path / "t.trace.jsonl", state(0), [INC])
    r = replay_trace(path, spec, get_backend("embedded"))
    assert r.verdict == "error" and r.failure is not None
    lines = cfg.read_text().splitlines()
    where = f"{cfg}:{len(lines)}: CONSTANT Extra is not declared by module Counter"
    assert where in r.failure.reason
