"""The log line a rejection names, and shows.  When the log repeats the same line
(lbinria/LockServer's event-only logs: ``{"event": "acquireLock"}`` again and again; its
8-client log is rejected at entry 6, which tlaconf placed at line 1): the line nearest
the entry that failed, not the first line that holds the same value."""

from __future__ import annotations

from pathlib import Path

import pytest

from tlaconf.evaluate.community import IOSession
from tlaconf.validate.outcome import render
from tlaconf.validate.tracespec import _line_of, validate_trace_spec
from tlaconf.values import record


def test_the_line_of_the_failing_entry_among_equal_lines() -> None:
    tick, tock = record(event="tick"), record(event="tock")
    io = IOSession(lines={"log.ndjson": [(n, tick) for n in range(1, 6)] + [(6, tock)]})
    assert _line_of(['[event |-> "tick"]'], io, 4) == "log.ndjson:4"
    assert _line_of(['[event |-> "tick"]'], io, None) == "log.ndjson:1"
    assert _line_of(["7", '[event |-> "tock"]'], io, 2) == "log.ndjson:6"
    assert _line_of(['[event |-> "other"]'], io, 2) is None


SPEC = """---- MODULE IfLog ----
EXTENDS Naturals, Sequences, Json, TLC
Log == ndJsonDeserialize("log.ndjson")
VARIABLES l, x
logline == Log[l]
Init == l = 1 /\\ x = 0
Next == /\\ l <= Len(Log)
        /\\ IF "to" \\in DOMAIN logline THEN x' = logline.to /\\ x' < 2 ELSE UNCHANGED x
        /\\ l' = l + 1
Post == TLCGet("stats").diameter = Len(Log) + 1
====
"""


def test_a_branch_on_the_log_line_shows_the_line(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The blame of an ``IF`` on ``logline`` (lbinria's ``IF "event_args" \\in DOMAIN
    logline``) shows the logged value it tested (it said "cannot be evaluated")."""
    (tmp_path / "IfLog.tla").write_text(SPEC)
    (tmp_path / "IfLog.cfg").write_text("INIT Init\nNEXT Next\nPOSTCONDITION Post\n"
                                        "CHECK_DEADLOCK FALSE\n")
    (tmp_path / "log.ndjson").write_text('{"to": 1}\n{"x": 0}\n{"to": 7}\n')
    monkeypatch.chdir(tmp_path)
    out = validate_trace_spec(tmp_path / "IfLog.tla")
    assert out.result == "rejected" and out.failing_entry == 3
    text = render(out)
    assert "the condition is TRUE; the THEN branch allows no step" in text
    assert "logline = [to |-> 7]" in text and "cannot be evaluated" not in text
