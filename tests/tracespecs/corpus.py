"""The public trace specs of ``make test-tracespecs``: each case's spec, ``.cfg`` and log
from a checkout named by an environment variable, run unchanged and on one mutated log.

A run is (case, log, cfg): log ``original`` (as committed) or ``mutated`` (one line
deleted or edited, :func:`mutate`); cfg ``as-is`` (the case's ``.cfg``) or ``no-properties`` (the
same without its ``PROPERTY``/``PROPERTIES`` sections, :func:`without_properties`), which
checks the search itself where the properties are not yet supported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Case:
    name: str
    checkout: str
    """The environment variable naming the checkout."""
    how: str
    """How to get the checkout (the skip message)."""
    spec: str
    """The trace spec, relative to the checkout."""
    logs: dict[str, str]
    """Environment variable -> log file (relative to the checkout) the spec reads; the
    first is the log the mutation changes."""
    line: int
    """The log line (1-based) the mutation changes."""
    edit: tuple[str, str] | None = None
    """The mutation: the first ``old`` of the line made ``new``; None: the line is
    deleted."""
    env: dict[str, str] = field(default_factory=dict)
    """Other environment variables the spec reads (``IOEnv``)."""
    tlc_args: tuple[str, ...] = ()
    """TLC options the case's own scripts pass."""
    verdict: str = "accepted"
    """TLC's verdict on the log as committed (a project may commit a log of the bug its
    trace spec found)."""
    long: bool = False
    """A long log: only the log as committed, under its ``.cfg`` as is, is run (TLC takes
    over an hour on it: its answer is recorded from a measured run, with its source, and
    the generator runs TLC on it only when the case is named)."""

    @property
    def cfg(self) -> str:
        return self.spec[: -len(".tla")] + ".cfg"

    def root(self) -> Path | None:
        value = os.environ.get(self.checkout)
        return Path(value) if value else None


_EXAMPLES = "git clone https://github.com/tlaplus/Examples and set TLACONF_EXAMPLES to it"
_ETCD = "git clone https://github.com/etcd-io/raft and set TLACONF_ETCD_RAFT to it"
_TWOPHASE = "git clone https://github.com/lbinria/TwoPhase and set TLACONF_TWOPHASE to it"
_KVS = ("git clone https://github.com/lbinria/KeyValueStore and set TLACONF_KEYVALUESTORE "
        "to it")
_KVS_CONF = {"CONFIG_PATH": "BenchMarks/conf.10-20-5.ndjson"}
_LOCKSERVER = ("git clone https://github.com/tracevalidation/LockServer and set "
               "TLACONF_LOCKSERVER to it")

CASES: tuple[Case, ...] = (
    Case("ewd998-chan-trace", "TLACONF_EXAMPLES", _EXAMPLES,
         "specifications/ewd998/EWD998ChanTrace.tla",
         {"JSON": "specifications/ewd998/EWD998ChanTrace.ndjson"}, line=27,
         edit=('"q":3', '"q":4')),
    Case("etcd-raft-100", "TLACONF_ETCD_RAFT", _ETCD, "tla/Traceetcdraft.tla",
         {"JSON": "tla/example.ndjson"}, line=86, edit=('"term":2', '"term":3'),
         env={"MAX_TRACE": "100"},
         tlc_args=("-lncheck", "final")),
    Case("etcd-raft-1000", "TLACONF_ETCD_RAFT", _ETCD, "tla/Traceetcdraft.tla",
         {"JSON": "tla/example.ndjson"}, line=500, env={"MAX_TRACE": "1000"},
         tlc_args=("-lncheck", "final")),
    Case("etcd-raft-whole", "TLACONF_ETCD_RAFT", _ETCD, "tla/Traceetcdraft.tla",
         {"JSON": "tla/example.ndjson"}, line=500, tlc_args=("-lncheck", "final"),
         long=True),
    Case("twophase-4rm", "TLACONF_TWOPHASE", _TWOPHASE, "spec/TwoPhaseTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.4RM.VEA",
          "CONFIG_PATH": "BenchMarks/conf.4RM.ndjson"}, line=8),
    Case("twophase-16rm", "TLACONF_TWOPHASE", _TWOPHASE, "spec/TwoPhaseTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.16RM.VEA",
          "CONFIG_PATH": "BenchMarks/conf.16RM.ndjson"}, line=45),
    Case("twophase-4rm-events", "TLACONF_TWOPHASE", _TWOPHASE, "spec/TwoPhaseTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.4RM.E",
          "CONFIG_PATH": "BenchMarks/conf.4RM.ndjson"}, line=1,
         edit=('"RMPrepare"', '"TMCommit"')),
    Case("twophase-bug-4rm", "TLACONF_TWOPHASE", _TWOPHASE, "spec/TwoPhaseTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.BUG-4RM.VEA",
          "CONFIG_PATH": "BenchMarks/conf.4RM.ndjson"}, line=4, verdict="rejected"),
    Case("kvs-4c", "TLACONF_KEYVALUESTORE", _KVS, "spec/KeyValueStoreTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.4C.VEA", **_KVS_CONF}, line=60,
         edit=('"V', '"W')),
    Case("kvs-bug-12", "TLACONF_KEYVALUESTORE", _KVS, "spec/KeyValueStoreTrace.tla",
         {"TRACE_PATH": "BenchMarks/trace.ndjson.BUG-12.VEA", **_KVS_CONF}, line=20,
         verdict="rejected"),
    Case("lockserver-4c", "TLACONF_LOCKSERVER", _LOCKSERVER, "spec/locksvTrace.tla",
         {"TRACE_PATH": "Traces/trace-4C-VEA.ndjson", "CONFIG_PATH": "conf.ndjson"},
         line=12),
    Case("lockserver-4c-events", "TLACONF_LOCKSERVER", _LOCKSERVER, "spec/locksvTrace.tla",
         {"TRACE_PATH": "Traces/trace-4C-E.ndjson", "CONFIG_PATH": "conf.ndjson"}, line=3,
         edit=("acquireLock", "unlock")),
)

LOGS = ("original", "mutated")
CFGS = ("as-is", "no-properties")

_PROPERTY = re.compile(r"^\s*PROPERT(?:Y|IES)\b")
_SECTION = re.compile(r"^\s*(CONSTANTS?|INIT|NEXT|SPECIFICATION|INVARIANTS?|PROPERT(?:Y|IES)|"
                      r"CONSTRAINTS?|ACTION_CONSTRAINTS?|SYMMETRY|VIEW|ALIAS|POSTCONDITIONS?|"
                      r"CHECK_DEADLOCK)\b")


def has_properties(cfg_text: str) -> bool:
    return any(_PROPERTY.match(line) for line in cfg_text.splitlines())


def without_properties(cfg_text: str) -> str:
    """``cfg_text`` without its ``PROPERTY``/``PROPERTIES`` sections (the keyword and the
    names under it, up to the next section keyword)."""
    out: list[str] = []
    skipping = False
    for line in cfg_text.splitlines():
        if _PROPERTY.match(line):
            skipping = True
            continue
        if skipping and _SECTION.match(line):
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


def mutate(text: str, case: Case) -> str:
    """The log ``text`` with the case's mutation: its line ``case.line`` deleted, or
    edited."""
    lines = text.splitlines(keepends=True)
    if case.edit is None:
        del lines[case.line - 1]
    else:
        old, new = case.edit
        if old not in lines[case.line - 1]:
            raise ValueError(f"{case.name}: line {case.line} of the log has no {old}")
        lines[case.line - 1] = lines[case.line - 1].replace(old, new, 1)
    return "".join(lines)


def prepare(case: Case, root: Path, log: str, cfg: str, work: Path) -> tuple[Path, dict[str, str]]:
    """The ``.cfg`` to run and the environment of one run (the mutated log and the
    stripped ``.cfg`` are written under ``work``)."""
    env = dict(case.env)
    for i, (var, rel) in enumerate(case.logs.items()):
        path = root / rel
        if i == 0 and log == "mutated":
            path = work / f"{case.name}.mutated{path.suffix or '.ndjson'}"
            path.write_text(mutate((root / rel).read_text(), case))
        env[var] = str(path)
    cfg_path = root / case.cfg
    if cfg == "no-properties":
        cfg_path = work / f"{case.name}.no-properties.cfg"
        cfg_path.write_text(without_properties((root / case.cfg).read_text()))
    return cfg_path, env


def runs(case: Case, root: Path) -> list[tuple[str, str]]:
    """The (log, cfg) pairs of a case: ``no-properties`` only when its ``.cfg`` has
    properties; a long case's log as committed under its ``.cfg`` only."""
    if case.long:
        return [(LOGS[0], CFGS[0])]
    cfgs = CFGS if has_properties((root / case.cfg).read_text()) else CFGS[:1]
    return [(log, cfg) for log in LOGS for cfg in cfgs]
