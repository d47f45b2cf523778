"""The log line a rejection names when the log repeats the same line (lbinria/LockServer's
event-only logs: ``{"event": "acquireLock"}`` again and again; its 8-client log is
rejected at entry 6, which tlaconf placed at line 1): the line nearest the entry that
failed, not the first line that holds the same value."""

from __future__ import annotations

from tlaconf.evaluate.community import IOSession
from tlaconf.validate.tracespec import _line_of
from tlaconf.values import record


def test_the_line_of_the_failing_entry_among_equal_lines() -> None:
    tick, tock = record(event="tick"), record(event="tock")
    io = IOSession(lines={"log.ndjson": [(n, tick) for n in range(1, 6)] + [(6, tock)]})
    assert _line_of(['[event |-> "tick"]'], io, 4) == "log.ndjson:4"
    assert _line_of(['[event |-> "tick"]'], io, None) == "log.ndjson:1"
    assert _line_of(["7", '[event |-> "tock"]'], io, 2) == "log.ndjson:6"
    assert _line_of(['[event |-> "other"]'], io, 2) is None
